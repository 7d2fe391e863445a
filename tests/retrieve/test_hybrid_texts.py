"""Hits get their texts from the manifest (the catalog keeps none): in full, and never for a chunk removed since the
search's catalog snapshot."""

from __future__ import annotations

from pathlib import Path

from askvault.retrieve.trace import SearchTrace
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, write_notes

NOTES: dict[str, str | bytes] = {
    "Homelab/Kodi.md": "# Kodi\n\n## Remote\n\nThe Kodi remote pairs over Bluetooth.\n",
    "Homelab/Postgres.md": "# Postgres\n\nThe Kodi library lives in Postgres on port 5433 (kodi-db).\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun.\n",
}


async def test_hits_carry_their_texts_and_a_chunk_removed_meanwhile_is_not_shown(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    write_notes(tmp_path / "vault", NOTES)
    async with indexed_engine(engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)) as engine:
        stored = {chunk.id: chunk for chunk in engine.manifest.iter_chunks()}
        for question in ["kodi remote", "kodi-db port 5433"]:  # the second holds an identifier
            result = await engine.searcher.search(question, 5)
            assert {hit.chunk.path for hit in result.hits} >= {"Homelab/Kodi.md", "Homelab/Postgres.md"}
            assert all(hit.chunk == stored[hit.chunk.id] for hit in result.hits)  # texts and all

        engine.manifest.remove_note("Homelab/Postgres.md")  # committed; the catalog is swapped only later
        assert any(chunk.path == "Homelab/Postgres.md" for chunk in engine.catalog.snapshot().values())
        trace = SearchTrace()
        result = await engine.searcher.search("kodi-db port 5433", 5, trace=trace)
        shown = [hit.chunk.path for hit in result.hits]
        assert "Homelab/Kodi.md" in shown
        assert "Homelab/Postgres.md" not in shown
        assert all(hit.chunk == stored[hit.chunk.id] for hit in trace.fused)
        related = await engine.related.related("Homelab/Kodi.md", 5)
        assert "Homelab/Postgres.md" not in [hit.path for hit in related.hits]
