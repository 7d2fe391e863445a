"""An in-memory snapshot of every indexed chunk, so the request path never touches SQLite."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from types import MappingProxyType

from askvault.model import Chunk


class ChunkCatalog:
    """Immutable snapshots swapped whole: readers never see a half-built catalog."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._chunks: Mapping[str, Chunk] = MappingProxyType({})
        self._by_note: tuple[Mapping[str, Chunk], Mapping[str, tuple[str, ...]]] | None = None
        """(the snapshot it was built from, path → chunk ids by start line); rebuilt lazily after a swap."""

    def replace(self, chunks: dict[str, Chunk]) -> None:
        frozen = MappingProxyType(chunks)
        with self._lock:
            self._chunks = frozen

    def snapshot(self) -> Mapping[str, Chunk]:
        return self._chunks

    def get(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def by_note(self) -> Mapping[str, tuple[str, ...]]:
        """Every note's chunk ids in document order (by start line), for the current snapshot.

        Built on first use after each swap (one pass over the catalog), so queries that need a note's chunks
        in order (date scoping, related notes, the inspector) never walk the catalog themselves.
        """
        chunks = self._chunks
        cached = self._by_note
        if cached is not None and cached[0] is chunks:
            return cached[1]
        grouped: dict[str, list[Chunk]] = {}
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
