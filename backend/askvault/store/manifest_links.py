"""The manifest's `note_links` table: each note's outgoing link targets as written, replaced with the note."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

LINKS_TABLE = (
    "CREATE TABLE IF NOT EXISTS note_links (path TEXT NOT NULL, ordinal INTEGER NOT NULL, target TEXT NOT NULL,"
    " PRIMARY KEY (path, ordinal))"
)
STALE_FOR_LINKS = "UPDATE notes SET fingerprint = fingerprint || ':links'"
"""Upgrading from schema 1 (no links recorded): every note fails its fingerprint check once and is re-parsed.
Its chunks come back with the same text, so nothing is embedded again."""

_PAGE = 500


def write_links(cur: sqlite3.Cursor, path: str, targets: Sequence[str]) -> None:
    cur.execute("DELETE FROM note_links WHERE path = ?", (path,))
    unique = list(dict.fromkeys(targets))
    cur.executemany("INSERT INTO note_links VALUES (?, ?, ?)", [(path, n, t) for n, t in enumerate(unique)])


def drop_links(cur: sqlite3.Cursor, where: str, args: Sequence[object]) -> None:
    """`where` is the same clause on `path` the caller used for its notes and chunks."""
    cur.execute(f"DELETE FROM note_links WHERE {where}", tuple(args))


def read_links(conn: sqlite3.Connection, paths: Sequence[str] | None) -> dict[str, tuple[str, ...]]:
    """path → targets in recorded order, for every note (None) or the given ones; notes without links absent."""
    found: dict[str, list[str]] = {}
    if paths is None:
        rows = conn.execute("SELECT path, target FROM note_links ORDER BY path, ordinal").fetchall()
    else:
        rows = []
        unique = list(dict.fromkeys(paths))
        for start in range(0, len(unique), _PAGE):
            page = unique[start : start + _PAGE]
            marks = ",".join("?" * len(page))
            sql = f"SELECT path, target FROM note_links WHERE path IN ({marks}) ORDER BY path, ordinal"
            rows.extend(conn.execute(sql, page).fetchall())
    for path, target in rows:
        found.setdefault(str(path), []).append(str(target))
    return {path: tuple(targets) for path, targets in found.items()}
