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

    def replace(self, chunks: dict[str, Chunk]) -> None:
        frozen = MappingProxyType(chunks)
        with self._lock:
            self._chunks = frozen

    def snapshot(self) -> Mapping[str, Chunk]:
        return self._chunks

    def get(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def __len__(self) -> int:
        return len(self._chunks)

    def note_count(self) -> int:
        return len({chunk.path for chunk in self._chunks.values()})
