"""Remote mode end to end over real TLS: pairing, the device token on every route, streaming, the fingerprint."""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest

from askvault.api.remote.devices import DeviceStore
from tests.api.conftest import ORIGIN, PROTECTED, PROTECTED_IDS, TOKEN, assert_error
from tests.api.remote_sidecar import REMOTE_HOST, start_remote, trusting


async def test_pairing_gives_a_token_that_opens_every_route(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        code = remote.issue()
        async with remote.session.post(remote.url("/api/pair"), json={"code": code, "device": "Pixel 8"}) as res:
            assert res.status == 200
            body = await res.json()
        assert set(body) == {"token", "device", "fingerprint"}
        assert body["device"] == "Pixel 8"
        assert body["fingerprint"] == remote.cert.fingerprint
        headers = {"Authorization": f"Bearer {body['token']}", "Origin": "capacitor://localhost"}
        for method, path, payload in PROTECTED:
            if path == "/api/events":
                continue  # a stream that does not end; test_events_stream_over_tls reads it
            async with remote.session.request(method, remote.url(path), json=payload, headers=headers) as res:
                assert res.status < 400 or res.status == 404, (path, res.status, await res.text())
                assert res.headers["Access-Control-Allow-Origin"] == "capacitor://localhost"
        # Stored hashed, never as written.
        stored = json.loads((tmp_path / "remote" / "devices.json").read_text())
        assert body["token"] not in json.dumps(stored)
        assert stored["devices"][0]["token_sha256"] == hashlib.sha256(body["token"].encode()).hexdigest()


async def test_health_names_the_certificate_the_connection_used(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        async with remote.session.get(remote.url("/api/health")) as res:
            assert res.status == 200
            assert (await res.json()) == {"ok": True, "fingerprint": remote.cert.fingerprint}
        _, writer = await asyncio.open_connection(REMOTE_HOST, remote.remote.port, ssl=trusting(remote.cert))
        peer = writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
        writer.close()
        digest = hashlib.sha256(peer).hexdigest().upper()
        assert remote.cert.fingerprint == ":".join(digest[i : i + 2] for i in range(0, 64, 2))


async def test_an_answer_streams_to_a_paired_device(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair()
        headers = {"Authorization": f"Bearer {token}", "Origin": "http://localhost"}
        async with remote.session.post(remote.url("/api/ask"), json={"question": "kodi?"}, headers=headers) as res:
            assert res.status == 200
            assert res.headers["Content-Type"].startswith("application/x-ndjson")
            lines = [json.loads(line) async for line in res.content if line.strip()]
        assert lines[-1]["type"] == "done"
        assert remote.answerer.calls[0][0] == "kodi?"


async def test_events_stream_over_tls(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair()
        async with remote.session.get(remote.url("/api/events"), headers={"Authorization": f"Bearer {token}"}) as res:
            assert res.status == 200
            first = json.loads(await res.content.readline())
        assert first["type"] == "status"


async def test_devices_get_names_of_their_own(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        await remote.pair("Phone")
        await remote.pair("Phone")
        names = [d.name for d in DeviceStore(tmp_path / "remote" / "devices.json").devices()]
    assert names == ["Phone", "Phone (2)"]


@pytest.mark.parametrize(("method", "path", "body"), PROTECTED, ids=PROTECTED_IDS)
async def test_the_loopback_token_does_not_open_the_remote_listener(
    tmp_path: Path, method: str, path: str, body: object
) -> None:
    async with start_remote(tmp_path) as remote:
        headers = {"Authorization": f"Bearer {TOKEN}", "Origin": ORIGIN}
        async with remote.session.request(method, remote.url(path), json=body, headers=headers) as res:
            assert res.status == 401
            assert_error(await res.json(), "unauthorized")
        assert remote.searcher.calls == []
        assert remote.answerer.calls == []


async def test_a_device_token_does_not_open_the_loopback_listener(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair()
        async with remote.session.get(
            remote.local_url("/api/status"), headers={"Authorization": f"Bearer {token}"}
        ) as res:
            assert res.status == 401
        async with remote.session.post(
            remote.local_url("/api/pair"),
            json={"code": remote.issue(), "device": "x"},
            headers={"Authorization": f"Bearer {TOKEN}"},
        ) as res:
            assert res.status == 404  # pairing exists only where TLS does


async def test_revoking_a_device_shuts_it_out_on_its_next_request(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair("Old phone")
        headers = {"Authorization": f"Bearer {token}"}
        async with remote.session.get(remote.url("/api/status"), headers=headers) as res:
            assert res.status == 200
        # `askvault revoke` is another process with its own store on the same file.
        assert DeviceStore(tmp_path / "remote" / "devices.json").revoke("Old phone")
        async with remote.session.get(remote.url("/api/status"), headers=headers) as res:
            assert res.status == 401
            body = await res.json()
        assert_error(body, "unauthorized")
        assert "askvault pair" in body["error"]["message"]


async def test_last_use_is_recorded(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair("Tablet")
        async with remote.session.get(remote.url("/api/status"), headers={"Authorization": f"Bearer {token}"}):
            pass
        remote.access.devices.flush()
    (tablet,) = DeviceStore(tmp_path / "remote" / "devices.json").devices()
    assert tablet.last_used is not None


async def test_a_client_that_trusts_another_certificate_is_refused_by_tls(tmp_path: Path) -> None:
    """What a phone sees when the certificate is not the one it trusts: no connection, so no token sent."""
    async with start_remote(tmp_path / "a") as first, start_remote(tmp_path / "b") as second:
        assert first.cert.fingerprint != second.cert.fingerprint
        with pytest.raises(aiohttp.ClientConnectorCertificateError):
            async with first.session.get(second.url("/api/health")):
                pass
        assert second.searcher.calls == []


async def test_the_certificate_covers_the_names_devices_use(tmp_path: Path) -> None:
    async with start_remote(tmp_path, names=("desk.tailnet-1234.ts.net",)) as remote:
        _, writer = await asyncio.open_connection(
            REMOTE_HOST, remote.remote.port, ssl=trusting(remote.cert), server_hostname="desk.tailnet-1234.ts.net"
        )
        writer.close()


def test_pairing_codes_expire(tmp_path: Path) -> None:
    """Checked at the store (the route maps the same refusal); the clock moves instead of the test waiting."""
    from askvault.api.remote.pairing import PairingCodes, PairingRefused
    from tests.api.remote.clock import Clock

    clock = Clock()
    codes = PairingCodes(tmp_path / "pairing.json", clock=clock)
    code = codes.issue(1).code
    clock.now += timedelta(minutes=2)
    with pytest.raises(PairingRefused, match="expired"):
        codes.redeem(code)
