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
from typing import Self, TypeVar, cast

from qdrant_edge import (
    Distance,
    EdgeConfig,
    EdgeOptimizersConfig,
    EdgeShard,
    EdgeVectorParams,
    FieldCondition,
    Filter,
    MatchValue,
    PayloadSchemaType,
    Point,
    Query,
    QueryBatchRequest,
    QueryRequest,
    RangeFloat,
    ScoredPoint,
    ScrollRequest,
    UpdateOperation,
)

from askvault.errors import StoreError
from askvault.model import Chunk, RankedId, SearchFilters
from askvault.store.vectors.edge_build import read_graph, recover, shard_config
from askvault.store.vectors.edge_collections import CONFIG_FILE, claim, release
from askvault.store.vectors.edge_graph import payload_index, search_params
from askvault.store.vectors.payload import (
    CHUNK_ID,
    FOLDERS,
    KEYWORD_FIELDS,
    MTIME,
    TAGS,
    check_dims,
    check_upsert,
    chunk_payload,
    filter_terms,
    point_id,
    ranked_ids,
    storage_name,
)

T = TypeVar("T")

MIN_FREE_BYTES = 64 * 1024 * 1024
"""The engine writes through memory-mapped, preallocated 32 MiB WAL segments: on a full disk such a write kills
the whole process with SIGBUS instead of failing. Below this much free space writes are refused with a
StoreError (dense search turns off with that sentence; the manifest and keyword search carry on)."""
_UPSERT_BATCH = 256
_FILTERED = (FOLDERS, TAGS)
"""The keyword fields filters match (with the float `mtime`): `chunk_id` and `path` are only read back, and an
index on them would hold every chunk's id and path in memory (≈ 1 KB a point together, 1 GB at a million)."""
_SCROLL_PAGE = 2048


def _config(dim: int) -> EdgeConfig:
    # indexing_threshold=0 keeps segments plain: `optimize` then only vacuums deleted points and never
    # spends seconds building an HNSW graph that exact search does not need.
    return EdgeConfig(
        vectors=EdgeVectorParams(size=dim, distance=Distance.Cosine),
        optimizers=EdgeOptimizersConfig(indexing_threshold=0),
    )


def _check_free_space(path: Path) -> None:
    where = next((p for p in (path, *path.parents) if p.exists()), path)
    try:
        free = shutil.disk_usage(where).free
    except OSError:
        return
    if free < MIN_FREE_BYTES:
        raise StoreError(
            f"the disk holding the vector store is nearly full ({free // 2**20} MiB free, "
            f"{MIN_FREE_BYTES // 2**20} MiB needed); free some space, then reindex"
        )


def _describe(exc: Exception) -> str:
    text = str(exc)
    if "WouldBlock" in text:
        return "it is open in another process (is another Ask Vault running on this vault?)"
    return text


def edge_filter(filters: SearchFilters) -> Filter | None:
    terms = filter_terms(filters)
    must: list[FieldCondition] = []
    if terms.folder is not None:
        must.append(FieldCondition(FOLDERS, match=MatchValue(terms.folder)))
    if terms.tag is not None:
        must.append(FieldCondition(TAGS, match=MatchValue(terms.tag)))
    if terms.mtime_gte is not None or terms.mtime_lte is not None:
        must.append(FieldCondition(MTIME, range=RangeFloat(gte=terms.mtime_gte, lte=terms.mtime_lte)))
    return Filter(must=list(must)) if must else None


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
            shard = await asyncio.to_thread(cls._load_or_create, path, collection, dim)
        except BaseException:
            release(path)
            raise
        return cls(shard, path, collection, dim)

    @staticmethod
    def _load_or_create(path: Path, collection: str, dim: int) -> EdgeShard:
        _check_free_space(path)
        recover(path)
        exists = (path / CONFIG_FILE).is_file()
        try:
            if exists:
                shard = EdgeShard.load(str(path), shard_config(path, dim))
            else:
                path.mkdir(parents=True, exist_ok=True)
                shard = EdgeShard.create(str(path), _config(dim))
        except Exception as exc:
            if "incompatible" in str(exc).lower():
                raise StoreError(
                    f"vector collection {collection!r} at {path} does not hold {dim}-d cosine vectors "
                    f"({exc}); drop it to rebuild"
                ) from exc
            raise StoreError(f"cannot open vector collection {collection!r} at {path}: {_describe(exc)}") from exc
        try:
            indexed = set(shard.info().payload_schema)
            for field in _FILTERED:
                if field not in indexed:
                    shard.update(UpdateOperation.create_field_index(field, payload_index(PayloadSchemaType.Keyword)))
            for field in set(KEYWORD_FIELDS) - set(_FILTERED):
                if field in indexed:  # made by earlier versions; never matched, ~0.5 KB a point each
                    shard.update(UpdateOperation.delete_field_index(field))
            if MTIME not in indexed:
                shard.update(UpdateOperation.create_field_index(MTIME, payload_index(PayloadSchemaType.Float)))
        except Exception as exc:
            shard.close()
            raise StoreError(f"cannot index payload of vector collection at {path}: {exc}") from exc
        return shard

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
                _check_free_space(self._path)
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
                f"vector collection {self._collection!r} at {self._path}: {action} failed: {_describe(exc)}"
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

    def _request(self, vector: Sequence[float], limit: int, filters: SearchFilters) -> QueryRequest:
        where = edge_filter(filters)
        return QueryRequest(
            limit=limit,
            query=Query.Nearest([float(x) for x in vector]),
            filter=where,
            with_payload=[CHUNK_ID],
            with_vector=False,
            params=search_params(self._graph, filtered=where is not None, segments=self._segments),
        )

    async def search(self, vector: Sequence[float], limit: int, filters: SearchFilters) -> list[RankedId]:
        if limit <= 0:
            return []
        check_dims([vector], self._dim, f"vector collection {self._collection!r}")
        request = self._request(vector, limit, filters)

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
        batch = QueryBatchRequest([self._request(vector, limit, filters) for vector in vectors])
        answers = await asyncio.to_thread(self._run, "search", lambda shard: shard.query_batch(batch))
        return [ranked_ids(points) for points in answers]

    async def ids(self) -> set[str]:
        def scan(shard: EdgeShard) -> set[str]:
            found: set[str] = set()
            offset: str | int | None = None
            while True:
                records, next_offset = shard.scroll(
                    ScrollRequest(offset=offset, limit=_SCROLL_PAGE, with_payload=[CHUNK_ID], with_vector=False)
                )
                found.update(str((r.payload or {})[CHUNK_ID]) for r in records)
                if next_offset is None:
                    return found
                offset = str(next_offset)

        return await asyncio.to_thread(self._run, "listing ids", scan)

    async def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        if not chunk_ids:
            return {}
        ids: list[str | int | uuid.UUID] = [point_id(chunk_id) for chunk_id in chunk_ids]

        def read(shard: EdgeShard) -> dict[str, list[float]]:
            found: dict[str, list[float]] = {}
            for start in range(0, len(ids), _SCROLL_PAGE):
                for record in shard.retrieve(ids[start : start + _SCROLL_PAGE], [CHUNK_ID], True):
                    vector = record.vector
                    if isinstance(vector, list) and record.payload:
                        found[str(record.payload[CHUNK_ID])] = cast(list[float], vector)
            return found

        return await asyncio.to_thread(self._run, "reading vectors", read)

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
