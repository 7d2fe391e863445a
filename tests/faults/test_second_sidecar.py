"""A second `askvault serve` on a vault a sidecar is serving: exit code 3, a clear line, no harm done.

(`askvault index` beside a sidecar asks it to reindex instead: tests/cli/test_beside_sidecar.py.)"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from askvault.api.discovery import read_discovery
from askvault.api.token import TOKEN_FILE
from askvault.cli.options import EXIT_LOCKED
from askvault.config import Config
from reliability.engine_runs import child_env
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import WAIT_S, live_sidecar, numbered_notes

pytestmark = pytest.mark.slow


async def _askvault(tmp_path: Path, *args: str) -> tuple[int, str]:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from askvault.cli import main; main()",
        *args,
        env=child_env(tmp_path),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(child.communicate(), WAIT_S * 3)
    assert child.returncode is not None
    return child.returncode, stderr.decode()


@pytest.mark.parametrize("command", ["serve"])
async def test_a_second_process_on_the_same_vault_exits_3_and_the_first_keeps_serving(
    make_vault: VaultWriter,
    config_for: Callable[[Path, str], Config],
    fake_ollama: RunningOllama,
    tmp_path: Path,
    command: str,
) -> None:
    vault = make_vault(numbered_notes(4))
    config = config_for(vault, fake_ollama.url)
    async with live_sidecar(config) as car:
        token_before = (config.store.data_dir / TOKEN_FILE).read_bytes()
        extra = ["--port", "0"] if command == "serve" else []
        code, stderr = await _askvault(
            tmp_path,
            command,
            "--vault",
            str(vault),
            "--data-dir",
            str(tmp_path / "data"),
            "--ollama-url",
            fake_ollama.url,
            *extra,
        )
        assert code == EXIT_LOCKED
        assert stderr.strip().splitlines()[-1] == (
            f"askvault: another Ask Vault process is using this vault's index (pid {os.getpid()}); "
            "stop it or talk to the running sidecar instead"
        )
        assert "Traceback" not in stderr

        assert await car.search("lantern0002") == {"Notes/Note 002.md"}
        status, _ = await car.post("/api/reindex", {"full": True})
        assert status == 202
        discovery = read_discovery(config.store.data_dir)
        assert discovery is not None
        assert (discovery.pid, discovery.port) == (os.getpid(), car.port)
        assert (config.store.data_dir / TOKEN_FILE).read_bytes() == token_before
