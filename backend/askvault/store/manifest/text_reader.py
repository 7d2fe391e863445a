"""Chunk texts read from the manifest on a connection of their own, so requests never wait for the indexer."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from askvault.errors import StoreError
from askvault.model import ChunkText

PAGE = 500
"""Ids per `IN (...)` list (well under SQLite's variable limit)."""
MMAP_BYTES = 256 * 1024 * 1024
"""How much of the manifest this reader maps into memory instead of copying pages through `read()`: a search's
texts are a few rows scattered over the file, and mapped they take half the time (10 rows of a 10k-chunk vault:
43 → 23 µs; 100 rows: 269 → 180 µs). Mapped pages are the file's, shared with the page cache: they count in RSS
only once touched, so at most this much, whatever the vault's size (docs/decisions.md)."""


class TextReader:
    """`texts(ids)` on a connection that only reads, opened on first use (after the schema is in place).

    WAL lets it read the last commit while the manifest's own connection holds a write transaction: a search
    reads its hits' texts while the indexer commits, and never waits for its lock.
    """

    def __init__(self, file: Path) -> None:
        self._file = file
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closed = False

    def texts(self, ids: Sequence[str]) -> dict[str, ChunkText]:
        """The text and index text of the chunks that exist among `ids`, in one read per `PAGE` ids."""
        found: dict[str, ChunkText] = {}
        unique = list(dict.fromkeys(ids))
        with self._lock:
            try:
                conn = self._connection()
                for start in range(0, len(unique), PAGE):
                    page = unique[start : start + PAGE]
                    marks = ",".join("?" * len(page))
                    sql = f"SELECT id, text, index_text, start_line, end_line FROM chunks WHERE id IN ({marks})"
                    for cid, text, index_text, start, end in conn.execute(sql, page):
                        found[cid] = ChunkText(text, index_text, start, end)
            except (sqlite3.Error, UnicodeError, ValueError) as exc:
                raise StoreError(f"the index manifest {self._file} failed (read chunk texts): {exc}") from exc
        return found

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError(f"the index manifest {self._file} is closed")
        if self._conn is None:
            conn = sqlite3.connect(self._file, timeout=10.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only=ON")
            conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            self._conn = conn
        return self._conn
