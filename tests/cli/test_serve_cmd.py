"""`askvault serve` as a user runs it: the banner, a free port when the default is taken, the ready line."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import re
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from askvault.api.discovery import read_discovery
from askvault.config import DEFAULT_PORT
from reliability.engine_runs import child_env
from tests.cli.cli_helpers import OLLAMA_EMBED_MODEL, config_of
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import numbered_notes

pytestmark = pytest.mark.slow

WAIT_S = 60.0


@contextlib.contextmanager
def held(port: int) -> Iterator[None]:
    """Another program on `port` for the block: this test's own socket, or whoever already listens there."""
    squatter = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
    except OSError as exc:
        squatter.close()
        if exc.errno != errno.EADDRINUSE:
            raise
        yield  # taken already (a sidecar someone runs on this machine): the case under test all the same
        return
    with squatter:
        yield


async def _serve(tmp_path: Path, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from askvault.cli import main; main()",
        "serve",
        *args,
        env=child_env(tmp_path),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _lines_until(stream: asyncio.StreamReader, prefix: str) -> list[str]:
    lines: list[str] = []
    while not (lines and lines[-1].startswith(prefix)):
        raw = await asyncio.wait_for(stream.readline(), WAIT_S)
        assert raw, f"the output ended before {prefix!r}: {lines}"
        lines.append(raw.decode().rstrip("\n"))
    return lines


async def test_serve_takes_a_free_port_when_the_default_is_taken_and_says_when_the_index_is_ready(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = make_vault(numbered_notes(30))
    data = tmp_path / "data"
    flags = ["--vault", str(vault), "--data-dir", str(data), "--ollama-url", fake_ollama.url]
    with held(DEFAULT_PORT):
        child = await _serve(tmp_path, *flags, "--embed-model", OLLAMA_EMBED_MODEL)
        assert child.stdout is not None
        assert child.stderr is not None
        try:
            out = await _lines_until(child.stdout, "Index ready in ")
        finally:
            discovery = read_discovery(config_of(vault, data).store.data_dir)
            child.send_signal(signal.SIGINT)
            _, err = await asyncio.wait_for(child.communicate(), WAIT_S)
    assert child.returncode == 0, err.decode()
    assert discovery is not None
    assert discovery.port != DEFAULT_PORT
    assert out[0] == f"Ask Vault is serving vault on http://127.0.0.1:{discovery.port}"
    assert out[1] == (
        f"  port: {DEFAULT_PORT} is taken by another program, so this sidecar listens on {discovery.port}; "
        "the plugin finds it by itself (pass --port to insist on one)."
    )
    assert re.fullmatch(
        r"Index ready in \d+\.\d s: 30 notes, \d+ chunks \(30 new or changed, 0 unchanged, 0 removed\); "
        r"0 failed, 0 skipped\.",
        out[-1],
    ), out
    assert "Traceback" not in err.decode()


async def test_serve_refuses_a_chosen_port_that_is_taken_in_one_line(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = make_vault(numbered_notes(2))
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = int(squatter.getsockname()[1])
        child = await _serve(
            tmp_path, "--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--port", str(port),
            "--ollama-url", fake_ollama.url, "--embed-model", OLLAMA_EMBED_MODEL,
        )  # fmt: skip
        out, err = await asyncio.wait_for(child.communicate(), WAIT_S)
    assert child.returncode not in (0, None)
    stderr = err.decode()
    last = stderr.strip().splitlines()[-1]
    assert last.endswith(
        f"--port {port}: cannot listen on 127.0.0.1: another program is using that port; stop it, or choose "
        "another --port (0 picks a free one)"
    ), stderr
    assert "Traceback" not in stderr
    assert out.decode() == ""
