"""SIGKILL at random points: a smoke run of `reliability.killloop`, and proof that its checks can fail.

The long run (`python -m reliability.killloop --kills 200`, or `make reliability`) reports the figures.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from askvault.model import Chunk
from askvault.store.manifest.rows import MANIFEST_FILE
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from reliability.engine_runs import DIM, fresh_rebuild
from reliability.killloop import run_kill_loop
from reliability.snapshot import ACTIVE_COLLECTION, VECTORS_DIR, divergences, manifest_problems, read_index
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import numbered_notes

pytestmark = pytest.mark.slow

SMOKE_KILLS = 3


@pytest.mark.timeout(600)
async def test_a_few_kills_over_a_changing_vault_leave_no_divergence(tmp_path: Path) -> None:
    result = await run_kill_loop(SMOKE_KILLS, seed=7, workdir=tmp_path, log=lambda _: None, max_rounds=4 * SMOKE_KILLS)
    assert result.divergences == []
    assert result.kills >= SMOKE_KILLS


@pytest.fixture
async def two_indexes(make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama) -> tuple[Path, Path]:
    """A small vault indexed twice from scratch: (data dir to tamper with, reference data dir)."""
    sections = "".join(f"## Part {n}\n\n" + f"Part {n} of the long note says a thing. " * 12 + "\n\n" for n in range(3))
    vault = make_vault({**numbered_notes(12), "Long.md": "# Long\n\n" + sections})
    tampered, _ = await fresh_rebuild(vault, tmp_path / "a", fake_ollama.url)
    reference, _ = await fresh_rebuild(vault, tmp_path / "b", fake_ollama.url)
    return tampered.store.data_dir, reference.store.data_dir


async def _diverged(data: Path, reference: Path) -> list[str]:
    model = "nomic-embed-text"
    return divergences(await read_index(data, model, DIM), await read_index(reference, model, DIM))


async def test_two_rebuilds_are_equal(two_indexes: tuple[Path, Path]) -> None:
    assert await _diverged(*two_indexes) == []
    assert manifest_problems(two_indexes[0]) == []


def _collection(data: Path) -> str:
    with sqlite3.connect(data / MANIFEST_FILE) as conn:
        return str(conn.execute("SELECT value FROM meta WHERE key = ?", (ACTIVE_COLLECTION,)).fetchone()[0])


async def test_an_orphan_vector_is_a_divergence(two_indexes: tuple[Path, Path]) -> None:
    data, reference = two_indexes
    store = await EdgeVectorStore.open(data / VECTORS_DIR, _collection(data), DIM)
    ghost = Chunk("f" * 32, "Gone.md", "Gone", (), 1, 1, "gone", "gone")
    await store.upsert([ghost], [[1.0] + [0.0] * (DIM - 1)])
    await store.close()
    assert any("orphans are extra" in d and "1 extra" in d for d in await _diverged(data, reference))


async def test_a_stale_vector_is_a_divergence(two_indexes: tuple[Path, Path]) -> None:
    data, reference = two_indexes
    with sqlite3.connect(data / MANIFEST_FILE) as conn:
        row = conn.execute("SELECT id, path, title, index_text FROM chunks ORDER BY id LIMIT 1").fetchone()
    store = await EdgeVectorStore.open(data / VECTORS_DIR, _collection(data), DIM)
    chunk = Chunk(row[0], row[1], row[2], (), 1, 1, row[3], row[3])
    await store.upsert([dataclasses.replace(chunk)], [[0.0] * (DIM - 1) + [1.0]])  # not the text's vector
    await store.close()
    assert any("stale vectors" in d for d in await _diverged(data, reference))


async def test_a_lost_chunk_row_is_a_divergence(two_indexes: tuple[Path, Path]) -> None:
    data, reference = two_indexes
    with sqlite3.connect(data / MANIFEST_FILE) as conn:
        victim = "(SELECT min(id) FROM chunks WHERE path = 'Long.md')"  # a note with more chunks than this one
        conn.execute(f"DELETE FROM vectors WHERE chunk_id = {victim}")
        conn.execute(f"DELETE FROM chunks WHERE id = {victim}")
    found = await _diverged(data, reference)
    assert any(d.startswith("chunks (id, path, content hash)") and "1 missing" in d for d in found)
    assert manifest_problems(data) == []  # the note keeps other chunks: only the comparison can tell


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("INSERT INTO chunks (id, path, ordinal, title, heading_path, start_line, end_line, text, index_text, tags, "
         "mtime, content_hash, language, aliases) SELECT 'x' || id, 'Nowhere.md', ordinal, title, heading_path, "
         "start_line, end_line, text, index_text, tags, mtime, content_hash, language, aliases FROM chunks LIMIT 1",
         "1 chunk rows without their note"),
        ("INSERT INTO notes (path, fingerprint, mtime, size, title) VALUES ('Empty.md', 'f', 1, 1, 'Empty')",
         "1 notes without chunks"),
        ("INSERT INTO vectors VALUES ('c', 'no-such-chunk', 'h')", "1 vector rows without their chunk"),
        ("UPDATE chunks SET content_hash = 'bad' WHERE id = (SELECT min(id) FROM chunks)", "content hash does not"),
    ],
    ids=["chunk-without-note", "note-without-chunks", "vector-row-without-chunk", "wrong-hash"],
)  # fmt: skip
def test_broken_manifest_invariants_are_found(two_indexes: tuple[Path, Path], sql: str, problem: str) -> None:
    data, _ = two_indexes
    with sqlite3.connect(data / MANIFEST_FILE) as conn:
        conn.execute(sql)
    assert any(problem in p for p in manifest_problems(data))
