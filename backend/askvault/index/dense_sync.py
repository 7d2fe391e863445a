"""Keeps the vector collection in step with the manifest: embeds what lacks a vector, switches models safely."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from askvault.embed.choice import EmbedderRecord
from askvault.embed.protocol import Embedder
from askvault.errors import ModelError
from askvault.index.report import Progress
from askvault.store.manifest.manifest import Manifest
from askvault.store.protocol import GraphIndexed, VectorStore
from askvault.store.vectors.dense_index import DenseIndex

log = logging.getLogger(__name__)

ACTIVE_COLLECTION = "active_collection"
EMBEDDER_RECORD = "embedder"
"""Manifest meta key: the EmbedderRecord of the active collection (JSON), so later commands use that embedder."""
LEGACY_DEFAULT_PREFIX = "chunks_nomic-embed-text_"
"""Indexes from before the record whose collection is this were built by the old default, Ollama's nomic."""
EMBED_BATCH = 64


class VectorStoreFactory(Protocol):
    """Opens collections of the configured vector store (embedded engine or Qdrant server)."""

    async def open(self, collection: str, dim: int) -> VectorStore: ...

    async def retire_others(self, keep: str) -> list[str]:
        """Drops every collection but `keep` (old embedders' vectors) once `keep` is complete; returns their names."""
        ...


@dataclass
class VectorChores:
    """What the notes' commits left for the vector store: filled by the indexer, drained by `sync_dense`."""

    stale: set[str] = field(default_factory=set)
    """Chunk ids whose vector must go (chunk removed, or its text changed)."""
    restamped: set[str] = field(default_factory=set)
    """Chunk ids whose text (so vector) is unchanged but whose tags or mtime changed: the payload filters use."""

    def __bool__(self) -> bool:
        return bool(self.stale or self.restamped)


def collection_name(fingerprint: str) -> str:
    """`nomic-embed-text:latest@768` → `chunks_nomic-embed-text_latest_768`: one collection per embedder."""
    return "chunks_" + re.sub(r"[^A-Za-z0-9_-]+", "_", fingerprint).strip("_")


async def sync_dense(
    manifest: Manifest,
    dense: DenseIndex[Embedder],
    factory: VectorStoreFactory,
    progress: Callable[[Progress], None] | None = None,
    chores: VectorChores | None = None,
    sweep: bool = True,
) -> int:
    """Embeds every chunk that lacks a vector in the current embedder's collection; returns how many.

    Never raises for model problems: dense search turns off with a sentence saying how to fix it, and
    keyword search keeps working. Vectors already written are kept, so the next run resumes.
    `chores` (stale vectors, payloads to refresh) are done first and emptied.

    `sweep=False` (watcher batches) skips listing every vector in the store, which grows with the vault: vectors
    the store lost are not noticed, and orphans are not removed, until the next sync with `sweep` (full runs and
    reconciles). A collection still being built is always swept.
    """
    chores = chores if chores is not None else VectorChores()
    embedder = dense.embedder
    try:
        fingerprint = await embedder.fingerprint()
        dim = await embedder.dimension()
    except ModelError as exc:
        _turn_off(dense, exc.message)
        await _defer_chores(manifest, chores)
        return 0
    collection = collection_name(fingerprint)
    store = dense.store
    if store is None or getattr(store, "collection", None) != collection:
        store = await factory.open(collection, dim)
    complete_before = manifest.get_meta(ACTIVE_COLLECTION) == collection
    if not complete_before:
        # A new model: queries leave the old model's collection at once and use the new one as it fills.
        dense.building(None, 0.0)
    sweep = sweep or not complete_before
    stored: set[str] = set()
    if sweep:
        stored = await store.ids()
        known = await _forget_lost(manifest, stored, collection)
    elif chores.restamped:
        known = await asyncio.to_thread(manifest.embedded_ids, collection)
    else:
        known = set()
    stored -= await _do_chores(manifest, store, chores, known)
    # Ids only: a first index of a million chunks would otherwise hold every text twice (here and in the catalog).
    pending = await asyncio.to_thread(manifest.unembedded_ids, collection)
    total = await asyncio.to_thread(manifest.count_embeddable)
    if not complete_before:
        _partial(dense, store, total - len(pending), total)
    done = 0
    for start in range(0, len(pending), EMBED_BATCH):
        ids = pending[start : start + EMBED_BATCH]
        found = await asyncio.to_thread(manifest.get_chunks, ids)
        batch = [found[chunk_id] for chunk_id in ids if chunk_id in found]  # one removed meanwhile is skipped
        try:
            vectors = await embedder.embed_documents([c.index_text for c in batch])
        except ModelError as exc:
            _turn_off(dense, exc.message)
            return done
        await store.upsert(batch, vectors)
        await asyncio.to_thread(manifest.mark_embedded, collection, [(c.id, manifest.content_hash(c)) for c in batch])
        done += len(batch)
        if not complete_before:
            _partial(dense, store, total - len(pending) + done, total)
        if progress:
            progress(Progress("embed", start + len(ids), len(pending)))
    if sweep:
        await _sweep_orphans(manifest, store, collection, stored)
    if not complete_before:
        manifest.set_meta(ACTIVE_COLLECTION, collection)
        for retired in await factory.retire_others(keep=collection):
            # Its vectors are gone with its folder: coming back to that model must embed everything again.
            await asyncio.to_thread(manifest.forget_collection, retired)
    _remember(manifest, embedder, fingerprint, dim)
    dense.ready(store)
    return done


