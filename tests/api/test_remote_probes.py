"""Remote mode as an attacker tries it: every probe against the real TLS listener is refused, and said why."""

from __future__ import annotations

import asyncio
import logging
import socket
from datetime import timedelta
from pathlib import Path

import pytest

from askvault.api.remote.failures import FailureLimiter
from askvault.errors import ConfigError
from tests.api.conftest import assert_error
from tests.api.remote_sidecar import REMOTE_HOST, start_remote

WRONG = "not-a-device-token-0123456789abcdefghijklmnopqrstu"


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": f"Bearer {WRONG}"}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}],
    ids=["missing", "wrong", "basic", "empty"],
)
async def test_no_device_token_no_answer(tmp_path: Path, headers: dict[str, str]) -> None:
    async with start_remote(tmp_path) as remote:
        async with remote.session.post(remote.url("/api/search"), json={"query": "kodi"}, headers=headers) as res:
            assert res.status == 401
            assert_error(await res.json(), "unauthorized")
        assert remote.searcher.calls == []


@pytest.mark.parametrize(
    ("host", "ok"),
    [
        (None, True),
        ("evil.example:{port}", False),
        ("127.0.0.1:{port}", False),
        ("{host}:1", False),
        ("desk.tailnet-1234.ts.net:{port}", True),
        ("other.tailnet-1234.ts.net:{port}", False),
    ],
)
async def test_host_must_name_the_remote_listener(tmp_path: Path, host: str | None, ok: bool) -> None:
    async with start_remote(tmp_path, names=("desk.tailnet-1234.ts.net",)) as remote:
        headers = {} if host is None else {"Host": host.format(port=remote.remote.port, host=REMOTE_HOST)}
        async with remote.session.get(remote.url("/api/health"), headers=headers) as res:
            assert (res.status == 200) is ok
            if not ok:
                assert_error(await res.json(), "forbidden")


@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        ("app://obsidian.md", True),
        ("capacitor://localhost", True),
        ("http://localhost", True),
        ("https://evil.example", False),
        ("http://localhost:8080", False),
        ("null", False),
    ],
)
async def test_origin_allow_list(tmp_path: Path, origin: str, ok: bool) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair()
        headers = {"Origin": origin, "Authorization": f"Bearer {token}"}
        async with remote.session.get(remote.url("/api/status"), headers=headers) as res:
            assert (res.status == 200) is ok
        preflight = {"Origin": origin, "Access-Control-Request-Method": "POST"}
        async with remote.session.options(remote.url("/api/ask"), headers=preflight) as res:
            assert (res.status == 204) is ok
            if ok:
                assert res.headers["Access-Control-Allow-Origin"] == origin


async def test_a_code_works_once(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        code = remote.issue()
        async with remote.session.post(remote.url("/api/pair"), json={"code": code, "device": "A"}) as res:
            assert res.status == 200
        async with remote.session.post(remote.url("/api/pair"), json={"code": code, "device": "B"}) as res:
            assert res.status == 403
            body = await res.json()
        assert_error(body, "pairing_refused")
        assert "already used" in body["error"]["message"]
        assert [d.name for d in remote.access.devices.devices()] == ["A"]


async def test_an_expired_code_is_refused(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        code = remote.issue(minutes=1)
        remote.clock.now += timedelta(minutes=1, seconds=1)
        async with remote.session.post(remote.url("/api/pair"), json={"code": code, "device": "A"}) as res:
            assert res.status == 403
            body = await res.json()
        assert_error(body, "pairing_refused")
        assert "expired" in body["error"]["message"]
        assert remote.access.devices.devices() == []


@pytest.mark.parametrize(
    "body",
    [{"code": "ABCD-EFGH"}, {"device": "x"}, {"code": 5, "device": "x"}, {"code": "A", "device": "x", "admin": True}],
)
async def test_malformed_pairing_requests(tmp_path: Path, body: dict[str, object]) -> None:
    async with start_remote(tmp_path) as remote, remote.session.post(remote.url("/api/pair"), json=body) as res:
        assert res.status == 400
        assert_error(await res.json(), "bad_request")


async def test_guessing_codes_withdraws_them(tmp_path: Path) -> None:
    limiter = FailureLimiter(limit=100)  # the per-address block is tested below; here the code store's own limit
    async with start_remote(tmp_path, limiter=limiter) as remote:
        code = remote.issue()
        for _ in range(10):
            async with remote.session.post(remote.url("/api/pair"), json={"code": "2222-2222", "device": "x"}) as res:
                assert res.status == 403
        async with remote.session.post(remote.url("/api/pair"), json={"code": code, "device": "x"}) as res:
            assert res.status == 403
            assert "askvault pair" in (await res.json())["error"]["message"]


async def test_repeated_failures_are_rate_limited_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with start_remote(tmp_path) as remote:
        token = await remote.pair()
        with caplog.at_level(logging.WARNING, logger="askvault.api"):
            for _ in range(5):
                async with remote.session.get(
                    remote.url("/api/status"), headers={"Authorization": f"Bearer {WRONG}"}
                ) as res:
                    assert res.status == 401
            # Blocked now, even with the right token: a guesser cannot tell a hit from a miss. A phone's WebView
            # can still read why (CORS headers on the 429).
            headers = {"Authorization": f"Bearer {token}", "Origin": "capacitor://localhost"}
            async with remote.session.get(remote.url("/api/status"), headers=headers) as res:
                assert res.status == 429
                assert res.headers["Retry-After"] == "60"
                assert res.headers["Access-Control-Allow-Origin"] == "capacitor://localhost"
                body = await res.json()
        assert_error(body, "too_many_failures")
        assert "from 127.0.0.1 on GET /api/status" in caplog.text  # the client address, not the token
        assert WRONG not in caplog.text
        assert token not in caplog.text


async def test_plain_http_to_the_remote_port_gets_no_http_answer(tmp_path: Path) -> None:
    async with start_remote(tmp_path) as remote:
        reader, writer = await asyncio.open_connection(REMOTE_HOST, remote.remote.port)
        writer.write(f"GET /api/health HTTP/1.1\r\nHost: {REMOTE_HOST}:{remote.remote.port}\r\n\r\n".encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout=10)
        writer.close()
    assert not data.startswith(b"HTTP/")
    assert b'"ok"' not in data


async def test_a_taken_remote_port_is_said_in_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind((REMOTE_HOST, 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(ConfigError) as info:
            async with start_remote(tmp_path, port=port):
                pass
    assert "another program is using that port" in info.value.message
    assert "0 picks" not in info.value.message  # devices remember the port: it is never a free one


async def test_an_address_this_machine_lacks_is_said_in_one_sentence(tmp_path: Path) -> None:
    # 192.0.2.0/24 is TEST-NET-1: documentation only, on no machine's interface.
    with pytest.raises(ConfigError, match="this machine has no such address"):
        async with start_remote(tmp_path, host="192.0.2.7", port=8765):
            pass
