"""The vector store on a Qdrant server (`--qdrant-url`), through qdrant-client's AsyncQdrantClient.

Same payload, point ids and filter semantics as the embedded store. The caller names the collection and
must make it unique per vault (a server is shared; see `server_collection`).
"""

from __future__ import annotations

import warnings
from collections.abc import Awaitable, Sequence
from typing import TypeVar, cast

import httpx
from qdrant_client import AsyncQdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from askvault.errors import StoreError
from askvault.model import Chunk, RankedId, SearchFilters
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

_BATCH = 256
_SCROLL_PAGE = 2048


def server_collection(vault_id: str, collection: str) -> str:
    """`askvault-<vault>-<collection>`: vaults sharing one server never share a collection."""
    return storage_name(f"askvault-{vault_id}-{collection}")


def server_filter(filters: SearchFilters) -> models.Filter | None:
    terms = filter_terms(filters)
    must: list[models.Condition] = []
    if terms.folder is not None:
        must.append(models.FieldCondition(key=FOLDERS, match=models.MatchValue(value=terms.folder)))
    if terms.tag is not None:
        must.append(models.FieldCondition(key=TAGS, match=models.MatchValue(value=terms.tag)))
    if terms.mtime_gte is not None or terms.mtime_lte is not None:
        must.append(models.FieldCondition(key=MTIME, range=models.Range(gte=terms.mtime_gte, lte=terms.mtime_lte)))
    return models.Filter(must=must) if must else None


