"""What an index holds, read straight from its files, and the invariants a crash must never break.

`manifest_problems` checks a manifest exactly as a killed process left it (nothing healed first);
`read_index` reads a finished index (manifest and vectors) so that `divergences` can compare it with a
fresh rebuild of the same vault.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from askvault.embed.prefixes import prefixes_for
from askvault.model import SearchFilters
from askvault.store.manifest.rows import MANIFEST_FILE
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from tests.fakes.ollama_server import fake_embedding

ACTIVE_COLLECTION = "active_collection"
VECTORS_DIR = "vectors"
SAME_VECTOR = 0.9999
TIES = 10


@dataclass(frozen=True, slots=True)
class IndexState:
    """The comparable content of one index."""

    notes: dict[str, str]
    """path → fingerprint (content sha256 + chunker version)."""
    chunks: dict[str, tuple[str, str]]
    """chunk id → (path, content hash)."""
    vector_ids: frozenset[str]
    vector_points: int
    stale_vectors: tuple[str, ...]
    """Chunks whose stored vector is not the embedding of their current text."""
    unembedded: int
    embeddable: frozenset[str] = frozenset()
    """The chunks that get a vector: those with an index text (a chunk of nothing but template lines has none)."""


def _connect(data_dir: Path) -> sqlite3.Connection:
    file = data_dir / MANIFEST_FILE
    if not file.is_file():
        raise FileNotFoundError(f"no manifest at {file}")
    return sqlite3.connect(file, timeout=10.0)


def manifest_problems(data_dir: Path) -> list[str]:
    """Invariants of the manifest as found (no recovery run first); [] when all hold or none was created yet."""
    if not (data_dir / MANIFEST_FILE).is_file():
        return []
    problems: list[str] = []
    conn = _connect(data_dir)
    try:
        check = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            return [f"quick_check: {check[:5]}"]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"notes", "chunks", "vectors"} <= tables:
            return []  # killed while creating the schema: nothing was committed yet
        queries = {
            "chunk rows without their note": "SELECT count(*) FROM chunks WHERE path NOT IN (SELECT path FROM notes)",
            "notes without chunks": "SELECT count(*) FROM notes WHERE path NOT IN (SELECT path FROM chunks)",
            "vector rows without their chunk": "SELECT count(*) FROM vectors WHERE chunk_id NOT IN "
            "(SELECT id FROM chunks)",
        }
        for what, sql in queries.items():
            count = conn.execute(sql).fetchone()[0]
            if count:
                problems.append(f"{count} {what}")
        for cid, index_text, digest in conn.execute("SELECT id, index_text, content_hash FROM chunks"):
            if hashlib.sha256(index_text.encode("utf-8", "surrogatepass")).hexdigest() != digest:
                problems.append(f"chunk {cid}: content hash does not match its text")
    finally:
        conn.close()
    return problems


async def read_index(data_dir: Path, embed_model: str | None, dim: int) -> IndexState:
    """Notes, chunks and the active collection's vectors of a finished (not running) index."""
    conn = _connect(data_dir)
    try:
        notes = dict(conn.execute("SELECT path, fingerprint FROM notes").fetchall())
        rows = conn.execute("SELECT id, path, content_hash, index_text FROM chunks").fetchall()
        found = conn.execute("SELECT value FROM meta WHERE key = ?", (ACTIVE_COLLECTION,)).fetchone()
        collection = str(found[0]) if found else None
        unembedded = 0
        if collection is not None:
            unembedded = conn.execute(
                "SELECT count(*) FROM chunks c LEFT JOIN vectors v ON v.collection = ? AND v.chunk_id = c.id "
                "AND v.content_hash = c.content_hash WHERE v.chunk_id IS NULL AND c.index_text != ''",
                (collection,),
            ).fetchone()[0]
    finally:
        conn.close()
    chunks = {cid: (path, digest) for cid, path, digest, _ in rows}
    embeddable = frozenset(cid for cid, _, _, index_text in rows if index_text)
    if collection is None:
        return IndexState(notes, chunks, frozenset(), 0, (), len(embeddable), embeddable)
    store = await EdgeVectorStore.open(data_dir / VECTORS_DIR, collection, dim)
    try:
        ids = frozenset(await store.ids())
        points = await store.count()
        prefix = prefixes_for(embed_model).document if embed_model else ""  # None: the built-in (no prefix)
        stale: list[str] = []
        for cid, _, _, index_text in rows:
            if not index_text:
                continue  # never embedded
            # The fake embedder is deterministic: the stored vector must be the one of the current text.
            # Texts with the same bag of words share a vector, hence several hits and the tie allowance.
            hits = await store.search(fake_embedding(prefix + index_text, dim), TIES, SearchFilters())
            exact = [h for h in hits if h.score >= SAME_VECTOR]
            if not any(h.chunk_id == cid for h in exact) and len(exact) < TIES:
                stale.append(cid)
    finally:
        await store.close()
    return IndexState(notes, chunks, ids, points, tuple(sorted(stale)), unembedded, embeddable)


def divergences(recovered: IndexState, fresh: IndexState) -> list[str]:
    """How a recovered index differs from a fresh rebuild of the same vault; [] when it is equal."""
    found: list[str] = []

    def differ(what: str, left: set[str], right: set[str]) -> None:
        if left != right:
            extra, missing = sorted(left - right)[:5], sorted(right - left)[:5]
            found.append(f"{what}: {len(left - right)} extra {extra}, {len(right - left)} missing {missing}")

    differ("notes", set(recovered.notes), set(fresh.notes))
    changed = sorted(p for p in recovered.notes.keys() & fresh.notes.keys() if recovered.notes[p] != fresh.notes[p])
    if changed:
        found.append(f"notes with another fingerprint: {changed[:5]}")
    differ(
        "chunks (id, path, content hash)",
        {"|".join((cid, *v)) for cid, v in recovered.chunks.items()},
        {"|".join((cid, *v)) for cid, v in fresh.chunks.items()},
    )
    for name, state in (("recovered", recovered), ("fresh", fresh)):
        differ(f"{name}: vector ids vs chunk ids (orphans are extra)", set(state.vector_ids), set(state.embeddable))
        if state.vector_points != len(state.vector_ids):
            found.append(f"{name}: {state.vector_points} points for {len(state.vector_ids)} ids (duplicates)")
        if state.stale_vectors:
            found.append(f"{name}: {len(state.stale_vectors)} stale vectors {list(state.stale_vectors[:5])}")
        if state.unembedded:
            found.append(f"{name}: {state.unembedded} chunks without a current vector")
    return found
