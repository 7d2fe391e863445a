"""`Indexer.apply` (the watcher's batches) on the real engine: exclusions, unknown deletes, folders, no-op saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.config import Config
from askvault.index.changes import ChangeBatch
from askvault.index.report import Progress
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import (
    embedded_texts,
    engine_config,
    index_once,
    manifest_ids,
    paragraph,
    paths,
    vector_ids,
    write_notes,
)

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC.\n",
    "Homelab/Network/Router.md": (
        f"# Router\n\n## DHCP\n\nThe router hands out leases from 10.0.0.100. {paragraph('lease')}\n\n"
        f"## Firewall\n\nOnly the VPN port is open. {paragraph('rule')}\n"
    ),
    "Drafts/Plan.md": "# Plan\n\nA draft about quasar migrations.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun.\n",
}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    return root


def config_for(vault: Path, fake: RunningOllama, *exclude: str) -> Config:
    return engine_config(vault, vault.parent / "data", fake.url, exclude=exclude)


async def apply(engine: Engine, batch: ChangeBatch) -> list[Progress]:
    seen: list[Progress] = []
    remove = engine.indexer.add_listener(seen.append)
    try:
        await engine.indexer.apply(batch)
    finally:
        remove()
    return seen


async def test_upsert_of_a_now_excluded_path_removes_it(vault: Path, fake_ollama: RunningOllama) -> None:
    await index_once(config_for(vault, fake_ollama))

    async with open_engine(config_for(vault, fake_ollama, "Drafts/"), sync_vectors=True) as engine:
        await apply(engine, ChangeBatch(upserts=frozenset({"Drafts/Plan.md"})))
        report = engine.indexer.last_report
        quasar = await engine.searcher.search("quasar migrations", 5)

        assert report is not None
        assert [(p.path, p.reason) for p in report.skipped] == [("Drafts/Plan.md", "exclude glob 'Drafts/'")]
        assert "Drafts/Plan.md" not in engine.manifest.note_stats()
        assert "Drafts/Plan.md" not in paths(quasar)
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_upsert_of_an_opted_out_note_removes_it(vault: Path, fake_ollama: RunningOllama) -> None:
    config = config_for(vault, fake_ollama)
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
        (vault / "Homelab/Kodi.md").write_text("---\naskvault: false\n---\n# Kodi\n\nLibreELEC.\n", encoding="utf-8")

        await apply(engine, ChangeBatch(upserts=frozenset({"Homelab/Kodi.md"})))
        kodi = await engine.searcher.search("LibreELEC", 5)

        assert "Homelab/Kodi.md" not in engine.manifest.note_stats()
        assert "Homelab/Kodi.md" not in paths(kodi)
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_delete_of_an_unknown_path_changes_nothing(vault: Path, fake_ollama: RunningOllama) -> None:
    async with open_engine(config_for(vault, fake_ollama), sync_vectors=False) as engine:
        await engine.indexer.run()
        before = manifest_ids(engine)

        seen = await apply(engine, ChangeBatch(deletes=frozenset({"Nowhere/ghost.md", "Homelab"})))

        assert engine.indexer.last_report is not None
        assert engine.indexer.last_report.removed == 0
        assert manifest_ids(engine) == before
        assert "keyword" not in {p.phase for p in seen}
        assert await vector_ids(engine) == before


async def test_deleted_prefix_removes_the_folder_and_counts_notes(vault: Path, fake_ollama: RunningOllama) -> None:
    async with open_engine(config_for(vault, fake_ollama), sync_vectors=False) as engine:
        await engine.indexer.run()

        await apply(engine, ChangeBatch(deleted_prefixes=frozenset({"Homelab"})))
        leases = await engine.searcher.search("router leases", 5)

        assert engine.indexer.last_report is not None
        assert engine.indexer.last_report.removed == 3  # notes, not the 4 chunks they had
        assert set(engine.manifest.note_stats()) == {"Drafts/Plan.md", "Ideas/Gardening.md"}
        assert all(not p.startswith("Homelab/") for p in paths(leases))
        assert await vector_ids(engine) == manifest_ids(engine)
        assert {c.path for c in engine.catalog.snapshot().values()} == {"Drafts/Plan.md", "Ideas/Gardening.md"}


async def test_folder_gone_and_back_in_one_batch_keeps_the_new_note(vault: Path, fake_ollama: RunningOllama) -> None:
    async with open_engine(config_for(vault, fake_ollama), sync_vectors=False) as engine:
        await engine.indexer.run()
        (vault / "Homelab/Kodi.md").unlink()
        (vault / "Homelab/Network/Router.md").unlink()

        await apply(
            engine,
            ChangeBatch(upserts=frozenset({"Homelab/Postgres.md"}), deleted_prefixes=frozenset({"Homelab"})),
        )

        assert set(engine.manifest.note_stats()) == {"Homelab/Postgres.md", "Drafts/Plan.md", "Ideas/Gardening.md"}
        assert paths(await engine.searcher.search("port 5433", 1)) == ["Homelab/Postgres.md"]
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_a_save_without_changes_rebuilds_and_embeds_nothing(vault: Path, fake_ollama: RunningOllama) -> None:
    async with open_engine(config_for(vault, fake_ollama), sync_vectors=False) as engine:
        await engine.indexer.run()
        embedded = len(embedded_texts(fake_ollama.fake))

        seen = await apply(engine, ChangeBatch(upserts=frozenset({"Homelab/Postgres.md"})))

        report = engine.indexer.last_report
        assert report is not None
        assert (report.indexed, report.unchanged) == (0, 1)
        assert "keyword" not in {p.phase for p in seen}
        assert len(embedded_texts(fake_ollama.fake)) == embedded


async def test_an_edit_reembeds_that_note_only(vault: Path, fake_ollama: RunningOllama) -> None:
    async with open_engine(config_for(vault, fake_ollama), sync_vectors=False) as engine:
        await engine.indexer.run()
        embedded = len(embedded_texts(fake_ollama.fake))
        (vault / "Ideas/Gardening.md").write_text("# Gardening\n\nChillies like heat.\n", encoding="utf-8")

        await apply(engine, ChangeBatch(upserts=frozenset({"Ideas/Gardening.md"})))
        chillies = await engine.searcher.search("chillies heat", 3, "dense")

        new = embedded_texts(fake_ollama.fake)[embedded:]
        assert len(new) == 1
        assert "Chillies" in new[0]
        assert paths(chillies)[0] == "Ideas/Gardening.md"
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_excluded_files_edited_in_obsidian_apply_to_the_next_batch(
    vault: Path, fake_ollama: RunningOllama
) -> None:
    async with open_engine(config_for(vault, fake_ollama), sync_vectors=False) as engine:
        await engine.indexer.run()
        write_notes(vault, {".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Drafts/"]})})

        await apply(engine, ChangeBatch(upserts=frozenset({"Drafts/Plan.md"})))

        report = engine.indexer.last_report
        assert report is not None
        assert [(p.path, p.reason) for p in report.skipped] == [
            ("Drafts/Plan.md", "Obsidian Excluded files: 'Drafts/'")
        ]
        assert "Drafts/Plan.md" not in engine.manifest.note_stats()
        assert await vector_ids(engine) == manifest_ids(engine)
