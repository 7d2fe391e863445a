"""The indexer on the real engine: embedded Qdrant, SQLite manifest, files on disk, fake Ollama via the real client."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from askvault.chunk import chunk_note
from askvault.config import Config
from askvault.errors import VaultError
from askvault.index import note_writer as indexer_module
from askvault.index.report import Progress
from askvault.model import Note, SearchFilters
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import (
    before_chunking,
    embedded_ids,
    embedded_texts,
    engine_config,
    index_once,
    manifest_ids,
    paragraph,
    paths,
    set_mtime,
    vector_ids,
    write_notes,
)

POSTGRES = (
    "---\ntags: [db]\n---\n# Postgres\n\n"
    f"## Port\n\nThe database listens on port 5433 behind the proxy. {paragraph('listener')}\n\n"
    f"## Backups\n\nNightly dumps run at 02:00 and go to the NAS. {paragraph('dumper')}\n\n"
    f"## Upgrades\n\nMajor upgrades use pg_upgrade in link mode. {paragraph('upgrader')}\n"
)
NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": POSTGRES,
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC and scans the NAS every Sunday.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun, deep pots and patience. #garden\n",
}
SKIPPED_AND_FAILED: dict[str, str | bytes] = {
    ".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Private/"]}),
    "Private/Diary.md": "# Diary\n\nzebracanary lives here.\n",
    "Drafts/wip.md": "# WIP\n\nzebracanary draft.\n",
    "Secret.md": "---\naskvault: false\n---\n# Secret\n\nzebracanary in an opted-out note.\n",
    "Big.md": "# Big\n\n" + "zebracanary " * 1200,
    "Bad.md": b"# Bad\n\nLatin-1 caf\xe9 is not UTF-8.\n",
    "Binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
}
BIG_CAP = 8 * 1024


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    return root


@pytest.fixture
def config(vault: Path, tmp_path: Path, fake_ollama: RunningOllama) -> Config:
    return engine_config(vault, tmp_path / "data", fake_ollama.url, exclude=("Drafts/",), max_note_bytes=BIG_CAP)


async def test_index_reports_indexed_skipped_and_failed_notes(
    vault: Path, config: Config, fake_ollama: RunningOllama
) -> None:
    write_notes(vault, SKIPPED_AND_FAILED)

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        canary = await engine.searcher.search("zebracanary", 5, "keyword")

        assert (report.indexed, report.unchanged, report.removed) == (3, 0, 0)
        skipped = {p.path: p.reason for p in report.skipped}
        # Skipped: left out on purpose (a rule, the size limit, not text); failed: could not be read.
        assert set(skipped) == {"Private/", "Drafts/wip.md", "Secret.md", "Big.md", "Binary.md"}
        assert "Obsidian Excluded files" in skipped["Private/"]
        assert "exclude glob" in skipped["Drafts/wip.md"]
        assert "opted out" in skipped["Secret.md"]
        assert "too large" in skipped["Big.md"]
        assert "binary data" in skipped["Binary.md"]
        failed = {p.path: p.reason for p in report.failed}
        assert set(failed) == {"Bad.md"}
        assert "not valid UTF-8" in failed["Bad.md"]
        assert report.notes == 3 == engine.manifest.count_notes()
        assert report.chunks == engine.manifest.count_chunks() == len(engine.catalog) >= 5
        assert report.embedded == report.chunks
        assert (report.dense, report.dense_problem) == ("ready", None)
        assert report.finished_at is not None
        assert report.finished_at.endswith("Z")
        assert canary.hits == []
        assert canary.counts["keyword"] == 0
        assert not any("zebracanary" in text for text in embedded_texts(fake_ollama.fake))
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_second_run_skips_unchanged_notes_without_embedding(config: Config, fake_ollama: RunningOllama) -> None:
    first = await index_once(config)
    embedded = len(embedded_texts(fake_ollama.fake))

    second = await index_once(config)

    assert (first.indexed, first.embedded) == (3, first.chunks)
    assert (second.indexed, second.unchanged, second.removed, second.embedded) == (0, 3, 0, 0)
    assert embedded == first.chunks
    assert len(embedded_texts(fake_ollama.fake)) == embedded
    assert second.chunks == first.chunks


async def test_edit_reindexes_one_note_and_reembeds_only_its_changed_chunk(
    vault: Path, config: Config, fake_ollama: RunningOllama
) -> None:
    await index_once(config)
    before = len(embedded_texts(fake_ollama.fake))
    postgres = vault / "Homelab/Postgres.md"
    postgres.write_text(POSTGRES.replace("at 02:00", "at 03:30"), encoding="utf-8")
    set_mtime(postgres, 2_000_000_000)

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        new_texts = embedded_texts(fake_ollama.fake)[before:]
        recent = SearchFilters(modified_after=1_999_999_999)
        dense = await engine.searcher.search("listener port 5433", 5, "dense", recent)
        keyword = await engine.searcher.search("listener port 5433", 5, "keyword", recent)

        assert (report.indexed, report.unchanged, report.embedded) == (1, 2, 1)
        assert len(new_texts) == 1
        assert "03:30" in new_texts[0]
        # The Port chunk's text did not change, so its vector was kept; its date did, and both legs must see it.
        port = next(c for c in engine.catalog.snapshot().values() if c.heading_path == ("Postgres", "Port"))
        assert port.mtime == 2_000_000_000
        assert port.id in {h.chunk.id for h in dense.hits}
        assert port.id in {h.chunk.id for h in keyword.hits}
        assert {h.chunk.path for h in dense.hits} == {"Homelab/Postgres.md"}
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_rename_delete_and_edit_leave_no_duplicates_or_orphans(
    vault: Path, config: Config, fake_ollama: RunningOllama
) -> None:
    await index_once(config)
    (vault / "Media").mkdir()
    (vault / "Homelab/Kodi.md").rename(vault / "Media/Kodi.md")
    (vault / "Ideas/Gardening.md").unlink()
    (vault / "Homelab/Postgres.md").write_text(
        POSTGRES.replace("## Upgrades", "## Replication\n\nA hot standby streams WAL. " + paragraph("standby")),
        encoding="utf-8",
    )

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        kodi = await engine.searcher.search("LibreELEC living-room box", 8)
        tomatoes = await engine.searcher.search("tomatoes deep pots", 8)
        standby = await engine.searcher.search("hot standby streams WAL", 3)

        assert (report.indexed, report.unchanged, report.removed) == (2, 0, 2)
        assert set(engine.manifest.note_stats()) == {"Homelab/Postgres.md", "Media/Kodi.md"}
        assert paths(kodi)[0] == "Media/Kodi.md"
        assert "Homelab/Kodi.md" not in paths(kodi)
        assert all(path != "Ideas/Gardening.md" for path in paths(tomatoes))
        assert paths(standby)[0] == "Homelab/Postgres.md"
        for result in (kodi, tomatoes, standby):
            ids = [h.chunk.id for h in result.hits]
            assert len(ids) == len(set(ids))
        assert await vector_ids(engine) == manifest_ids(engine) == embedded_ids(engine)
        assert {c.path for c in engine.catalog.snapshot().values()} == {"Homelab/Postgres.md", "Media/Kodi.md"}


def crash_on(path: str) -> Callable[[Note], None]:
    def check(note: Note) -> None:
        if note.path == path:
            raise RuntimeError("simulated crash while chunking")

    return check


async def test_a_note_that_crashes_keeps_its_old_chunks_and_the_run_goes_on(
    vault: Path, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    await index_once(config)
    (vault / "Homelab/Kodi.md").write_text("# Kodi\n\nNow it runs OSMC instead.\n", encoding="utf-8")
    (vault / "Homelab/Postgres.md").write_text(POSTGRES.replace("5433", "6543"), encoding="utf-8")
    (vault / "Ideas/Gardening.md").write_text("# Gardening\n\nChillies like heat.\n", encoding="utf-8")
    monkeypatch.setattr(indexer_module, "chunk_note", before_chunking(crash_on("Homelab/Postgres.md"), chunk_note))

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        old_port = await engine.searcher.search("5433", 3, "keyword")
        new_port = await engine.searcher.search("6543", 3, "keyword")
        osmc = await engine.searcher.search("OSMC", 3)
        chillies = await engine.searcher.search("chillies", 3)

        assert [p.path for p in report.failed] == ["Homelab/Postgres.md"]
        assert "RuntimeError" in report.failed[0].reason
        assert report.indexed == 2
        # Kodi comes before Postgres and Gardening after it: both committed, Postgres kept its old chunks.
        assert paths(osmc)[0] == "Homelab/Kodi.md"
        assert paths(chillies)[0] == "Ideas/Gardening.md"
        assert paths(old_port)[0] == "Homelab/Postgres.md"
        assert new_port.hits == []
        assert await vector_ids(engine) == manifest_ids(engine)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        pytest.param(b"# Postgres\n\nport caf\xe9\n", "not valid UTF-8", id="invalid-utf8"),
        pytest.param(b"# Postgres\x00\x01\x02", "binary data", id="binary"),
        pytest.param("# Postgres\n\nport 5433\n".encode("utf-16"), "UTF-16", id="utf16"),
    ],
)
async def test_a_note_turned_malformed_stays_searchable_and_is_reported(
    vault: Path, config: Config, content: bytes, reason: str
) -> None:
    await index_once(config)
    (vault / "Homelab/Postgres.md").write_bytes(content)

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        port = await engine.searcher.search("which port does the database listen on 5433", 3)

        # Binary data is skipped (not a note), the others failed (a note that could not be read); both listed.
        problems = report.skipped if reason == "binary data" else report.failed
        assert [p.path for p in problems] == ["Homelab/Postgres.md"]
        assert reason in problems[0].reason
        assert paths(port)[0] == "Homelab/Postgres.md"
        assert "Homelab/Postgres.md" in engine.manifest.note_stats()


async def test_opting_out_or_excluding_removes_indexed_notes(vault: Path, config: Config) -> None:
    many = {f"Archive/old{i}.md": f"# Old {i}\n\nArchived note {i}.\n" for i in range(24)}
    write_notes(vault, many)
    await index_once(config)
    (vault / "Ideas/Gardening.md").write_text("---\naskvault: false\n---\n# Gardening\n", encoding="utf-8")
    # Excluding a folder that holds most of the vault is a choice, not a failed mount: no refusal.
    write_notes(vault, {".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Archive/"]})})

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        archived = await engine.searcher.search("archived note", 5, "keyword")

        assert set(engine.manifest.note_stats()) == {"Homelab/Postgres.md", "Homelab/Kodi.md"}
        assert report.removed == 24
        assert {p.path for p in report.skipped} == {"Archive/", "Ideas/Gardening.md"}
        assert archived.hits == []
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_a_quiet_run_rebuilds_nothing(config: Config, fake_ollama: RunningOllama) -> None:
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
        phases: list[Progress] = []
        engine.indexer.add_listener(phases.append)
        vectors = await vector_ids(engine)
        embedded = len(embedded_texts(fake_ollama.fake))

        report = await engine.indexer.run()

        assert (report.indexed, report.unchanged, report.embedded) == (0, 3, 0)
        assert "keyword" not in {p.phase for p in phases}
        assert "embed" not in {p.phase for p in phases}
        assert len(embedded_texts(fake_ollama.fake)) == embedded
        assert await vector_ids(engine) == vectors


async def test_full_run_rereads_every_note_but_embeds_nothing_new(config: Config, fake_ollama: RunningOllama) -> None:
    first = await index_once(config)
    embedded = len(embedded_texts(fake_ollama.fake))

    full = await index_once(config, full=True)

    assert (full.indexed, full.unchanged, full.embedded) == (3, 0, 0)
    assert full.chunks == first.chunks
    assert len(embedded_texts(fake_ollama.fake)) == embedded


async def test_a_vault_folder_removed_between_runs_is_refused_cleanly(vault: Path, config: Config) -> None:
    await index_once(config)
    shutil.rmtree(vault)

    with pytest.raises(VaultError, match="does not exist"):
        await index_once(config)
