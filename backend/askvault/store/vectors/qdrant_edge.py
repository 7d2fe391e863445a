"""The embedded vector store: Qdrant's Rust engine in-process (qdrant-edge), one shard folder per collection.

Search is exact (brute force over float32 vectors, filters applied inside the scan): at vault sizes it is a
millisecond or two, recall is 1.0 by construction and there is no HNSW graph to build; see docs/decisions.md.
A shard that was given a graph (`edge_graph`, built off-process by `edge_build`) answers unfiltered searches
from it.
Writes and other long calls run in a worker thread; a search runs on the calling thread, since the engine holds
the GIL for a whole query (docs/decisions.md, "The search path at 10k"). Writes are serialised by a lock and
`close` waits for calls still running, so a shard is never closed under a query.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Self, TypeVar

from qdrant_edge import EdgeShard, Point, QueryBatchRequest, ScoredPoint, UpdateOperation

from askvault.errors import StoreError
from askvault.model import Chunk, RankedId, SearchFilters
from askvault.store.vectors.edge_build import read_graph
from askvault.store.vectors.edge_collections import claim, release
from askvault.store.vectors.edge_reads import query_request, read_vectors, scan_ids
from askvault.store.vectors.edge_shard import MIN_FREE_BYTES, check_free_space, describe, load_or_create
from askvault.store.vectors.payload import check_dims, check_upsert, chunk_payload, point_id, ranked_ids, storage_name

T = TypeVar("T")

_UPSERT_BATCH = 256


class EdgeVectorStore:
    """askvault.store.protocol.VectorStore on an in-process qdrant-edge shard. Create with `await open(...)`."""

    def __init__(self, shard: EdgeShard, path: Path, collection: str, dim: int) -> None:
        self._shard: EdgeShard | None = shard
        self._path = path
        self._collection = collection
        self._dim = dim
        self._write_lock = threading.Lock()
        self._state = threading.Condition()
        self._active = 0
        self._graph, self._segments = read_graph(path)
        """The graph's parameters when the shard has one (unfiltered searches use it), else None; and how many
        segments it was built in (the search's `hnsw_ef` depends on it)."""
        self._journal: set[str] | None = None
        """Point ids written while a graph is built on a copy: replayed into the copy when it is swapped in."""
        self._swapping = False

    @classmethod
    async def open(cls, dir: Path, collection: str, dim: int) -> Self:
        """Opens (or creates) the collection's shard in `dir/<collection>`; its vectors must have `dim` values."""
        if dim <= 0:
            raise ValueError(f"vector dimension must be positive, not {dim}")
        path = (dir / storage_name(collection)).resolve()
        claim(path, collection)
        try:
            shard = await asyncio.to_thread(load_or_create, path, collection, dim)
        except BaseException:
            release(path)
            raise
        return cls(shard, path, collection, dim)

    @property
    def kind(self) -> str:
        return "qdrant-edge (embedded)"

    @property
    def collection(self) -> str:
        return self._collection

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def path(self) -> Path:
        return self._path

    def _run(
        self, action: str, call: Callable[[EdgeShard], T], *, write: bool = False, touched: Sequence[str] = ()
    ) -> T:
        """Runs in a worker thread; counts itself active so `close` (and a graph swap) waits for it. A write
        names the point ids it `touched`, for the journal of a graph build."""
        with self._state:
            while self._swapping:
                self._state.wait()
            shard = self._shard
            if shard is None:
                raise StoreError(f"vector collection {self._collection!r} is closed")
            self._active += 1
        try:
            if write:
                check_free_space(self._path)
                with self._write_lock:
                    if self._journal is not None:
                        self._journal.update(touched)
                    return self._call(action, call, shard)
            return self._call(action, call, shard)
        finally:
            self._leave()

    def _run_now(self, action: str, call: Callable[[EdgeShard], T]) -> T | None:
        """A read run on the calling thread when no graph swap is under way (None: wait in `_run` instead)."""
        with self._state:
            shard = self._shard
            if self._swapping or shard is None:
                return None
            self._active += 1
        try:
            return self._call(action, call, shard)
        finally:
            self._leave()

    def _call(self, action: str, call: Callable[[EdgeShard], T], shard: EdgeShard) -> T:
        try:
            return call(shard)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(
                f"vector collection {self._collection!r} at {self._path}: {action} failed: {describe(exc)}"
            ) from exc

    def _leave(self) -> None:
        with self._state:
            self._active -= 1
            self._state.notify_all()

    async def upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_upsert(chunks, vectors, self._dim, f"vector collection {self._collection!r}")
        if not chunks:
            return

        def write(shard: EdgeShard) -> None:
            for start in range(0, len(chunks), _UPSERT_BATCH):
                points = [
                    Point(point_id(chunk.id), [float(x) for x in vector], chunk_payload(chunk))
                    for chunk, vector in zip(
                        chunks[start : start + _UPSERT_BATCH], vectors[start : start + _UPSERT_BATCH], strict=True
                    )
                ]
                shard.update(UpdateOperation.upsert_points(points))

        touched = [point_id(chunk.id) for chunk in chunks]
        await asyncio.to_thread(self._run, "upsert", write, write=True, touched=touched)

    async def delete(self, chunk_ids: Sequence[str]) -> None:
        if not chunk_ids:
            return
        ids: list[str | int] = [point_id(chunk_id) for chunk_id in chunk_ids]

        def write(shard: EdgeShard) -> None:
            shard.update(UpdateOperation.delete_points(list(ids)))

        await asyncio.to_thread(self._run, "delete", write, write=True, touched=[str(i) for i in ids])

    async def refresh_payload(self, chunks: Sequence[Chunk]) -> None:
        """Rewrites path/tags/mtime of chunks whose text (and so vector) did not change."""
        if not chunks:
            return

        def write(shard: EdgeShard) -> None:
            for chunk in chunks:
                shard.update(UpdateOperation.set_payload([point_id(chunk.id)], chunk_payload(chunk)))

        touched = [point_id(chunk.id) for chunk in chunks]
        await asyncio.to_thread(self._run, "payload update", write, write=True, touched=touched)

    async def search(self, vector: Sequence[float], limit: int, filters: SearchFilters) -> list[RankedId]:
        if limit <= 0:
            return []
        check_dims([vector], self._dim, f"vector collection {self._collection!r}")
        request = query_request(vector, limit, filters, self._graph, self._segments)

        # The engine holds the GIL for a whole query (measured: no other thread runs meanwhile), so a worker
        # thread frees nothing and costs a hop (0.1 ms); only a graph swap under way is waited for in one.
        def query(shard: EdgeShard) -> list[ScoredPoint]:
            return shard.query(request)

        points = self._run_now("search", query)
        if points is None:
            points = await asyncio.to_thread(self._run, "search", query)
        return ranked_ids(points)

    async def search_batch(
        self, vectors: Sequence[Sequence[float]], limit: int, filters: SearchFilters
    ) -> list[list[RankedId]]:
        if limit <= 0 or not vectors:
            return [[] for _ in vectors]
        check_dims(vectors, self._dim, f"vector collection {self._collection!r}")
        batch = QueryBatchRequest(
            [query_request(vector, limit, filters, self._graph, self._segments) for vector in vectors]
        )
        answers = await asyncio.to_thread(self._run, "search", lambda shard: shard.query_batch(batch))
        return [ranked_ids(points) for points in answers]

    async def ids(self) -> set[str]:
        return await asyncio.to_thread(self._run, "listing ids", scan_ids)

    async def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        if not chunk_ids:
            return {}
        ids: list[str | int | uuid.UUID] = [point_id(chunk_id) for chunk_id in chunk_ids]

        return await asyncio.to_thread(self._run, "reading vectors", lambda shard: read_vectors(shard, ids))

    async def count(self) -> int:
        return await asyncio.to_thread(self._run, "count", lambda shard: shard.info().points_count)

    def _close_sync(self) -> None:
        with self._state:
            while self._active:
                self._state.wait()
            shard, self._shard = self._shard, None
        if shard is None:
            return
        try:
            with self._write_lock:
                # Vacuums deleted points when enough have piled up; cheap on plain segments. It writes new
                # segments, so not on a nearly full disk (the next close does it). Never on a graph shard: that
                # would rebuild the graph in this process (its next build vacuums it).
                if self._graph is None and shutil.disk_usage(self._path).free >= MIN_FREE_BYTES:
                    shard.optimize()
                shard.flush()
        except Exception as exc:
            raise StoreError(f"vector collection at {self._path}: flush on close failed: {exc}") from exc
        finally:
            shard.close()
            release(self._path)

    async def close(self) -> None:
        """Flushes and releases the shard; waits for calls still running. Safe to call twice."""
        await asyncio.to_thread(self._close_sync)
