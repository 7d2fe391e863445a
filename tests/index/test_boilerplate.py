"""The indexer's boilerplate pass: lines in many notes leave the index text, the notes stay as they are."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from askvault.config import ChunkParams
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, paragraph, write_notes

FOOTER = "[[Home]] · [[Index]] · [[Inbox]]"


async def test_lines_in_many_notes_are_kept_out_of_the_index(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    notes = {f"Note {i}.md": f"# Note {i}\n{paragraph(f'topic{i}x')}\n\n{FOOTER}\n" for i in range(4)}
    notes["Odd.md"] = f"# Odd\n{paragraph('odd')}\n"
    write_notes(vault, notes)
    base = engine_config(vault, tmp_path / "data", fake_ollama.url)
    config = dataclasses.replace(base, chunk=ChunkParams(boilerplate_min_notes=3))
    report = await index_once(config)
    assert report.indexed == 5
    async with open_engine(config, sync_vectors=False) as engine:
        chunks = list(engine.manifest.iter_chunks())
    assert len(chunks) == 5
    assert not any("Home · Index · Inbox" in chunk.index_text for chunk in chunks)
    assert all(FOOTER in (vault / name).read_text(encoding="utf-8") for name in notes if name != "Odd.md")

    # Off (the default): the footer stays in every note's chunk, and the changed setting re-chunks every note.
    report = await index_once(base)
    assert report.indexed == 5
    async with open_engine(base, sync_vectors=False) as engine:
        kept = [c for c in engine.manifest.iter_chunks() if "Home · Index · Inbox" in c.index_text]
    assert len(kept) == 4
