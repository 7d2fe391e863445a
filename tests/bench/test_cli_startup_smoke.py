"""The `cli` bench part end to end on a tiny vault: a real `askvault serve`, each command timed once. No timing
assertions: only that every command ran, and that the figures reach the JSON, the goals and the Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.cli_startup import CliOptions

from bench import suite

pytestmark = pytest.mark.slow

COMMANDS = {
    "python -c print(0) (floor)",
    "--version",
    "--help",
    "token",
    "search (through the sidecar)",
    "search --json (through the sidecar)",
}


def _tiny_vault(root: Path) -> Path:
    (root / ".obsidian").mkdir(parents=True)
    (root / "Kodi.md").write_text("# Kodi\n\nThe maintenance workflow cleans the library weekly.\n", "utf-8")
    (root / "Postgres.md").write_text("# Postgres\n\nThe database listens on port 5433.\n", "utf-8")
    return root


@pytest.mark.timeout(300)
def test_cli_part_times_every_command_through_a_real_sidecar(tmp_path: Path) -> None:
    options = suite.Options(
        parts=("cli",),
        cli=CliOptions(vault=_tiny_vault(tmp_path / "tiny"), runs=1),
        out=tmp_path / "results",
        stamp="2000-01-01",
        name="cli",
    )
    paths = suite.run_suite(options)

    results = json.loads(paths["json"].read_text(encoding="utf-8"))
    cli = results["cli"]
    assert (cli["vault"], cli["notes"], cli["chunks"]) == ("tiny", 2, 2)
    assert cli["embedder"] == "built-in all-MiniLM-L6-v2, 384-d"
    assert set(cli["commands"]) == COMMANDS
    for figures in cli["commands"].values():
        assert figures["runs"] == 1
        assert 0 < figures["min_ms"] <= figures["median_ms"] <= figures["max_ms"]
    measured = {row["name"]: row["value"] for row in results["goals"] if str(row["name"]).startswith("`askvault")}
    assert len(measured) == 3
    assert all(isinstance(value, float) for value in measured.values())
    markdown = paths["md"].read_text(encoding="utf-8")
    assert "## Command-line start-up" in markdown
    assert "| search (through the sidecar) | " in markdown
    assert not (tmp_path / "results" / "cli").exists()
