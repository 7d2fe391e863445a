"""The texts of one search's hits and candidates, read from the manifest in batches (the catalog keeps none)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askvault.model import Chunk, ChunkInfo
from askvault.store.manifest.catalog import ChunkCatalog


class HitTexts:
    """The texts of the candidates one search shows or matches literally, read from the manifest a batch at a
    time (the catalog keeps none): usually one read of the k hits."""

    def __init__(self, catalog: ChunkCatalog, chunks: Mapping[str, ChunkInfo]) -> None:
        self._catalog = catalog
        self._chunks = chunks
        self.full: dict[str, Chunk] = {}
        self._tried: set[str] = set()

    def read(self, ids: Sequence[str]) -> None:
        wanted = [info for cid in ids if cid not in self._tried and (info := self._chunks.get(cid)) is not None]
        self._tried.update(info.id for info in wanted)
        self.full.update(self._catalog.with_text(wanted))

    def get(self, chunk_id: str, ahead: Sequence[str]) -> Chunk | None:
        """The chunk with its text; when not read yet, read with the `ahead` ids (its own first) in one go."""
        if chunk_id not in self._tried:
            self.read(ahead)
        return self.full.get(chunk_id)
