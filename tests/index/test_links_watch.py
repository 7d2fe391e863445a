"""Links follow the vault through the real watcher and indexer: edits, renames, deletes and new notes."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

from askvault.index.changes import ChangeBatch
from askvault.index.watcher import VaultWatcher
from askvault.retrieve.graph import LinkGraph, resolve_graph
from askvault.store.manifest import MANIFEST_FILE
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import embedded_texts, engine_config, index_once, write_notes

WAIT_S = 20.0
"""Only bounds a broken test; nothing asserts on time."""

NOTES: dict[str, str | bytes] = {
    "a.md": "# A\n\nSee [[Target]] for the plan.\n",
    "b.md": "# B\n\nAlso about [[Target#Plan|the plan]].\n",
    "c.md": "# C\n\nUnlinked so far.\n",
    "Target.md": "# Target\n\n## Plan\n\nThe plan.\n",
}


def graph(engine: Engine) -> LinkGraph:
    return resolve_graph(engine.links.snapshot(), engine.catalog.by_note())


async def until(engine: Engine, check: Callable[[Engine], bool], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while asyncio.get_running_loop().time() < deadline:
        if check(engine):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}; links now {dict(engine.links.snapshot())}")


async def test_links_follow_edits_renames_and_deletes(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
        assert graph(engine).back["Target.md"] == {"a.md", "b.md"}
        watcher = VaultWatcher(vault, engine.indexer, debounce_s=0.05, reconcile_every_s=3600, reconcile_on_start=False)
        await watcher.start()
        try:
            (vault / "a.md").write_text("# A\n\nNow see [[c]] instead.\n", encoding="utf-8")
            await until(engine, lambda e: e.links.snapshot().get("a.md") == ("c",), "a.md's edit is seen")
            assert graph(engine).back["Target.md"] == {"b.md"}
            assert graph(engine).back["c.md"] == {"a.md"}

            # A rename elsewhere: b.md is untouched, its `[[Target]]` simply no longer resolves.
            (vault / "Archive").mkdir()
            (vault / "Target.md").rename(vault / "Archive" / "Target renamed.md")
            await until(
                engine,
                lambda e: "Archive/Target renamed.md" in e.catalog.by_note() and "Target.md" not in e.catalog.by_note(),
                "the rename is seen",
            )
            assert engine.links.snapshot()["b.md"] == ("Target",)
            assert "b.md" not in graph(engine).out

            # A new note with the old name: resolution picks it up, again without touching b.md.
            (vault / "Archive" / "Target.md").write_text("# Target\n\nA new target.\n", encoding="utf-8")
            await until(engine, lambda e: "Archive/Target.md" in e.catalog.by_note(), "the new note is seen")
            assert graph(engine).out["b.md"] == {"Archive/Target.md"}

            (vault / "a.md").unlink()
            await until(engine, lambda e: "a.md" not in e.links.snapshot(), "a.md's delete is seen")
            assert "c.md" not in graph(engine).back
        finally:
            await watcher.stop()

    async with open_engine(config, sync_vectors=False) as reopened:  # served from the manifest at start-up
        assert dict(reopened.links.snapshot()) == {"b.md": ("Target",)}
        assert graph(reopened).out["b.md"] == {"Archive/Target.md"}


async def test_a_watcher_batch_that_excludes_a_note_drops_its_links(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
        (vault / "b.md").write_text("---\naskvault: false\n---\n# B\n\n[[Target]] [[c]]\n", encoding="utf-8")
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"b.md"})))
        assert "b.md" not in engine.links.snapshot()
        assert graph(engine).back["Target.md"] == {"a.md"}


async def test_an_old_manifest_gains_links_on_the_next_run_without_embedding_again(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    first = await index_once(config)
    assert first.embedded > 0
    conn = sqlite3.connect(config.store.data_dir / MANIFEST_FILE)
    with conn:  # what a manifest written before the link graph looks like
        conn.execute("DROP TABLE note_links")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.close()
    sent = len(embedded_texts(fake_ollama.fake))

    again = await index_once(config)

    assert (again.indexed, again.embedded) == (len(NOTES), 0)
    assert len(embedded_texts(fake_ollama.fake)) == sent
    async with open_engine(config, sync_vectors=False) as engine:
        assert graph(engine).back["Target.md"] == {"a.md", "b.md"}
