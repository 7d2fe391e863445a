"""Refusals that protect the index: a vault that looks empty (failed mount) and a second writer (the lock)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from askvault.config import Config
from askvault.errors import IndexLocked, VaultLooksEmpty
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, manifest_ids, paths, vector_ids, write_notes

NOTE_COUNT = 24


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    notes: dict[str, str | bytes] = {
        f"Notes/n{i:02}.md": f"# Note {i}\n\nItem {i} talks about pelican{i} and nothing else.\n"
        for i in range(NOTE_COUNT)
    }
    write_notes(root, notes)
    return root


@pytest.fixture
async def indexed(vault: Path, fake_ollama: RunningOllama) -> Config:
    config = engine_config(vault, vault.parent / "data", fake_ollama.url)
    report = await index_once(config)
    assert report.notes == NOTE_COUNT
    return config


def remove_notes(vault: Path, count: int) -> None:
    for i in range(count):
        (vault / f"Notes/n{i:02}.md").unlink()


async def test_a_vault_that_looks_unmounted_is_refused_and_the_index_kept(vault: Path, indexed: Config) -> None:
    shutil.move(vault / "Notes", vault.parent / "elsewhere")

    async with open_engine(indexed, sync_vectors=True) as engine:
        before = manifest_ids(engine)
        with pytest.raises(VaultLooksEmpty, match=r"0 notes but 24 are indexed.*--allow-mass-delete"):
            await engine.indexer.run()
        still = await engine.searcher.search("pelican7", 3)

        assert engine.manifest.count_notes() == NOTE_COUNT
        assert manifest_ids(engine) == before == await vector_ids(engine)
        assert len(engine.catalog) == len(before)
        assert paths(still)[0] == "Notes/n07.md"


@pytest.mark.parametrize(("removed", "refused"), [(13, True), (12, False), (3, False)], ids=["13of24", "12of24", "3"])
async def test_losing_more_than_half_is_refused(vault: Path, indexed: Config, removed: int, refused: bool) -> None:
    remove_notes(vault, removed)

    if refused:
        with pytest.raises(VaultLooksEmpty):
            await index_once(indexed)
        assert (await index_once(indexed, allow_mass_delete=True)).removed == removed
    else:
        assert (await index_once(indexed)).removed == removed


async def test_allow_mass_delete_empties_the_index(vault: Path, indexed: Config) -> None:
    remove_notes(vault, NOTE_COUNT)

    async with open_engine(indexed, sync_vectors=False) as engine:
        report = await engine.indexer.run(allow_mass_delete=True)

        assert (report.removed, report.notes, report.chunks) == (NOTE_COUNT, 0, 0)
        assert len(engine.catalog) == 0
        assert await vector_ids(engine) == set()


async def test_a_second_engine_on_the_same_vault_is_refused(indexed: Config) -> None:
    async with open_engine(indexed, sync_vectors=False):
        with pytest.raises(IndexLocked, match=rf"pid {os.getpid()}"):
            async with open_engine(indexed, sync_vectors=False):
                pass
    async with open_engine(indexed, sync_vectors=False) as engine:
        assert engine.manifest.count_notes() == NOTE_COUNT
