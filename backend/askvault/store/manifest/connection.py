"""The manifest's SQLite connection: opening it, upgrading its schema, its lock, errors and transactions."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Self

from askvault.errors import StoreError
from askvault.store.manifest.rows import (
    ALIASES_COLUMN,
    DROP_LINKS,
    INDEXED_AT_COLUMN,
    LANGUAGE_COLUMN,
    MANIFEST_FILE,
    NOISE_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    STALE_FOR_ALIASES,
    Row,
)


class ManifestConnection:
    """The connection half of `manifest.Manifest`: one connection shared by every thread behind a lock."""

    def __init__(self, conn: sqlite3.Connection, file: Path) -> None:
        self._conn: sqlite3.Connection | None = conn
        self._file = file
        self._lock = threading.RLock()

    @classmethod
    def open(cls, path: Path) -> Self:
        """Opens or creates the manifest: `path` is the data dir (holding manifest.sqlite) or a `.sqlite` file."""
        file = path if path.suffix == ".sqlite" else path / MANIFEST_FILE
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(file, timeout=10.0, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the index manifest {file}: {exc}") from exc
        manifest = cls(conn, file)
        try:
            manifest._migrate()
        except BaseException:
            conn.close()
            raise
        return manifest

    def _migrate(self) -> None:
        with self._errors("open"):
            conn = self._connection()
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            # Removed rows (a note excluded or redacted later) are zeroed on disk, not left in free pages.
            conn.execute("PRAGMA secure_delete=ON")
            has_meta = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
            raw = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() if has_meta else None
        version = self._version(raw[0] if raw else None)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the index manifest {self._file} has schema {version}, newer than this Ask Vault understands "
                f"({SCHEMA_VERSION}); upgrade Ask Vault, or delete {self._file} to rebuild the index"
            )
        if version == SCHEMA_VERSION:
            return
        with self._write("create schema") as cur:
            for statement in SCHEMA:
                cur.execute(statement)
            cur.execute(DROP_LINKS)
            columns = {row[1] for row in cur.execute("PRAGMA table_info(chunks)")}
            if "language" not in columns:
                cur.execute(LANGUAGE_COLUMN)
            if "aliases" not in columns:
                cur.execute(ALIASES_COLUMN)
                cur.execute(STALE_FOR_ALIASES)
            if "noise_template" not in columns:
                for statement in NOISE_COLUMNS:
                    cur.execute(statement)
            if "indexed_at" not in {row[1] for row in cur.execute("PRAGMA table_info(notes)")}:
                cur.execute(INDEXED_AT_COLUMN)
            cur.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    def _version(self, raw: str | None) -> int:
        try:
            return int(raw) if raw is not None else 0
        except ValueError:
            raise StoreError(f"the index manifest {self._file} has a garbled schema version {raw!r}") from None

    # -- plumbing ---------------------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the index manifest {self._file} is closed")
        return self._conn

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        with self._lock:
            try:
                yield
            except (sqlite3.Error, UnicodeError, ValueError) as exc:
                if type(exc) is sqlite3.DatabaseError:  # the bare class: damage, not a lock or a constraint
                    raise StoreError(
                        f"the index manifest {self._file} is damaged ({exc}); delete it to rebuild the index"
                    ) from exc
                raise StoreError(f"the index manifest {self._file} failed ({action}): {exc}") from exc

    @contextmanager
    def _write(self, action: str) -> Iterator[sqlite3.Cursor]:
        """One transaction: all of it or none of it."""
        with self._errors(action):
            conn = self._connection()
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                # SQLite may already have rolled back on its own (e.g. disk full); don't mask the first error.
                if conn.in_transaction:
                    cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def _all(self, action: str, sql: str, args: Sequence[object] = ()) -> list[Row]:
        with self._errors(action):
            return self._connection().execute(sql, tuple(args)).fetchall()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def file(self) -> Path:
        return self._file
