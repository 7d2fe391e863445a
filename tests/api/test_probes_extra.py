"""Probes the other API tests leave out: slow clients, and the refusal matrix against the REAL sidecar.

tests/api/test_security.py, test_auth_body.py and test_errors.py cover each guard on every route with fake
services. Here the same kinds of probe go to `run_sidecar` over a real vault and index, and every refusal is
also checked for leaks: no vault or data path, no note text, no token in any refused response.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import stat
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

import askvault.api.server
from askvault.api.discovery import DISCOVERY_FILE
from askvault.api.token import TOKEN_FILE
from askvault.config import Config
from tests.api.conftest import StartSidecar
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import LiveSidecar, live_sidecar

WAIT_S = 20.0
CANARY = "SECRET-CANARY-7f3e91"


async def _dribble(writer: asyncio.StreamWriter, data: bytes, pause_s: float) -> None:
    with contextlib.suppress(ConnectionError):
        for byte in data:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(pause_s)


async def test_a_slow_loris_client_blocks_nobody_and_is_dropped(
    make_sidecar: StartSidecar, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(askvault.api.server, "IDLE_TIMEOUT_S", 1.0)
    async with make_sidecar() as sc:
        reader, writer = await asyncio.open_connection("127.0.0.1", sc.port)
        head = f"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:{sc.port}\r\nAuthorization: Bearer {sc.token}\r\n"
        # Header bytes, one every 50 ms, never finishing the request (a 2 kB header takes 100 s this way).
        dribbler = asyncio.create_task(_dribble(writer, head.encode() + b"X-Pad: " + b"a" * 2000, 0.05))
        try:

            async def normal() -> int:
                async with sc.session.get(sc.url("/api/status"), headers=sc.auth()) as resp:
                    await resp.read()
                    return resp.status

            assert await asyncio.gather(*(normal() for _ in range(20))) == [200] * 20
            async with asyncio.timeout(WAIT_S):
                received = await reader.read()  # EOF once the server drops the connection
            assert received == b""  # dropped without an answer, long before the header was complete
            assert not dribbler.done() or dribbler.exception() is None
            assert await normal() == 200
        finally:
            dribbler.cancel()
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


async def test_a_slow_body_blocks_nobody(make_sidecar: StartSidecar) -> None:
    async with make_sidecar() as sc:
        _, writer = await asyncio.open_connection("127.0.0.1", sc.port)
        head = (
            f"POST /api/search HTTP/1.1\r\nHost: 127.0.0.1:{sc.port}\r\nAuthorization: Bearer {sc.token}\r\n"
            "Content-Type: application/json\r\nContent-Length: 400\r\n\r\n"
        )
        writer.write(head.encode())
        dribbler = asyncio.create_task(_dribble(writer, b'{"query": "' + b"k" * 380, 0.05))
        try:
            searches = [
                sc.session.post(sc.url("/api/search"), json={"query": "kodi"}, headers=sc.auth()) for _ in range(10)
            ]
            for pending in asyncio.as_completed(searches):
                async with await pending as resp:
                    assert resp.status == 200
        finally:
            dribbler.cancel()
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


def test_the_server_drops_idle_connections_well_before_aiohttps_hour() -> None:
    assert 10.0 <= askvault.api.server.IDLE_TIMEOUT_S <= 120.0


# ----- the refusal matrix against the real sidecar ---------------------------------------------------------


@pytest.fixture
async def real(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama
) -> contextlib.AbstractAsyncContextManager[LiveSidecar]:
    vault = make_vault(
        {
            "Private/Bank.md": f"# Bank\n\nThe canary0451 note says {CANARY}.\n",
            "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433.\n",
        }
    )
    from reliability.engine_runs import make_config

    config: Config = make_config(vault, tmp_path / "data", fake_ollama.url)
    return live_sidecar(config)


Probe = tuple[str, str, Callable[[LiveSidecar], dict[str, str]], bytes | None, int]
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


def _auth(car: LiveSidecar, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {car.token}", "Content-Type": JSON, **extra}


SEARCH = json.dumps({"query": "canary0451"}).encode()
PROBES: dict[str, Probe] = {
    "no-token": ("POST", "/api/search", lambda c: {"Content-Type": JSON}, SEARCH, 401),
    "wrong-token": ("POST", "/api/search", lambda c: {**_auth(c), "Authorization": "Bearer " + "x" * 43}, SEARCH, 401),
    "token-in-query": ("POST", f"/api/search?token={'{token}'}", lambda c: {"Content-Type": JSON}, SEARCH, 401),
    "rebinding-host": ("POST", "/api/search", lambda c: _auth(c, Host=f"attacker.example:{c.port}"), SEARCH, 403),
    "rebinding-suffix": ("GET", "/api/status", lambda c: _auth(c, Host=f"127.0.0.1.nip.io:{c.port}"), None, 403),
    "foreign-origin": ("POST", "/api/search", lambda c: _auth(c, Origin="https://evil.example"), SEARCH, 403),
    "null-origin": ("POST", "/api/ask", lambda c: _auth(c, Origin="null"), b'{"question": "bank?"}', 403),
    "look-alike-origin": ("GET", "/api/status", lambda c: _auth(c, Origin="app://obsidian.md.evil"), None, 403),
    "text-plain-post": ("POST", "/api/search", lambda c: _auth(c, **{"Content-Type": "text/plain"}), SEARCH, 415),
    "form-post": ("POST", "/api/reindex", lambda c: _auth(c, **{"Content-Type": FORM}), b"full=1", 415),
    "oversized-body": ("POST", "/api/search", _auth, b'{"query": "' + b"a" * 300_000 + b'"}', 413),
    "excessive-k": ("POST", "/api/search", _auth, b'{"query": "bank", "k": 5000}', 400),
    "excessive-history": (
        "POST", "/api/ask", _auth, json.dumps({"question": "x", "history": [{"role": "user", "content": "a"}] * 500}
        ).encode(), 400,
    ),
    "deep-json": ("POST", "/api/search", _auth, b"[" * 50_000 + b"]" * 50_000, 400),
    "traversal-encoded": ("GET", "/api/chunks/..%2f..%2f..%2fetc%2fpasswd", _auth, None, 404),
    "traversal-dots": ("GET", "/api/chunks/%2e%2e", _auth, None, 404),
    "traversal-note-path": ("GET", "/api/chunks/Private%2fBank.md", _auth, None, 404),
    "absolute-path-id": ("GET", "/api/chunks/%2fetc%2fpasswd", _auth, None, 404),
    "unknown-route-with-path": ("GET", "/api/notes/Private/Bank.md", _auth, None, 404),
    "vault-file-route": ("GET", "/Private/Bank.md", _auth, None, 404),
}  # fmt: skip


async def test_real_sidecar_refuses_every_probe_and_leaks_nothing(
    real: contextlib.AbstractAsyncContextManager[LiveSidecar], tmp_path: Path
) -> None:
    problems: list[str] = []
    async with real as car:
        secrets = (CANARY, "canary0451", car.token, str(tmp_path), str(car.config.vault.root), "Traceback")
        for name, (method, path, headers, body, status) in PROBES.items():
            url = URL(car.url + path.replace("{token}", car.token), encoded=True)
            async with car.session.request(
                method, url, data=body, headers=headers(car), skip_auto_headers=("Content-Type",)
            ) as resp:
                text = await resp.text()
                everything = text + json.dumps(dict(resp.headers))
            if resp.status != status:
                problems.append(f"{name}: {resp.status} instead of {status}: {text[:200]}")
            if not json.loads(text)["error"]["code"]:
                problems.append(f"{name}: no error code")
            problems += [f"{name}: leaks {secret[:12]}…" for secret in secrets if secret in everything]
            if "access-control-allow-origin" in {h.lower() for h in resp.headers}:
                problems.append(f"{name}: CORS headers on a refusal")
        status, body = await car.get("/api/status")  # the probes did no harm
        assert status == 200
        assert body["vault"]["notes"] == 2
    assert problems == []
    assert len(PROBES) == 20


async def test_the_matrix_is_not_vacuous_the_same_requests_pass_with_the_right_credentials(
    real: contextlib.AbstractAsyncContextManager[LiveSidecar],
) -> None:
    async with real as car:
        async with car.session.post(car.url + "/api/search", data=SEARCH, headers=_auth(car)) as resp:
            assert resp.status == 200
            hit = (await resp.json())["results"][0]
        assert hit["path"] == "Private/Bank.md"
        async with car.session.get(f"{car.url}/api/chunks/{hit['id']}", headers=_auth(car)) as resp:
            assert resp.status == 200
            assert CANARY in await resp.text()


async def test_real_sidecar_files_are_private_and_hold_no_token_copies(
    real: contextlib.AbstractAsyncContextManager[LiveSidecar], caplog: pytest.LogCaptureFixture
) -> None:
    async with real as car:
        data = car.config.store.data_dir
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        assert stat.S_IMODE((data / TOKEN_FILE).stat().st_mode) == 0o600
        assert stat.S_IMODE((data / DISCOVERY_FILE).stat().st_mode) == 0o600
        assert car.token not in (data / DISCOVERY_FILE).read_text()
        assert not [p for p in car.config.vault.root.rglob("*") if car.token.encode() in _bytes(p)]
        async with aiohttp.ClientSession() as other, other.get(car.url + "/api/health") as resp:
            assert await resp.json() == {"ok": True}
    assert car.token not in caplog.text


def _bytes(path: Path) -> bytes:
    return path.read_bytes() if path.is_file() else b""
