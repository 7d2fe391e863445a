"""The manifest: which notes and chunks are indexed and which chunks have vectors where (SQLite, WAL).

It is the source of truth: the keyword index is rebuilt from it and the vector stores are reconciled with it.
One connection is shared by every thread (`check_same_thread=False`) behind a lock; each call is short, so
the indexer may call it from a worker thread while the API reads from another. Chunk texts, which requests read
while the indexer writes (the catalog keeps none in memory), have a connection of their own that only reads: WAL lets
it read the last commit without waiting for the writer's lock or transaction.

A vector row says "this collection holds a vector for this chunk's current text". Rows die with their
chunks, and `mark_embedded` records only chunks that still exist with that text, so `embedded_ids` never
names a vector the index no longer wants: `store.ids() - embedded_ids(c)` is exactly the orphans to delete
(left by a crash between a manifest commit and the store delete, or by a note removed mid-embedding).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from askvault.model import Chunk, ChunkText
from askvault.store.manifest.connection import ManifestConnection
from askvault.store.manifest.rows import (
    CHUNK_COLUMNS,
    MANIFEST_FILE,
    NOTE_MARK,
    SCHEMA_VERSION,
    NoteDelta,
    NoteStat,
    SharedRows,
    content_hash,
    row_chunk,
)
from askvault.store.manifest.text_reader import TextReader
from askvault.store.manifest.vector_rows import PAGE as _PAGE
from askvault.store.manifest.vector_rows import VectorRows, drop_vectors

__all__ = ["MANIFEST_FILE", "SCHEMA_VERSION", "Manifest", "NoteDelta", "NoteStat", "content_hash"]

_INSERT_CHUNK = (
    "INSERT INTO chunks (id, path, ordinal, title, heading_path, start_line, end_line, text, index_text, tags, mtime, "
    "content_hash, language, aliases, noise_template, noise_links, noise_query) "
    f"VALUES ({', '.join('?' * 17)})"
)
"""Columns named: an upgraded manifest has its added columns in the order they were added."""


class Manifest(ManifestConnection, VectorRows):
    """The SQLite manifest of one vault's index. Create with `Manifest.open(path)`."""

    def __init__(self, conn: sqlite3.Connection, file: Path) -> None:
        super().__init__(conn, file)
        self._texts = TextReader(file)

    def close(self) -> None:
        self._texts.close()
        super().close()

    # -- notes and chunks -------------------------------------------------------------------------------

    content_hash = staticmethod(content_hash)

    def note_fingerprints(self) -> dict[str, str]:
        return dict(self._all("read notes", "SELECT path, fingerprint FROM notes"))

    def note_stats(self) -> dict[str, NoteStat]:
        """Every recorded note with its fingerprint, mtime (exactly as given), size and title."""
        rows = self._all("read notes", "SELECT path, fingerprint, mtime, size, title FROM notes")
        return {path: NoteStat(fingerprint, mtime, size, title) for path, fingerprint, mtime, size, title in rows}

    def replace_note(
        self,
        path: str,
        fingerprint: str,
        mtime: float,
        size: int,
        title: str,
        chunks: Sequence[Chunk],
        lines: Iterable[int] = (),
    ) -> NoteDelta:
        """Records a note and its chunks in one transaction; on failure the old rows stay as they were.

        `mtime` is stored exactly as given: pass `st_mtime_ns` (an int) for exact change detection. The note's
        `indexed_at` becomes now when it is new or its chunks changed (ids or text), else it stays. `lines` are the
        signatures of its body lines (`chunk.boilerplate.note_signatures`), replacing those recorded before.
        """
        for chunk in chunks:
            if chunk.path != path:
                raise ValueError(f"chunk {chunk.id!r} belongs to {chunk.path!r}, not {path!r}")
        digests = [content_hash(c) for c in chunks]
        stamps = [(json.dumps(list(c.tags)), float(c.mtime)) for c in chunks]
        rows = [
            (c.id, path, n, c.title, json.dumps(list(c.heading_path)), c.start_line, c.end_line, c.text,
             c.index_text, stamps[n][0], stamps[n][1], digests[n], c.language, json.dumps(list(c.aliases)),
             c.noise.template, c.noise.links, c.noise.query)
            for n, c in enumerate(chunks)
        ]  # fmt: skip
        with self._write(f"record {path}") as cur:
            sql = "SELECT id, content_hash, tags, mtime FROM chunks WHERE path = ?"
            old: dict[str, tuple[str, tuple[str, float]]] = {
                cid: (digest, (tags, stamp)) for cid, digest, tags, stamp in cur.execute(sql, (path,))
            }
            # A re-read with the same chunks (a touched file, a full run) keeps when they were indexed.
            fresh = {cid: digest for cid, (digest, _) in old.items()} != dict(
                zip((c.id for c in chunks), digests, strict=True)
            )
            cur.execute(
                "INSERT INTO notes (path, fingerprint, mtime, size, title, indexed_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (path) DO UPDATE SET fingerprint = excluded.fingerprint, mtime = excluded.mtime, "
                "size = excluded.size, title = excluded.title, "
                "indexed_at = CASE WHEN ? THEN excluded.indexed_at ELSE notes.indexed_at END",
                (path, fingerprint, mtime, int(size), title, datetime.now(UTC).isoformat(timespec="seconds"), fresh),
            )
            cur.execute("DELETE FROM chunks WHERE path = ?", (path,))
            # Plain INSERT: a duplicate id within the note fails the whole transaction instead of hiding a chunk.
            cur.executemany(_INSERT_CHUNK, rows)
            cur.execute("DELETE FROM note_lines WHERE path = ?", (path,))
            cur.executemany(
                "INSERT OR IGNORE INTO note_lines VALUES (?, ?)", [(path, sig) for sig in (NOTE_MARK, *lines)]
            )
            delta = NoteDelta(added=[], removed=sorted(set(old) - {c.id for c in chunks}), changed=[], restamped=[])
            drop_vectors(cur, delta.removed)
        for chunk, digest, stamp in zip(chunks, digests, stamps, strict=True):
            before = old.get(chunk.id)
            if before is None:
                delta.added.append(chunk.id)
            elif before[0] != digest:
                delta.changed.append(chunk.id)
            elif before[1] != stamp:
                delta.restamped.append(chunk.id)
        return delta

    def remove_note(self, path: str) -> list[str]:
        """Forgets a note; returns the ids of the chunks it had."""
        with self._write(f"remove {path}") as cur:
            ids = [r[0] for r in cur.execute("SELECT id FROM chunks WHERE path = ? ORDER BY ordinal", (path,))]
            drop_vectors(cur, ids)
            cur.execute("DELETE FROM chunks WHERE path = ?", (path,))
            cur.execute("DELETE FROM notes WHERE path = ?", (path,))
            cur.execute("DELETE FROM note_lines WHERE path = ?", (path,))
        return ids

    def remove_prefix(self, folder: str) -> list[str]:
        """Forgets every note under a folder (`Homelab` or `Homelab/`); returns the removed chunk ids."""
        prefix = folder.strip("/") + "/"
        if prefix == "/":
            raise ValueError("remove_prefix needs a folder; refusing to forget the whole vault")
        # substr, not LIKE: `_` and `%` are ordinary characters in folder names.
        where = "substr(path, 1, ?) = ?"
        args = (len(prefix), prefix)
        with self._write(f"remove {prefix}") as cur:
            ids = [r[0] for r in cur.execute(f"SELECT id FROM chunks WHERE {where} ORDER BY path, ordinal", args)]
            drop_vectors(cur, ids)
            cur.execute(f"DELETE FROM chunks WHERE {where}", args)
            cur.execute(f"DELETE FROM notes WHERE {where}", args)
            cur.execute(f"DELETE FROM note_lines WHERE {where}", args)
        return ids

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks that exist among `ids` (missing ids are left out)."""
        found: dict[str, Chunk] = {}
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), _PAGE):
            page = unique[start : start + _PAGE]
            marks = ",".join("?" * len(page))
            sql = f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE id IN ({marks})"
            for row in self._all("read chunks", sql, page):
                chunk = row_chunk(row)
                found[chunk.id] = chunk
        return found

    def chunk_texts(self, ids: Sequence[str]) -> dict[str, ChunkText]:
        """The text and index text of the chunks that exist among `ids`, on a connection of their own
        (`text_reader`): a chunk removed since its caller's catalog snapshot is simply left out."""
        return self._texts.texts(ids)

    def get_chunk(self, chunk_id: str) -> Chunk | None:
        return self.get_chunks([chunk_id]).get(chunk_id)

    def iter_chunks(self) -> Iterator[Chunk]:
        """Every chunk, by path then position, read a page at a time (writers may run in between); a note's
        chunks share their common fields' objects (`SharedRows`)."""
        rows_to_chunks = SharedRows()
        last: tuple[str, int] = ("", -1)
        sql = (
            f"SELECT {CHUNK_COLUMNS}, ordinal FROM chunks WHERE (path, ordinal) > (?, ?) "
            f"ORDER BY path, ordinal LIMIT {_PAGE}"
        )
        while True:
            rows = self._all("read chunks", sql, last)
            for row in rows:
                yield rows_to_chunks.chunk(row[:-1])
            if len(rows) < _PAGE:
                return
            last = (rows[-1][1], rows[-1][-1])

    def indexed_at(self, path: str) -> str | None:
        """When the note's current chunks were indexed (ISO-8601 UTC); None for an unknown note or time."""
        rows = self._all("read note", "SELECT indexed_at FROM notes WHERE path = ?", (path,))
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def shared_lines(self, min_notes: Callable[[int], int]) -> frozenset[int]:
        """The line signatures held by at least `min_notes(n)` of the n recorded notes (template lines)."""
        with self._errors("count lines"):
            conn = self._connection()
            notes = int(conn.execute("SELECT count(*) FROM note_lines WHERE sig = ?", (NOTE_MARK,)).fetchone()[0])
            sql = "SELECT sig FROM note_lines WHERE sig != ? GROUP BY sig HAVING count(*) >= ?"
            return frozenset(int(row[0]) for row in conn.execute(sql, (NOTE_MARK, min_notes(notes))))

    def notes_with_lines(self, sigs: Iterable[int]) -> set[str]:
        """The recorded notes holding any of these line signatures."""
        wanted = list(sigs)
        found: set[str] = set()
        for start in range(0, len(wanted), _PAGE):
            page = wanted[start : start + _PAGE]
            sql = f"SELECT DISTINCT path FROM note_lines WHERE sig IN ({','.join('?' * len(page))})"
            found.update(str(row[0]) for row in self._all("read lines", sql, page))
        return found

    def count_notes(self) -> int:
        return int(self._all("count notes", "SELECT count(*) FROM notes")[0][0])

    def count_chunks(self) -> int:
        return int(self._all("count chunks", "SELECT count(*) FROM chunks")[0][0])

    def count_embeddable(self) -> int:
        """The chunks that get a vector: those with an index text."""
        return int(self._all("count chunks", "SELECT count(*) FROM chunks WHERE index_text != ''")[0][0])

    # -- meta -------------------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        rows = self._all("read meta", "SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._write("write meta") as cur:
            cur.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
