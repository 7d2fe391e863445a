"""Chunk ids, heading lines and the hard cap shared by section chunks and the note-level chunk."""

from __future__ import annotations

import hashlib
import json

CHUNKER_VERSION = "2"
TRAIL_SEPARATOR = " › "
MAX_TITLE_LINE = 200
MAX_TRAIL_LINE = 400
MAX_META_LINE = 400
MAX_NOTE_ITEMS = 60
"""At most this many headings, table columns or link titles in a note-level chunk (each list)."""
MIN_BOILERPLATE_CHARS = 8
"""Shorter lines ("Tasks", "1.") are never treated as boilerplate: they carry no template."""
NOTE_CHUNK_KEY = ("\x00note",)
"""The id key of the note-level chunk; no heading trail can equal it."""


def head_lines(title: str, trail: tuple[str, ...], meta: str = "") -> str:
    head = title[:MAX_TITLE_LINE]
    if meta:
        head += "\n" + meta[:MAX_META_LINE]
    if trail:
        head += "\n" + TRAIL_SEPARATOR.join(trail)[:MAX_TRAIL_LINE]
    return head


def chunk_id(path: str, trail: tuple[str, ...], ordinal: int) -> str:
    key = json.dumps([path, list(trail), ordinal], ensure_ascii=False)
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:32]


def note_chunk_id(path: str) -> str:
    """The id the note-level chunk of `path` has (`ChunkParams.note_chunk`)."""
    return chunk_id(path, NOTE_CHUNK_KEY, 0)


def capped(head: str, text: str, cap: int) -> tuple[str, str]:
    index_text = f"{head}\n{text}"
    if len(index_text) > cap:  # only reachable with a cap smaller than the title and trail themselves
        text = text[: max(0, cap - len(head) - 1)]
        index_text = f"{head}\n{text}"[:cap]
    return text, index_text
