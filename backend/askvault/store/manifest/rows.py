"""The manifest's tables and rows: schema, row <-> Chunk conversion, content hashes and the note delta."""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from askvault.model import Chunk, noise_of

SCHEMA_VERSION = 6
"""2: added `note_links` (the link graph's table); 3: adds `chunks.language` (`LANGUAGE_COLUMN`); 4: adds
`notes.indexed_at` (`INDEXED_AT_COLUMN`); 5: adds `chunks.aliases` (`ALIASES_COLUMN`) and drops `note_links`
(`DROP_LINKS`); 6: adds `note_lines` and the chunks' noise shares (`NOISE_COLUMNS`). Older manifests are upgraded
in place."""
MANIFEST_FILE = "manifest.sqlite"
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # mtime NUMERIC: an int (st_mtime_ns) stays an exact int, a float stays a float.
    "CREATE TABLE IF NOT EXISTS notes (path TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, mtime NUMERIC NOT NULL,"
    " size INTEGER NOT NULL, title TEXT NOT NULL, indexed_at TEXT)",
    "CREATE TABLE IF NOT EXISTS chunks (id TEXT PRIMARY KEY, path TEXT NOT NULL, ordinal INTEGER NOT NULL,"
    " title TEXT NOT NULL, heading_path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,"
    " text TEXT NOT NULL, index_text TEXT NOT NULL, tags TEXT NOT NULL, mtime REAL NOT NULL,"
    " content_hash TEXT NOT NULL, language TEXT NOT NULL DEFAULT '', aliases TEXT NOT NULL DEFAULT '[]',"
    " noise_template INTEGER NOT NULL DEFAULT 0, noise_links INTEGER NOT NULL DEFAULT 0,"
    " noise_query INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks (path, ordinal)",
    "CREATE TABLE IF NOT EXISTS vectors (collection TEXT NOT NULL, chunk_id TEXT NOT NULL,"
    " content_hash TEXT NOT NULL, PRIMARY KEY (collection, chunk_id))",
    "CREATE INDEX IF NOT EXISTS vectors_by_chunk ON vectors (chunk_id)",
    # Each indexed note's body-line signatures (`chunk.boilerplate.signature`), and `NOTE_MARK` once per note: how
    # many notes hold a line is what makes it a template line. Hashes only, of lines already redacted.
    "CREATE TABLE IF NOT EXISTS note_lines (path TEXT NOT NULL, sig INTEGER NOT NULL, PRIMARY KEY (path, sig))"
    " WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS note_lines_by_sig ON note_lines (sig)",
)
NOTE_MARK = 0
"""The signature every recorded note has a row for, so the table counts notes without a body line too (a real
line's signature is 0 once in 2^63 lines; it would only count one template line too many)."""
DROP_LINKS = "DROP TABLE IF EXISTS note_links"
"""The link graph was removed after measurement (eval/README.md): its table goes, so no link target of a note
excluded later stays on disk."""
LANGUAGE_COLUMN = "ALTER TABLE chunks ADD COLUMN language TEXT NOT NULL DEFAULT ''"
"""Upgrading from schema 1 or 2: every chunk's language is "" (the default language) until its note is indexed
again, which the indexer's fingerprint (`index.language.LANGUAGE_RULES`) makes happen on the next run."""
ALIASES_COLUMN = "ALTER TABLE chunks ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]'"
STALE_FOR_ALIASES = "UPDATE notes SET fingerprint = fingerprint || ':aliases'"
"""Upgrading from schema 1-4: chunks have no aliases recorded, so every note fails its fingerprint check once and
is chunked again; its chunks come back with the same text, so nothing is embedded again."""
INDEXED_AT_COLUMN = "ALTER TABLE notes ADD COLUMN indexed_at TEXT"
NOISE_COLUMNS = tuple(
    f"ALTER TABLE chunks ADD COLUMN {name} INTEGER NOT NULL DEFAULT 0"
    for name in ("noise_template", "noise_links", "noise_query")
)
"""Upgrading from schema 1-5: no chunk has noise recorded (0) until its note is indexed again, which the indexer's
fingerprint (`chunk.boilerplate.BOILERPLATE_VERSION`) makes happen on the next run."""
"""Upgrading from schema 1-3: when a note's chunks were indexed is unknown (NULL) until they change."""
CHUNK_COLUMNS = (
    "id, path, title, heading_path, start_line, end_line, text, index_text, tags, mtime, language, aliases, "
    "noise_template, noise_links, noise_query"
)
Row = tuple[Any, ...]
"""sqlite3 rows are untyped; the schema above fixes each column's type."""


def content_hash(chunk: Chunk) -> str:
    """What `mark_embedded` wants beside a chunk id: sha256 of the embedded text."""
    return hashlib.sha256(chunk.index_text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class NoteDelta:
    """What `replace_note` changed, as chunk ids."""

    added: list[str]
    removed: list[str]
    changed: list[str]
    """Same id, new text: the vector must be recomputed."""
    restamped: list[str] = field(default_factory=list)
    """Same text (the vector still holds) but tags or mtime changed: refresh the vector payload only."""


@dataclass(frozen=True, slots=True)
class NoteStat:
    """What the manifest knows about a note file, for change detection."""

    fingerprint: str
    mtime: float
    """As recorded: `st_mtime_ns` (int) when the indexer passes that, for exact comparison."""
    size: int
    title: str

    @property
    def mtime_ns(self) -> int:
        # Float seconds carry about a microsecond of precision; scaling by 1e9 directly adds float noise.
        return self.mtime if isinstance(self.mtime, int) else round(self.mtime * 1_000_000) * 1000


def row_chunk(row: Row) -> Chunk:
    cid, path, title, heading, start, end, text, index_text, tags, mtime, language, aliases, *noise = row
    return Chunk(
        id=cid,
        path=path,
        title=title,
        heading_path=tuple(json.loads(heading)),
        start_line=start,
        end_line=end,
        text=text,
        index_text=index_text,
        tags=tuple(json.loads(tags)),
        mtime=mtime,
        language=language,
        aliases=tuple(json.loads(aliases)),
        noise=noise_of(*noise),
    )


class SharedRows:
    """Rows → chunks for a read in note order: a note's chunks share one object for each field they have in
    common (path, title, tags, aliases, mtime, language, and the heading trail of a section split in pieces), so
    the catalog holds those once a note, not once a chunk. Language codes are interned (a handful in a vault)."""

    def __init__(self) -> None:
        self._note: tuple[object, ...] = ()
        self._shared: tuple[str, str, tuple[str, ...], tuple[str, ...], float, str] | None = None
        self._heading: tuple[str, tuple[str, ...]] | None = None

    def chunk(self, row: Row) -> Chunk:
        cid, path, title, heading, start, end, text, index_text, tags, mtime, language, aliases, *noise = row
        note = (path, title, tags, aliases, mtime, language)
        shared = self._shared
        if shared is None or note != self._note:
            decoded = (path, title, tuple(json.loads(tags)), tuple(json.loads(aliases)), mtime, sys.intern(language))
            self._note, self._shared = note, decoded
            shared = decoded
        if self._heading is None or self._heading[0] != heading:
            self._heading = (heading, tuple(json.loads(heading)))
        path, title, tag_tuple, alias_tuple, mtime, language = shared
        return Chunk(
            id=cid,
            path=path,
            title=title,
            heading_path=self._heading[1],
            start_line=start,
            end_line=end,
            text=text,
            index_text=index_text,
            tags=tag_tuple,
            mtime=mtime,
            language=language,
            aliases=alias_tuple,
            noise=noise_of(*noise),
        )
