"""Chunk ids, heading lines, the hard cap and the chunking parameters' fingerprint key."""

from __future__ import annotations

import hashlib
import json

from askvault.config import ChunkParams

CHUNKER_VERSION = "2"
TRAIL_SEPARATOR = " › "
MAX_TITLE_LINE = 200
MAX_TRAIL_LINE = 400
MAX_META_LINE = 400
_REMOVED_SWITCHES = (
    "header_new_words_only=False, header_first_chunk_only=False, note_chunk=False, boilerplate_min_notes=0"
)
"""The chunking switches removed after measurement (eval/README.md), at the only values they had by default."""


def params_key(params: ChunkParams) -> str:
    """The chunking parameters as they enter every note's fingerprint: the dataclass's repr as it read while the
    removed switches were still fields, so an index built with the defaults stays valid (no re-index)."""
    return f"{str(params)[:-1]}, {_REMOVED_SWITCHES})"


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


def capped(head: str, text: str, cap: int) -> tuple[str, str]:
    index_text = f"{head}\n{text}"
    if len(index_text) > cap:  # only reachable with a cap smaller than the title and trail themselves
        text = text[: max(0, cap - len(head) - 1)]
        index_text = f"{head}\n{text}"[:cap]
    return text, index_text
