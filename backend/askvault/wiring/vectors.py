"""The two vector-store factories: the embedded engine in the data dir, or a Qdrant server."""

from __future__ import annotations

import logging
from pathlib import Path

from askvault.store.protocol import VectorStore
from askvault.store.vectors.edge_collections import drop_collection, list_collections
from askvault.store.vectors.edge_graph import GraphParams
from askvault.store.vectors.edge_graph_store import GraphVectorStore
from askvault.store.vectors.qdrant_server import ServerVectorStore, server_collection

log = logging.getLogger(__name__)

DEFAULT_GRAPH = GraphParams()


class EdgeFactory:
    """Embedded Qdrant engine (qdrant-edge): one folder per collection under `<data dir>/vectors`; a collection
    of `graph.min_points` vectors or more gets an HNSW graph (None: every collection stays exact)."""

    def __init__(self, root: Path, graph: GraphParams | None = DEFAULT_GRAPH) -> None:
        self._root = root
        self._graph = graph
        self._open: dict[str, GraphVectorStore] = {}

    @property
    def kind(self) -> str:
        return "qdrant-edge (embedded)"

    async def open(self, collection: str, dim: int) -> VectorStore:
        store = self._open.get(collection)
        if store is None:
            store = await GraphVectorStore.open(self._root, collection, dim)
            store.wanted = self._graph
            self._open[collection] = store
        return store

    async def retire_others(self, keep: str) -> list[str]:
        dropped: list[str] = []
        for name in list_collections(self._root):
            if name == keep:
                continue
            store = self._open.pop(name, None)
            if store is not None:
                await store.close()
            drop_collection(self._root, name)
            dropped.append(name)
            log.info("dropped vector collection %s (another embedder's)", name)
        return dropped

    async def close(self) -> None:
        for store in self._open.values():
            await store.close()
        self._open.clear()


class ServerFactory:
    """A Qdrant server (`--qdrant-url`); collections are named per embedder fingerprint."""

    def __init__(self, url: str, vault_id: str) -> None:
        self._url = url
        self._vault_id = vault_id
        self._open: dict[str, ServerVectorStore] = {}

    @property
    def kind(self) -> str:
        return f"qdrant-server {self._url}"

    async def open(self, collection: str, dim: int) -> VectorStore:
        store = self._open.get(collection)
        if store is None:
            store = await ServerVectorStore.open(self._url, server_collection(self._vault_id, collection), dim)
            self._open[collection] = store
        return store

    async def retire_others(self, keep: str) -> list[str]:
        # Only collections this process opened are known here; a server may hold other vaults' too.
        dropped: list[str] = []
        for name, store in list(self._open.items()):
            if name != keep:
                await store.drop()
                await store.close()
                del self._open[name]
                dropped.append(name)
        return dropped

    async def close(self) -> None:
        for store in self._open.values():
            await store.close()
        self._open.clear()
