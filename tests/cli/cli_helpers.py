"""Running `askvault` in tests: in-process through CliRunner (on a worker thread), or as a real subprocess."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner, Result

from askvault.cli import cli
from askvault.config import Config, load_config
from tests.engine_helpers import write_notes

CLEAN_ENV: dict[str, str | None] = {
    "ASKVAULT_VAULT": None,
    "ASKVAULT_DATA_DIR": None,
    "ASKVAULT_EMBED_MODEL": None,
    "ASKVAULT_CHAT_MODEL": None,
    "ASKVAULT_EXCLUDE": None,
    "OLLAMA_HOST": None,
    "QDRANT_URL": None,
}
"""Variables that would otherwise leak from the developer's shell into the command under test."""


OLLAMA_EMBED_MODEL = "nomic-embed-text"
"""The commands under test embed through the fake Ollama (the built-in embedder has tests of its own)."""


def common(vault: Path, data_root: Path, ollama_url: str) -> list[str]:
    """--vault, --data-dir, --ollama-url, --embed-model (Ollama's, served by the fake) and an empty --config (the
    user's own config file must not count)."""
    config_file = data_root.parent / "askvault-test-config.toml"
    if not config_file.exists():
        config_file.write_text("", encoding="utf-8")
    return [
        "--vault",
        str(vault),
        "--data-dir",
        str(data_root),
        "--ollama-url",
        ollama_url,
        "--embed-model",
        OLLAMA_EMBED_MODEL,
        "--config",
        str(config_file),
    ]


def config_of(vault: Path, data_root: Path) -> Config:
    """The configuration the CLI builds from these flags (where its per-vault data dir is)."""
    return load_config({"vault": vault, "data_dir": data_root}, {})


async def invoke(*args: str) -> Result:
    """Runs one command in-process; a worker thread, since the command runs its own event loop while the fake
    Ollama keeps serving on the test's."""
    runner = CliRunner(env=CLEAN_ENV)
    return await asyncio.to_thread(runner.invoke, cli, list(args), catch_exceptions=False)


async def indexed_vault(tmp_path: Path, ollama_url: str, notes: Mapping[str, str | bytes], *extra: str) -> list[str]:
    """Writes `notes` into `tmp_path/vault`, indexes it with the fake Ollama's embedder and returns the flags that
    reach that index (`common` plus `extra`)."""
    vault = tmp_path / "vault"
    write_notes(vault, notes)
    shared = [*common(vault, tmp_path / "data", ollama_url), *extra]
    indexed = await invoke("index", *shared)
    assert indexed.exit_code == 0, indexed.output
    return shared


def run_process(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """Runs `askvault` as a separate process (for what must cross a process boundary, like the writer lock)."""
    env = {key: value for key, value in os.environ.items() if key not in CLEAN_ENV}
    command = [sys.executable, "-c", "from askvault.cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, check=False)