def _remember(manifest: Manifest, embedder: Embedder, fingerprint: str, dim: int) -> None:
    """Records which embedder the complete collection belongs to (written once per change)."""
    prefixes = embedder.prefixes
    record = EmbedderRecord(embedder.backend, embedder.model, dim, prefixes.document, prefixes.query, fingerprint)
    if manifest.get_meta(EMBEDDER_RECORD) != record.to_json():
        manifest.set_meta(EMBEDDER_RECORD, record.to_json())


def recorded_embedder(manifest: Manifest) -> EmbedderRecord | None:
    """The embedder the index's complete vectors were made with; for an index from before the record, the old
    default (Ollama's nomic-embed-text) when its collection is that model's, else None."""
    record = EmbedderRecord.from_json(manifest.get_meta(EMBEDDER_RECORD))
    if record is not None:
        return record
    active = manifest.get_meta(ACTIVE_COLLECTION) or ""
    if active.startswith(LEGACY_DEFAULT_PREFIX):
        dim = active.removeprefix(LEGACY_DEFAULT_PREFIX)
        return EmbedderRecord(
            "ollama",
            "nomic-embed-text",
            int(dim) if dim.isdigit() else 0,
            "search_document: ",
            "search_query: ",
            f"nomic-embed-text@{dim}",
        )
    return None


async def start_graph(dense: DenseIndex[Embedder]) -> None:
    """Lets a complete collection give itself a graph in the background once it is big enough."""
    store = dense.store
    if dense.state == "ready" and isinstance(store, GraphIndexed):
        await store.ensure_graph()


def _partial(dense: DenseIndex[Embedder], store: VectorStore, embedded: int, total: int) -> None:
    """A collection being built answers from the vectors it has (none yet: no store)."""
    if dense.state == "building" and embedded > 0:
        dense.building(store, embedded / max(1, total))


async def _forget_lost(manifest: Manifest, stored: set[str], collection: str) -> set[str]:
    """Vectors the manifest records but the store lacks (a dropped or deleted collection) count as unembedded.

    Without this a collection rebuilt empty would be declared complete and dense search would find nothing.
    Returns the ids the store really holds vectors for.
    """
    known = await asyncio.to_thread(manifest.embedded_ids, collection)
    lost = sorted(known - stored)
    if lost:
        log.info("%d vectors of %s are missing from the store; they will be embedded again", len(lost), collection)
        await asyncio.to_thread(manifest.forget_vectors, collection, lost)
    return known & stored


async def _do_chores(manifest: Manifest, store: VectorStore, chores: VectorChores, known: set[str]) -> set[str]:
    """Deletes stale vectors and refreshes restamped payloads; returns the ids deleted.

    The queue empties only once the store took it, so a store failure leaves it for the next sync.
    """
    stale = sorted(chores.stale)
    # A restamped chunk without a vector here gets one (payload included) when it is embedded below.
    restamped = sorted((chores.restamped & known) - set(stale))
    if stale:
        await store.delete(stale)
    chores.stale.difference_update(stale)
    if restamped:
        # Same text, so the vector holds; but folder/tag/date filters read the payload, which must follow.
        chunks = await asyncio.to_thread(manifest.get_chunks, restamped)
        await store.refresh_payload(list(chunks.values()))
    chores.restamped.clear()
    return set(stale)


async def _defer_chores(manifest: Manifest, chores: VectorChores) -> None:
    """No store to update now: stale vectors are swept as orphans later; restamped chunks get embedded again
    (with a fresh payload) once the model is back, so no filter ever reads an outdated payload."""
    chores.stale = set()
    restamped, chores.restamped = sorted(chores.restamped), set()
    if restamped:
        await asyncio.to_thread(manifest.forget_chunk_vectors, restamped)


async def _sweep_orphans(manifest: Manifest, store: VectorStore, collection: str, stored: set[str]) -> None:
    """Vectors whose chunk is gone (a crash between commit and delete) are removed; none survive a sync.

    `stored` is the store's ids from the start of this sync: what was written since is recorded in the
    manifest (or, for a chunk removed mid-sync, swept by the next one).
    """
    known = await asyncio.to_thread(manifest.embedded_ids, collection)
    orphans = sorted(stored - known)
    if orphans:
        log.info("removing %d orphan vectors", len(orphans))
        await store.delete(orphans)


def _turn_off(dense: DenseIndex[Embedder], problem: str) -> None:
    log.warning("dense search off: %s", problem)
    dense.off(problem)
