"""The manifest's vector rows: which collection holds a vector for which chunk's current text (`manifest.Manifest`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager

from askvault.model import Chunk
from askvault.store.manifest.rows import CHUNK_COLUMNS, Row, row_chunk

PAGE = 500
"""Rows per page when iterating, and ids per `IN (...)` list (well under SQLite's variable limit)."""
_UNEMBEDDED = (
    "FROM chunks c LEFT JOIN vectors v ON v.collection = ? AND v.chunk_id = c.id "
    "AND v.content_hash = c.content_hash WHERE v.chunk_id IS NULL AND c.index_text != '' ORDER BY c.path, c.ordinal"
)
"""The chunks without a vector for their current text in a collection, by path then position; a chunk with an
empty index text (all template lines, `chunk.boilerplate`) is never embedded."""


def drop_vectors(cur: sqlite3.Cursor, ids: Sequence[str]) -> None:
    """Deletes these chunks' vector rows in every collection (their chunks changed or went)."""
    for start in range(0, len(ids), PAGE):
        page = list(ids[start : start + PAGE])
        cur.execute(f"DELETE FROM vectors WHERE chunk_id IN ({','.join('?' * len(page))})", page)


class VectorRows:
    """The vector-row half of `Manifest`, which gives it its connection (`_write`, `_all`)."""

    def _write(self, action: str) -> AbstractContextManager[sqlite3.Cursor]:
        raise NotImplementedError

    def _all(self, action: str, sql: str, args: Sequence[object] = ()) -> list[Row]:
        raise NotImplementedError

    def mark_embedded(self, collection: str, items: Sequence[tuple[str, str]]) -> None:
        """Records that `collection` holds a vector for each (chunk id, content hash).

        Items whose chunk is gone or whose text changed meanwhile are skipped: their vector is an orphan
        (or stale) and reconcile will treat it so.
        """
        if not items:
            return
        with self._write("mark embedded") as cur:
            cur.executemany(
                "INSERT INTO vectors SELECT ?, id, content_hash FROM chunks WHERE id = ? AND content_hash = ? "
                "ON CONFLICT (collection, chunk_id) DO UPDATE SET content_hash = excluded.content_hash",
                [(collection, cid, digest) for cid, digest in items],
            )

    def unembedded(self, collection: str) -> list[Chunk]:
        """Chunks with no vector in `collection` for their current text, by path then position. A chunk with an
        empty index text (all template lines, `chunk.boilerplate`) is never embedded."""
        cols = ", ".join(f"c.{name.strip()}" for name in CHUNK_COLUMNS.split(","))
        return [row_chunk(row) for row in self._all("read unembedded", f"SELECT {cols} {_UNEMBEDDED}", (collection,))]

    def unembedded_ids(self, collection: str) -> list[str]:
        """The ids of `unembedded`, in its order: a big vault's chunks are then read a batch at a time."""
        return [str(row[0]) for row in self._all("read unembedded", f"SELECT c.id {_UNEMBEDDED}", (collection,))]

    def embedded_ids(self, collection: str) -> set[str]:
        """Ids of existing chunks with a vector in `collection` (stale or not); the store's other ids are orphans."""
        rows = self._all("read vectors", "SELECT chunk_id FROM vectors WHERE collection = ?", (collection,))
        return {r[0] for r in rows}

    def forget_vectors(self, collection: str, ids: Sequence[str]) -> None:
        """Forgets vectors the store lost (or that were deleted from it): their chunks count as unembedded."""
        with self._write("forget vectors") as cur:
            for start in range(0, len(ids), PAGE):
                page = list(ids[start : start + PAGE])
                marks = ",".join("?" * len(page))
                cur.execute(f"DELETE FROM vectors WHERE collection = ? AND chunk_id IN ({marks})", [collection, *page])

    def forget_chunk_vectors(self, ids: Sequence[str]) -> None:
        """Forgets these chunks' vectors in every collection: they get embedded (payload and all) again."""
        with self._write("forget chunk vectors") as cur:
            drop_vectors(cur, list(ids))

    def forget_collection(self, collection: str) -> None:
        """Forgets every vector row of a collection (after dropping it, e.g. when the embedder changes)."""
        with self._write("forget collection") as cur:
            cur.execute("DELETE FROM vectors WHERE collection = ?", (collection,))
