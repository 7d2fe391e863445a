"""The Qdrant-server vector store, driven through qdrant-client's local mode (it speaks the same client API)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from qdrant_client import AsyncQdrantClient, models

from askvault.errors import StoreError
from askvault.model import SearchFilters
from askvault.store.vectors.qdrant_server import ServerVectorStore, server_collection
from tests.store.vector_cases import (
    DIM,
    FILTER_CASES,
    check_batch_equals_single_searches,
    check_equal_scores_in_chunk_id_order,
    check_search_is_exact,
    check_vectors_read_back,
    corpus,
    embed,
)

URL = "http://qdrant.test:6333"
COLLECTION = server_collection("vault-1a2b3c", "nomic-embed-text@64")


@pytest.fixture
async def store() -> AsyncIterator[ServerVectorStore]:
    opened = await ServerVectorStore.open(URL, COLLECTION, DIM, client=AsyncQdrantClient(location=":memory:"))
    yield opened
    await opened.close()


def test_collection_names_are_per_vault() -> None:
    assert server_collection("Notes-1a2b", "nomic-embed-text@768") == "askvault-Notes-1a2b-nomic-embed-text@768"
    assert server_collection("v", "hf.co/o/m:q4@8") == "askvault-v-hf.co%2Fo%2Fm%3Aq4@8"


@pytest.mark.parametrize("filters", FILTER_CASES)
async def test_search_is_exact_with_filters_inside(store: ServerVectorStore, filters: SearchFilters) -> None:
    chunks = corpus()
    await store.upsert(chunks, embed([c.index_text for c in chunks]))

    await check_search_is_exact(store, chunks, filters)


async def test_upsert_delete_ids_and_count(store: ServerVectorStore) -> None:
    chunks = corpus(300)
    await store.upsert(chunks, embed([c.index_text for c in chunks]))
    await store.upsert(chunks[:5], embed([c.index_text for c in chunks[:5]]))
    await store.delete([c.id for c in chunks[:10]] + ["never-stored"])

    assert store.kind == f"qdrant-server {URL}"
    assert await store.count() == 290
    assert await store.ids() == {c.id for c in chunks[10:]}
    assert await store.search(embed(["x"])[0], 0, SearchFilters()) == []


async def test_refresh_payload(store: ServerVectorStore) -> None:
    chunks = corpus(10)
    vectors = embed([c.index_text for c in chunks])
    await store.upsert(chunks, vectors)

    await store.refresh_payload([replace(chunks[2], tags=("fresh",))])

    assert [h.chunk_id for h in await store.search(vectors[2], 5, SearchFilters(tag="fresh"))] == [chunks[2].id]


async def test_wrong_vector_size_is_refused(store: ServerVectorStore) -> None:
    with pytest.raises(StoreError, match="holds 64-d vectors, got one with 2 values"):
        await store.upsert(corpus(1), [[1.0, 0.0]])


async def test_existing_collection_with_other_size_is_refused() -> None:
    client = AsyncQdrantClient(location=":memory:")
    await client.create_collection(COLLECTION, vectors_config=models.VectorParams(size=8, distance=models.Distance.DOT))

    with pytest.raises(StoreError, match=r"holds 8-d Dot vectors, not 64-d cosine"):
        await ServerVectorStore.open(URL, COLLECTION, DIM, client=client)


async def test_drop_deletes_the_collection() -> None:
    client = AsyncQdrantClient(location=":memory:")
    store = await ServerVectorStore.open(URL, COLLECTION, DIM, client=client)
    await store.upsert(corpus(3), embed([c.index_text for c in corpus(3)]))
    await store.drop()
    assert not await client.collection_exists(COLLECTION)
    await store.close()
    await store.close()


async def test_unreachable_server_names_the_url(closed_port_url: str) -> None:
    with pytest.raises(StoreError, match=rf"Qdrant is not reachable at {closed_port_url} \(collection lookup"):
        await ServerVectorStore.open(closed_port_url, COLLECTION, DIM, timeout_s=2)


async def test_vectors_read_back(store: ServerVectorStore) -> None:
    chunks = corpus(2100)  # more than one page of ids
    await store.upsert(chunks, embed([c.index_text for c in chunks]))

    await check_vectors_read_back(store, chunks)


@pytest.mark.parametrize("filters", FILTER_CASES)
async def test_search_batch_equals_single_searches(store: ServerVectorStore, filters: SearchFilters) -> None:
    chunks = corpus()
    await store.upsert(chunks, embed([c.index_text for c in chunks]))

    await check_batch_equals_single_searches(store, filters)


async def test_equal_scores_come_in_chunk_id_order(store: ServerVectorStore) -> None:
    await check_equal_scores_in_chunk_id_order(store)
