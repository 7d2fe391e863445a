"""The embedded vector store on the real qdrant-edge engine in a temp dir."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from askvault.errors import StoreError
from askvault.model import SearchFilters
from askvault.store.vectors.edge_collections import drop_collection, list_collections
from askvault.store.vectors.payload import storage_name
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
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

COLLECTION = "nomic-embed-text@64"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EdgeVectorStore]:
    opened = await EdgeVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    yield opened
    await opened.close()


async def fill(store: EdgeVectorStore, n: int = 150) -> None:
    chunks = corpus(n)
    await store.upsert(chunks, embed([c.index_text for c in chunks]))


@pytest.mark.parametrize("filters", FILTER_CASES)
async def test_search_is_exact_with_filters_inside(store: EdgeVectorStore, filters: SearchFilters) -> None:
    await fill(store)
    await check_search_is_exact(store, corpus(), filters)


async def test_kind_and_nearest_is_itself(store: EdgeVectorStore) -> None:
    chunks = corpus(30)
    vectors = embed([c.index_text for c in chunks])
    await store.upsert(chunks, vectors)

    best = await store.search(vectors[7], 3, SearchFilters())

    assert store.kind == "qdrant-edge (embedded)"
    assert best[0].chunk_id == chunks[7].id
    assert best[0].score == pytest.approx(1.0, abs=1e-5)
    assert await store.search(vectors[7], 0, SearchFilters()) == []


async def test_upsert_replaces_and_delete_removes(store: EdgeVectorStore) -> None:
    chunks = corpus(20)
    await store.upsert(chunks, embed([c.index_text for c in chunks]))
    await store.upsert(chunks[:5], embed([c.index_text for c in chunks[:5]]))
    assert await store.count() == 20

    await store.delete([chunks[0].id, chunks[1].id, "never-stored"])
    await store.delete([])

    assert await store.ids() == {c.id for c in chunks[2:]}


async def test_ids_pages_through_everything(store: EdgeVectorStore) -> None:
    chunks = corpus(2600)
    await store.upsert(chunks, embed([c.index_text for c in chunks]))

    assert await store.ids() == {c.id for c in chunks}


async def test_refresh_payload_moves_a_chunk_between_filters(store: EdgeVectorStore) -> None:
    chunks = corpus(10)
    vectors = embed([c.index_text for c in chunks])
    await store.upsert(chunks, vectors)
    late = SearchFilters(modified_after=2_000_000_000.0)
    assert await store.search(vectors[3], 5, late) == []

    await store.refresh_payload([replace(chunks[3], mtime=2_100_000_000.0, tags=("fresh",))])

    assert [h.chunk_id for h in await store.search(vectors[3], 5, late)] == [chunks[3].id]
    assert [h.chunk_id for h in await store.search(vectors[3], 5, SearchFilters(tag="fresh"))] == [chunks[3].id]


async def test_wrong_vector_size_is_refused(store: EdgeVectorStore) -> None:
    chunks = corpus(2)
    with pytest.raises(StoreError, match="holds 64-d vectors, got one with 3 values"):
        await store.upsert(chunks, [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    with pytest.raises(StoreError, match="holds 64-d vectors"):
        await store.search([1.0, 0.0], 5, SearchFilters())


async def test_reopen_after_close_keeps_everything(tmp_path: Path) -> None:
    chunks = corpus(200)
    vectors = embed([c.index_text for c in chunks])
    store = await EdgeVectorStore.open(tmp_path, COLLECTION, DIM)
    await store.upsert(chunks, vectors)
    await store.delete([c.id for c in chunks[:50]])
    before = await store.search(vectors[60], 10, SearchFilters(folder="Homelab"))
    await store.close()
    await store.close()

    again = await EdgeVectorStore.open(tmp_path, COLLECTION, DIM)
    try:
        assert await again.ids() == {c.id for c in chunks[50:]}
        assert await again.search(vectors[60], 10, SearchFilters(folder="Homelab")) == before
    finally:
        await again.close()


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        env={"PYTHONPATH": f"{REPO / 'backend'}:{REPO}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_writes_survive_a_crash(tmp_path: Path) -> None:
    crashed = run_python(
        f"""
        import asyncio, os
        from pathlib import Path
        from askvault.store.vectors.qdrant_edge import EdgeVectorStore
        from tests.store.vector_cases import corpus, embed

        async def main():
            store = await EdgeVectorStore.open(Path({str(tmp_path)!r}), {COLLECTION!r}, {DIM})
            chunks = corpus(120)
            await store.upsert(chunks, embed([c.index_text for c in chunks]))
            await store.delete([chunks[0].id])
            os._exit(3)  # no close, no flush: the write-ahead log must carry the writes

        asyncio.run(main())
        """
    )
    assert crashed.returncode == 3, crashed.stderr

    store = await EdgeVectorStore.open(tmp_path, COLLECTION, DIM)
    try:
        assert await store.ids() == {c.id for c in corpus(120)[1:]}
    finally:
        await store.close()


async def test_a_second_opener_is_refused(store: EdgeVectorStore, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="already open in this process"):
        await EdgeVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)

    other = run_python(
        f"""
        import asyncio
        from pathlib import Path
        from askvault.errors import StoreError
        from askvault.store.vectors.qdrant_edge import EdgeVectorStore
        try:
            asyncio.run(EdgeVectorStore.open(Path({str(tmp_path / "vectors")!r}), {COLLECTION!r}, {DIM}))
        except StoreError as exc:
            print(exc.message)
        """
    )
    assert "open in another process" in other.stdout, other.stderr


async def test_other_dimension_is_refused(tmp_path: Path) -> None:
    await (await EdgeVectorStore.open(tmp_path, COLLECTION, DIM)).close()

    with pytest.raises(StoreError, match="does not hold 32-d cosine vectors"):
        await EdgeVectorStore.open(tmp_path, COLLECTION, 32)
    # The failed open released the folder: the right dimension opens fine.
    await (await EdgeVectorStore.open(tmp_path, COLLECTION, DIM)).close()


async def test_closed_store_refuses_calls_and_close_waits_for_searches(tmp_path: Path) -> None:
    store = await EdgeVectorStore.open(tmp_path, COLLECTION, DIM)
    await fill(store)
    query = embed(["postgres port"])[0]

    searches = [store.search(query, 5, SearchFilters()) for _ in range(20)]
    *results, closed = await asyncio.gather(*searches, store.close(), return_exceptions=True)

    # Each search either ran in full or was refused cleanly; none hit a half-closed engine.
    assert closed is None
    for result in results:
        assert (isinstance(result, list) and len(result) == 5) or (
            isinstance(result, StoreError) and result.message.endswith("is closed")
        ), result
    with pytest.raises(StoreError, match="is closed"):
        await store.search(query, 5, SearchFilters())


async def test_a_search_runs_on_the_loop_but_waits_out_a_swap_in_a_thread(store: EdgeVectorStore) -> None:
    await fill(store)
    query = embed(["postgres port"])[0]
    expected = await store.search(query, 5, SearchFilters())  # no swap: on the calling thread
    with store._state:
        store._swapping = True  # what `_swap_in` sets while it replaces the shard
    waiting = asyncio.ensure_future(store.search(query, 5, SearchFilters()))
    ticks = 0
    for _ in range(20):  # the loop keeps running while the search waits
        await asyncio.sleep(0.005)
        ticks += 1
    assert not waiting.done()
    assert ticks == 20
    with store._state:
        store._swapping = False
        store._state.notify_all()
    assert await asyncio.wait_for(waiting, 10) == expected


def folder_names(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir())


async def test_list_and_drop_collections(tmp_path: Path) -> None:
    names = ["nomic-embed-text@768", "hf.co/org/model:q4@384", ".hidden@8"]
    for name in names:
        await (await EdgeVectorStore.open(tmp_path, name, 8)).close()
    open_one = await EdgeVectorStore.open(tmp_path, "all-minilm@8", 8)
    try:
        assert list_collections(tmp_path) == sorted([*names, "all-minilm@8"])
        assert folder_names(tmp_path) == sorted(storage_name(n) for n in [*names, "all-minilm@8"])
        with pytest.raises(StoreError, match="close it before dropping it"):
            drop_collection(tmp_path, "all-minilm@8")
        assert drop_collection(tmp_path, "hf.co/org/model:q4@384") is True
        assert drop_collection(tmp_path, "hf.co/org/model:q4@384") is False
        assert list_collections(tmp_path) == sorted(["nomic-embed-text@768", ".hidden@8", "all-minilm@8"])
    finally:
        await open_one.close()
    assert list_collections(tmp_path / "nothing-here") == []


async def test_vectors_read_back(store: EdgeVectorStore) -> None:
    chunks = corpus(2100)  # more than one page of ids
    await store.upsert(chunks, embed([c.index_text for c in chunks]))

    await check_vectors_read_back(store, chunks)


@pytest.mark.parametrize("filters", FILTER_CASES)
async def test_search_batch_equals_single_searches(store: EdgeVectorStore, filters: SearchFilters) -> None:
    chunks = corpus()
    await store.upsert(chunks, embed([c.index_text for c in chunks]))

    await check_batch_equals_single_searches(store, filters)


async def test_equal_scores_come_in_chunk_id_order(store: EdgeVectorStore) -> None:
    await check_equal_scores_in_chunk_id_order(store)
