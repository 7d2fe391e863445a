"""Keeps the vector collection in step with the manifest: embeds what lacks a vector, switches models safely."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Protocol

from askvault.errors import ModelError, ModelMissing, ModelUnreachable
from askvault.index.report import Progress
from askvault.retrieve.dense import DenseIndex
from askvault.store.manifest import Manifest
from askvault.store.protocol import VectorStore

log = logging.getLogger(__name__)

ACTIVE_COLLECTION = "active_collection"
EMBED_BATCH = 64


class VectorStoreFactory(Protocol):
    """Opens collections of the configured vector store (embedded engine or Qdrant server)."""

    async def open(self, collection: str, dim: int) -> VectorStore: ...

    async def retire_others(self, keep: str) -> None:
        """Drops every collection but `keep` (old embedders' vectors) once `keep` is complete."""
        ...


def collection_name(fingerprint: str) -> str:
    """`nomic-embed-text:latest@768` → `chunks_nomic-embed-text_latest_768`: one collection per embedder."""
    return "chunks_" + re.sub(r"[^A-Za-z0-9_-]+", "_", fingerprint).strip("_")


def describe_model_problem(exc: ModelError, model: str) -> str:
    if isinstance(exc, ModelMissing):
        return f"embedding model missing — ollama pull {model}"
    if isinstance(exc, ModelUnreachable):
        return f"Ollama not reachable — start Ollama, then `ollama pull {model}` for dense search"
    return f"embedding failed — {exc.message}"


async def sync_dense(
    manifest: Manifest,
    dense: DenseIndex,
    factory: VectorStoreFactory,
    progress: Callable[[Progress], None] | None = None,
) -> int:
    """Embeds every chunk that lacks a vector in the current embedder's collection; returns how many.

    Never raises for model problems: dense search turns off with a sentence saying how to fix it, and
    keyword search keeps working. Vectors already written are kept, so the next run resumes.
    """
    embedder = dense.embedder
    try:
        fingerprint = await embedder.fingerprint()
        dim = await embedder.dimension()
    except ModelError as exc:
        _turn_off(dense, describe_model_problem(exc, embedder.model))
        return 0
    collection = collection_name(fingerprint)
    store = dense.store
    if store is None or getattr(store, "collection", None) != collection:
        store = await factory.open(collection, dim)
    complete_before = manifest.get_meta(ACTIVE_COLLECTION) == collection
    if not complete_before:
        # A new model: keep queries off the half-built collection until every chunk has a vector.
        dense.state, dense.store = "building", None
    pending = await asyncio.to_thread(manifest.unembedded, collection)
    done = 0
    for start in range(0, len(pending), EMBED_BATCH):
        batch = pending[start : start + EMBED_BATCH]
        try:
            vectors = await embedder.embed_documents([c.index_text for c in batch])
        except ModelError as exc:
            _turn_off(dense, describe_model_problem(exc, embedder.model))
            return done
        await store.upsert(batch, vectors)
        await asyncio.to_thread(manifest.mark_embedded, collection, [(c.id, manifest.content_hash(c)) for c in batch])
        done += len(batch)
        if progress:
            progress(Progress("embed", done, len(pending)))
    await _sweep_orphans(manifest, store, collection)
    if not complete_before:
        manifest.set_meta(ACTIVE_COLLECTION, collection)
        await factory.retire_others(keep=collection)
    dense.store, dense.state, dense.problem = store, "ready", None
    return done


async def _sweep_orphans(manifest: Manifest, store: VectorStore, collection: str) -> None:
    """Vectors whose chunk is gone (a crash between commit and delete) are removed; none survive a sync."""
    known = await asyncio.to_thread(manifest.embedded_ids, collection)
    stored = await store.ids()
    orphans = sorted(stored - known)
    if orphans:
        log.info("removing %d orphan vectors", len(orphans))
        await store.delete(orphans)


def _turn_off(dense: DenseIndex, problem: str) -> None:
    log.warning("dense search off: %s", problem)
    dense.state, dense.problem = "off", problem
