"""The CLI with no embedding model named: the built-in embedder indexes, later commands reuse it without flags, and a
configured embedder that is unavailable is said on stderr in one line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.cli_helpers import invoke
from tests.engine_helpers import write_notes

NOTES: dict[str, str | bytes] = {
    "Pets/Cat.md": "# Cat\n\nThe cat sleeps on the warm windowsill every afternoon and purrs at the pigeons.\n",
    "Work/Revenue.md": "# Revenue\n\nQuarterly revenue grew by eight percent after the new pricing plan.\n",
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the reverse proxy.\n",
}


def flags(tmp_path: Path, ollama_url: str) -> list[str]:
    """No --embed-model; an empty config file; an Ollama URL where nothing listens (search must not need one)."""
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config_file = tmp_path / "empty.toml"
    config_file.write_text("", encoding="utf-8")
    return ["--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--ollama-url", ollama_url,
            "--config", str(config_file)]  # fmt: skip


async def test_index_then_search_without_flags_is_semantic(tmp_path: Path, closed_port_url: str) -> None:
    shared = flags(tmp_path, closed_port_url)
    indexed = await invoke("index", *shared)
    assert indexed.exit_code == 0, indexed.output
    assert "Dense search: ready with built-in all-MiniLM-L6-v2, 384-d (3 chunks embedded this run)." in indexed.stdout

    found = await invoke("search", *shared, "kitten napping in the sunshine", "--json")
    assert found.exit_code == 0, found.output
    assert found.stderr == ""
    results = json.loads(found.stdout)["results"]
    assert results[0]["path"] == "Pets/Cat.md"
    assert all(result["dense_rank"] is not None for result in results)


async def test_a_configured_embedder_that_is_down_is_said_once(tmp_path: Path, closed_port_url: str) -> None:
    shared = flags(tmp_path, closed_port_url)
    assert (await invoke("index", *shared)).exit_code == 0
    found = await invoke("search", *shared, "--embed-model", "nomic-embed-text", "port 5433")
    assert found.exit_code == 0, found.output
    assert found.stdout.startswith(" 1. Homelab/Postgres.md")
    assert found.stderr.splitlines() == [
        "The index was built with built-in all-MiniLM-L6-v2; its vectors are rebuilt with Ollama: nomic-embed-text, "
        "and keyword search covers what is not embedded yet.",
        f"Keyword search only: Ollama: nomic-embed-text is unavailable — Ollama not reachable at {closed_port_url} "
        "— start it with `ollama serve`, or set --ollama-url / OLLAMA_HOST.",
    ]
    # The built-in vectors were not touched: without the flag the search is hybrid again.
    again = await invoke("search", *shared, "port 5433", "--json")
    assert again.stderr == ""
    assert json.loads(again.stdout)["results"][0]["dense_rank"] is not None
