"""An in-memory snapshot of every indexed chunk's metadata; the few texts a request needs are read back in one go."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from askvault.model import Chunk, ChunkInfo, ChunkText

TextReader = Callable[[Sequence[str]], Mapping[str, ChunkText]]
"""Chunk id → its texts, for the ids that exist (`Manifest.chunk_texts`)."""


def _same_lines(chunk: ChunkInfo, row: ChunkText) -> bool:
    return not row.start_line or (row.start_line, row.end_line) == (chunk.start_line, chunk.end_line)


class ChunkCatalog:
    """Immutable snapshots swapped whole: readers never see a half-built catalog.

    It holds `ChunkInfo`s, not chunks: at a million chunks their texts would be 1.3 GB of the sidecar's memory,
    and a search shows, sends or matches literally only a few dozen of them (`with_text`).
    """

    def __init__(self, texts: TextReader) -> None:
        self._lock = threading.Lock()
        self._texts = texts
        self._chunks: Mapping[str, ChunkInfo] = MappingProxyType({})
        self._by_note: tuple[Mapping[str, ChunkInfo], Mapping[str, tuple[str, ...]]] | None = None
        """(the snapshot it was built from, path → chunk ids by start line); rebuilt lazily after a swap."""

    def replace(self, chunks: dict[str, ChunkInfo]) -> None:
        frozen = MappingProxyType(chunks)
        with self._lock:
            self._chunks = frozen

    def snapshot(self) -> Mapping[str, ChunkInfo]:
        return self._chunks

    def get(self, chunk_id: str) -> ChunkInfo | None:
        return self._chunks.get(chunk_id)

    def with_text(self, chunks: Iterable[ChunkInfo]) -> dict[str, Chunk]:
        """These chunks with their texts, by id, in their order, from one read of the manifest. A chunk whose
        row is gone (removed since the caller's snapshot), or now spans other lines (its note was re-indexed in
        between), is left out, as if the snapshot had not held it: a hit never pairs new text with old lines,
        which its citation would open at."""
        wanted = list(chunks)
        if not wanted:
            return {}
        texts = self._texts([chunk.id for chunk in wanted])
        return {
            chunk.id: chunk if isinstance(chunk, Chunk) else chunk.with_text(found.text, found.index_text)
            for chunk in wanted
            if (found := texts.get(chunk.id)) is not None and _same_lines(chunk, found)
        }

    def text_of(self, chunk_id: str) -> ChunkText | None:
        """One chunk's texts (None when its row is gone)."""
        return self._texts([chunk_id]).get(chunk_id)

    def by_note(self) -> Mapping[str, tuple[str, ...]]:
        """Every note's chunk ids in document order (by start line), for the current snapshot.

        Built on first use after each swap (one pass over the catalog), so queries that need a note's chunks
        in order (date scoping, related notes, the inspector) never walk the catalog themselves.
        """
        chunks = self._chunks
        cached = self._by_note
        if cached is not None and cached[0] is chunks:
            return cached[1]
        grouped: dict[str, list[ChunkInfo]] = {}
        for chunk in chunks.values():
            grouped.setdefault(chunk.path, []).append(chunk)
        order = MappingProxyType(
            {
                path: tuple(c.id for c in sorted(members, key=lambda c: (c.start_line, c.end_line)))
                for path, members in grouped.items()
            }
        )
        self._by_note = (chunks, order)  # a racing swap only costs a rebuild: the snapshot is checked on read
        return order

    def __len__(self) -> int:
        return len(self._chunks)

    def note_count(self) -> int:
        return len({chunk.path for chunk in self._chunks.values()})