class ServerVectorStore:
    """askvault.store.protocol.VectorStore on a Qdrant server. Create with `await open(...)`; owns its client."""

    def __init__(self, client: AsyncQdrantClient, url: str, collection: str, dim: int) -> None:
        self._client = client
        self._url = url
        self._collection = collection
        self._dim = dim
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        collection: str,
        dim: int,
        *,
        client: AsyncQdrantClient | None = None,
        api_key: str | None = None,
        timeout_s: int = 10,
    ) -> ServerVectorStore:
        """Connects, creates the collection (cosine, payload indexes) when missing, checks its vector size.

        `client` lets tests pass `AsyncQdrantClient(location=":memory:")`; the store closes it either way.
        """
        if dim <= 0:
            raise ValueError(f"vector dimension must be positive, not {dim}")
        if client is None:
            # No compatibility probe: it runs in a background thread and prints its own traceback.
            client = AsyncQdrantClient(url=url, api_key=api_key, timeout=timeout_s, check_compatibility=False)
        store = cls(client, url, collection, dim)
        try:
            await store._prepare()
        except BaseException:
            await store.close()
            raise
        return store

    async def _call(self, action: str, pending: Awaitable[T]) -> T:
        try:
            return await pending
        except UnexpectedResponse as exc:
            reason = exc.content.decode("utf-8", "replace")[:300]
            raise StoreError(f"Qdrant at {self._url} refused {action} (HTTP {exc.status_code}): {reason}") from exc
        except (ResponseHandlingException, httpx.HTTPError, OSError) as exc:
            raise StoreError(
                f"Qdrant is not reachable at {self._url} ({action}: {exc}); start it or drop --qdrant-url"
            ) from exc
        except (ValueError, KeyError, AssertionError) as exc:
            raise StoreError(f"Qdrant at {self._url}: {action} failed: {exc}") from exc

    async def _prepare(self) -> None:
        name = self._collection
        if not await self._call("collection lookup", self._client.collection_exists(name)):
            params = models.VectorParams(size=self._dim, distance=models.Distance.COSINE)
            await self._call("collection create", self._client.create_collection(name, vectors_config=params))
        info = await self._call("collection info", self._client.get_collection(name))
        vectors = info.config.params.vectors
        size = vectors.size if isinstance(vectors, models.VectorParams) else None
        distance = vectors.distance if isinstance(vectors, models.VectorParams) else None
        if size != self._dim or distance != models.Distance.COSINE:
            raise StoreError(
                f"Qdrant collection {name!r} at {self._url} holds {size}-d {distance} vectors, "
                f"not {self._dim}-d cosine; drop it to rebuild"
            )
        schema: dict[str, models.PayloadSchemaType] = {
            **dict.fromkeys(KEYWORD_FIELDS, models.PayloadSchemaType.KEYWORD),
            MTIME: models.PayloadSchemaType.FLOAT,
        }
        for field, kind in schema.items():
            if field in info.payload_schema:
                continue
            with warnings.catch_warnings():
                # Local mode (tests) says payload indexes have no effect there; a server uses them.
                warnings.filterwarnings("ignore", message="Payload indexes have no effect", category=UserWarning)
                await self._call("payload index", self._client.create_payload_index(name, field, kind, wait=True))

    @property
    def kind(self) -> str:
        return f"qdrant-server {self._url}"

    @property
    def collection(self) -> str:
        return self._collection

    async def upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_upsert(chunks, vectors, self._dim, f"Qdrant collection {self._collection!r}")
        for start in range(0, len(chunks), _BATCH):
            points = [
                models.PointStruct(id=point_id(c.id), vector=[float(x) for x in v], payload=chunk_payload(c))
                for c, v in zip(chunks[start : start + _BATCH], vectors[start : start + _BATCH], strict=True)
            ]
            await self._call("upsert", self._client.upsert(self._collection, points=points, wait=True))

    async def delete(self, chunk_ids: Sequence[str]) -> None:
        for start in range(0, len(chunk_ids), _BATCH):
            ids: list[models.ExtendedPointId] = [point_id(c) for c in chunk_ids[start : start + _BATCH]]
            selector = models.PointIdsList(points=ids)
            await self._call("delete", self._client.delete(self._collection, points_selector=selector, wait=True))

    async def refresh_payload(self, chunks: Sequence[Chunk]) -> None:
        """Rewrites path/tags/mtime of chunks whose text (and so vector) did not change."""
        for start in range(0, len(chunks), _BATCH):
            operations: list[models.UpdateOperation] = [
                models.SetPayloadOperation(
                    set_payload=models.SetPayload(payload=chunk_payload(c), points=[point_id(c.id)])
                )
                for c in chunks[start : start + _BATCH]
            ]
            await self._call(
                "payload update", self._client.batch_update_points(self._collection, operations, wait=True)
            )

    async def search(self, vector: Sequence[float], limit: int, filters: SearchFilters) -> list[RankedId]:
        if limit <= 0:
            return []
        check_dims([vector], self._dim, f"Qdrant collection {self._collection!r}")
        response = await self._call(
            "search",
            self._client.query_points(
                self._collection,
                query=[float(x) for x in vector],
                query_filter=server_filter(filters),
                limit=limit,
                with_payload=[CHUNK_ID],
                with_vectors=False,
            ),
        )
        return ranked_ids(response.points)

    async def search_batch(
        self, vectors: Sequence[Sequence[float]], limit: int, filters: SearchFilters
    ) -> list[list[RankedId]]:
        if limit <= 0 or not vectors:
            return [[] for _ in vectors]
        check_dims(vectors, self._dim, f"Qdrant collection {self._collection!r}")
        requests = [
            models.QueryRequest(
                query=[float(x) for x in vector], filter=server_filter(filters), limit=limit, with_payload=[CHUNK_ID]
            )
            for vector in vectors
        ]
        answers = await self._call("search", self._client.query_batch_points(self._collection, requests=requests))
        return [ranked_ids(answer.points) for answer in answers]

    async def ids(self) -> set[str]:
        found: set[str] = set()
        offset: models.ExtendedPointId | None = None
        while True:
            records, offset = await self._call(
                "listing ids",
                self._client.scroll(
                    self._collection, limit=_SCROLL_PAGE, offset=offset, with_payload=[CHUNK_ID], with_vectors=False
                ),
            )
            found.update(str((r.payload or {})[CHUNK_ID]) for r in records)
            if offset is None:
                return found

    async def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        for start in range(0, len(chunk_ids), _SCROLL_PAGE):
            ids: list[models.ExtendedPointId] = [point_id(c) for c in chunk_ids[start : start + _SCROLL_PAGE]]
            records = await self._call(
                "reading vectors",
                self._client.retrieve(self._collection, ids, with_payload=[CHUNK_ID], with_vectors=True),
            )
            for record in records:
                if isinstance(record.vector, list) and record.payload:
                    found[str(record.payload[CHUNK_ID])] = [float(x) for x in cast(list[float], record.vector)]
        return found

    async def count(self) -> int:
        result = await self._call("count", self._client.count(self._collection, exact=True))
        return result.count

    async def drop(self) -> None:
        """Deletes the whole collection on the server (switching embedders)."""
        await self._call("collection delete", self._client.delete_collection(self._collection))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._client.close()
