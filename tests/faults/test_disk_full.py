"""Disk full while writing the index: the failing notes are reported, nothing indexed is lost, the next run recovers.

SQLite reports a full disk as `OperationalError("database or disk is full")` (SQLITE_FULL) and rolls the
transaction back; the manifest connection here raises exactly that, at the statement that writes chunks.
The vector engine reports ENOSPC as an I/O error from its Rust core, which `EdgeVectorStore` wraps in a
StoreError; below a free-space margin it refuses to write at all (see the last test). A real ENOSPC on a
small tmpfs is exercised by `python -m reliability.diskfull`.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from askvault.config import Config
from askvault.errors import StoreError
from askvault.model import Chunk
from askvault.store.manifest.manifest import Manifest
from askvault.store.vectors.edge_shard import MIN_FREE_BYTES
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from askvault.wiring import open_engine
from reliability.engine_runs import DIM, fresh_rebuild
from reliability.snapshot import divergences, manifest_problems, read_index
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import keyword_paths, numbered_notes

pytestmark = pytest.mark.slow

FULL = "database or disk is full"


class FullDiskCursor:
    """A cursor whose chunk writes fail like SQLite's on a full disk while `disk.full` is set."""

    def __init__(self, cursor: sqlite3.Cursor, disk: FullDisk) -> None:
        self._cursor = cursor
        self._disk = disk

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        if self._disk.full and sql.lstrip().upper().startswith("INSERT INTO CHUNKS"):
            self._disk.refused += 1
            raise sqlite3.OperationalError(FULL)
        return self._cursor.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


class FullDisk:
    """Stands between the manifest and its SQLite connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.full = False
        self.refused = 0

    def cursor(self) -> FullDiskCursor:
        return FullDiskCursor(self._conn.cursor(), self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def fill_disk(manifest: Manifest) -> FullDisk:
    disk = FullDisk(manifest._connection())
    manifest._conn = disk  # type: ignore[assignment]
    return disk


async def test_a_full_disk_fails_the_notes_it_hits_loses_nothing_and_the_next_run_recovers(
    make_vault: VaultWriter, config_for: Callable[[Path, str], Config], fake_ollama: RunningOllama, tmp_path: Path
) -> None:
    vault = make_vault(numbered_notes(6))
    config = config_for(vault, fake_ollama.url)
    async with open_engine(config, sync_vectors=False) as engine:
        assert (await engine.indexer.run()).failed == []
        disk = fill_disk(engine.manifest)
        (vault / "Notes" / "Note 001.md").write_text("# Note 1\n\nNow about the harbour0001 crane.\n")
        (vault / "Notes" / "Note 009.md").write_text("# Note 9\n\nA new note on the quarry0009 road.\n")
        disk.full = True
        report = await engine.indexer.run()
        assert disk.refused == 2
        assert {p.path for p in report.failed} == {"Notes/Note 001.md", "Notes/Note 009.md"}
        assert all(FULL in p.reason for p in report.failed)
        # Nothing lost: the old text of the edited note still answers; the others are untouched.
        assert await keyword_paths(engine, "lantern0001") == {"Notes/Note 001.md"}
        assert await keyword_paths(engine, "lantern0004") == {"Notes/Note 004.md"}
        assert manifest_problems(config.store.data_dir) == []

        disk.full = False
        again = await engine.indexer.run()
        assert again.failed == []
        assert again.indexed == 2
        assert await keyword_paths(engine, "harbour0001") == {"Notes/Note 001.md"}
        assert await keyword_paths(engine, "quarry0009") == {"Notes/Note 009.md"}
        assert await keyword_paths(engine, "lantern0001") == set()
    fresh_config, _ = await fresh_rebuild(vault, tmp_path / "fresh", fake_ollama.url)
    recovered = await read_index(config.store.data_dir, config.ollama.embed_model, DIM)
    assert divergences(recovered, await read_index(fresh_config.store.data_dir, config.ollama.embed_model, DIM)) == []


async def test_a_full_disk_under_the_vector_store_keeps_keyword_search_and_the_next_run_recovers(
    make_vault: VaultWriter,
    config_for: Callable[[Path, str], Config],
    fake_ollama: RunningOllama,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vault = make_vault(numbered_notes(6))
    config = config_for(vault, fake_ollama.url)
    real_upsert = EdgeVectorStore.upsert
    full = True

    async def upsert(self: EdgeVectorStore, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        if full:
            raise StoreError(
                f"vector collection {self.collection!r}: upsert failed: No space left on device (os error 28)"
            )
        await real_upsert(self, chunks, vectors)

    monkeypatch.setattr(EdgeVectorStore, "upsert", upsert)
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        assert report.failed == []
        assert report.indexed == 6
        assert report.dense == "off"
        assert report.dense_problem is not None
        assert "No space left on device" in report.dense_problem
        assert await keyword_paths(engine, "lantern0003") == {"Notes/Note 003.md"}

        full = False
        again = await engine.indexer.run()
        assert again.dense == "ready"
        assert again.embedded == again.chunks
    fresh_config, _ = await fresh_rebuild(vault, tmp_path / "fresh", fake_ollama.url)
    recovered = await read_index(config.store.data_dir, config.ollama.embed_model, DIM)
    assert divergences(recovered, await read_index(fresh_config.store.data_dir, config.ollama.embed_model, DIM)) == []


async def test_a_nearly_full_disk_stops_vector_writes_before_the_engine_would_crash(
    make_vault: VaultWriter,
    config_for: Callable[[Path, str], Config],
    fake_ollama: RunningOllama,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # qdrant-edge writes through memory-mapped WAL segments: on a really full disk it dies with SIGBUS (seen on
    # a 1 MiB tmpfs by `python -m reliability.diskfull`), so the store refuses to write below a margin instead.
    vault = make_vault(numbered_notes(6))
    config = config_for(vault, fake_ollama.url)
    real_usage = shutil.disk_usage
    free = 5 * 2**20

    def usage(path: str | Path) -> Any:
        total, used, _ = real_usage(path)
        return type(real_usage(path))(total, used, free)

    monkeypatch.setattr(shutil, "disk_usage", usage)
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        assert report.failed == []
        assert report.indexed == 6
        assert report.dense == "off"
        assert report.dense_problem is not None
        assert "nearly full (5 MiB free" in report.dense_problem
        assert await keyword_paths(engine, "lantern0005") == {"Notes/Note 005.md"}

        free = MIN_FREE_BYTES
        again = await engine.indexer.run()
        assert again.dense == "ready"
        assert again.embedded == again.chunks
    fresh_config, _ = await fresh_rebuild(vault, tmp_path / "fresh", fake_ollama.url)
    recovered = await read_index(config.store.data_dir, config.ollama.embed_model, DIM)
    assert divergences(recovered, await read_index(fresh_config.store.data_dir, config.ollama.embed_model, DIM)) == []
