"""Shared by the first-hour error tests: a small vault, the flags every command takes, and one-sentence checks."""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner, Result

from askvault.cli import cli
from tests.cli.cli_helpers import CLEAN_ENV, OLLAMA_EMBED_MODEL
from tests.engine_helpers import write_notes

NOTES: dict[str, str | bytes] = {
    ".obsidian/app.json": "{}",
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
}


def write_vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    return root


def location_flags(vault: Path, data_root: Path) -> list[str]:
    """Only the flags every command takes (each offers its own groups of the rest); an empty config file, so the
    user's own does not count."""
    config_file = vault.parent / "empty-config.toml"
    config_file.write_text("", encoding="utf-8")
    return ["--vault", str(vault), "--data-dir", str(data_root), "--config", str(config_file)]


async def invoke_with_env(*args: str, ollama_url: str) -> Result:
    """One command in-process on a worker thread, Ollama and its embedding model given the way any command
    reads them: by environment."""
    env = {**CLEAN_ENV, "OLLAMA_HOST": ollama_url, "ASKVAULT_EMBED_MODEL": OLLAMA_EMBED_MODEL}
    return await asyncio.to_thread(CliRunner(env=env).invoke, cli, list(args), catch_exceptions=False)


def assert_one_sentence(stderr: str, *needles: str) -> None:
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("askvault: ")]
    assert len(lines) == 1, stderr
    for needle in needles:
        assert needle in lines[0], stderr
