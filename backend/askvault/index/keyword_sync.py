"""The catalog and the BM25 index kept in step with the manifest: rebuilt whole, or patched after watcher batches."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import attrgetter

from askvault.index.privacy import Redactions
from askvault.model import Chunk, ChunkInfo
from askvault.redact.note import has_markers
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.manifest.manifest import Manifest
from askvault.store.protocol import KeywordIndex


class KeywordSync:
    """What changed in the manifest since the last catalog build, and the two ways to bring catalog and BM25 up."""

    def __init__(
        self, manifest: Manifest, keywords: KeywordIndex, catalog: ChunkCatalog, redactions: Redactions
    ) -> None:
        self._manifest = manifest
        self._keywords = keywords
        self._catalog = catalog
        self._redactions = redactions
        self._fresh: dict[str, list[str]] = {}
        """Since the last catalog build: each note committed → its chunk ids in order (watcher batches patch)."""
        self._gone: set[str] = set()
        """Since the last catalog build: chunk ids removed from the manifest."""

    def committed(self, path: str, chunk_ids: list[str]) -> None:
        self._fresh[path] = chunk_ids

    def removed(self, chunk_ids: Iterable[str]) -> None:
        self._gone.update(chunk_ids)

    def rebuild(self) -> None:
        """Catalog and BM25 from every chunk in the manifest (start-up and full runs)."""
        self._fresh, self._gone = {}, set()  # whatever is committed from here on is read below or patched later
        infos: dict[str, ChunkInfo] = {}
        marked: list[Chunk] = []

        def read() -> Iterator[Chunk]:
            # One pass over the manifest, a page at a time, feeds BM25, the catalog and the redaction counts:
            # no chunk's text stays in memory after its page (the catalog keeps `ChunkInfo`s).
            for chunk in self._manifest.iter_chunks():
                infos[chunk.id] = chunk.info()
                if has_markers(chunk):
                    marked.append(chunk)
                yield chunk

        self._keywords.rebuild(read())
        self._catalog.replace(infos)
        self._redactions.recount(marked)

    def patch(self) -> None:
        """Catalog and BM25 after watcher batches: only the notes they touched are read back from the manifest.

        The catalog keeps `iter_chunks`' order (by path, then position in the note), so BM25 ties break exactly
        as after a full rebuild; BM25 tokenizes only the chunks whose text is new, and is given the untouched
        notes' chunks without their texts (it keeps what it counted for them).
        """
        fresh, gone = self._fresh, self._gone
        old = self._catalog.snapshot()
        touched = set(fresh) | {old[cid].path for cid in gone if cid in old}
        # The manifest is the truth for a touched note: a chunk committed and then removed is not found.
        found = self._manifest.get_chunks([cid for ids in fresh.values() for cid in ids])
        ordered = [chunk for chunk in old.values() if chunk.path not in touched]
        ordered.extend(found[cid] for ids in fresh.values() for cid in ids if cid in found)
        ordered.sort(key=attrgetter("path"))  # stable: each note's chunks stay in their order
        self._keywords.rebuild(ordered)
        self._catalog.replace({chunk.id: chunk.info() for chunk in ordered})
        self._redactions.recount(found.values(), notes=touched)
        self._fresh, self._gone = {}, set()
