"""`askvault mcp` as a bare process: stdout is nothing but JSON-RPC, and SIGTERM stops it cleanly."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest

from askvault.config import vault_data_dir
from askvault.index.lock import IndexLock
from tests.conftest import RunningOllama
from tests.mcp.harness import ASKVAULT, WAIT_S, common_args, isolated_env
from tests.mcp.vaults import build_vault

pytestmark = pytest.mark.slow

PROTOCOL = "2025-11-25"


async def test_stdout_is_protocol_only_and_sigterm_stops_cleanly(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = build_vault(tmp_path)
    log = tmp_path / "stderr.log"
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            str(ASKVAULT),
            "mcp",
            *common_args(vault.root, vault.data_root, fake_ollama.url),
            "--verbose",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env=isolated_env(tmp_path) | {"PATH": "/usr/bin:/bin"},
        )
        assert process.stdin is not None
        assert process.stdout is not None
        lines: list[dict[str, object]] = []

        async def send(message: dict[str, object]) -> None:
            assert process.stdin is not None
            process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
            await process.stdin.drain()

        async def reply(request_id: int) -> dict[str, object]:
            assert process.stdout is not None
            while True:
                raw = await asyncio.wait_for(process.stdout.readline(), WAIT_S)
                assert raw, f"the server closed stdout; stderr:\n{log.read_text()}"
                line = json.loads(raw)  # anything but JSON on stdout fails here
                assert line["jsonrpc"] == "2.0"
                lines.append(line)
                if line.get("id") == request_id:
                    return dict(line)

        client = {"name": "raw-test", "version": "0"}
        await send(
            {
                "id": 1,
                "method": "initialize",
                "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": client},
            }
        )
        initialized = await reply(1)
        await send({"method": "notifications/initialized"})
        await send(
            {"id": 2, "method": "tools/call", "params": {"name": "search_vault", "arguments": {"query": "port"}}}
        )
        searched = await reply(2)
        process.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(process.communicate(), WAIT_S)
    assert process.returncode == 0, log.read_text()
    result = initialized["result"]
    assert isinstance(result, dict)
    assert result["serverInfo"]["name"] == "askvault"
    assert "result" in searched
    for raw in rest.splitlines():
        assert json.loads(raw)["jsonrpc"] == "2.0"
    text = log.read_text()
    # The log went to stderr (with -v only Ask Vault's loggers speak at DEBUG; the MCP library stays at WARNING) …
    assert "INFO askvault.mcp" in text
    assert "Traceback" not in text  # … and the shutdown left no traceback in it
    # The index lock went with the process.
    lock = IndexLock(vault_data_dir(vault.data_root.resolve(), vault.root))
    lock.acquire()
    lock.release()
