"""The embedded store's HNSW graph on the real engine: built by a child on a copy, swapped in, writes kept."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from qdrant_edge import EdgeShard, PayloadSchemaType, Point, UpdateOperation

from askvault.model import SearchFilters
from askvault.store.vectors.edge_build import (
    MARKER,
    RETIRED,
    SEGMENTS,
    STAGING,
    build_here,
    needs_graph,
    read_graph,
    read_marker,
    recover,
)
from askvault.store.vectors.edge_graph import GraphParams, graph_config, plain_config, search_params
from askvault.store.vectors.edge_graph_store import GraphVectorStore
from tests.store.vector_cases import DIM, FILTER_CASES, check_search_is_exact, check_vectors_read_back, corpus, embed

pytestmark = pytest.mark.slow

COLLECTION = "nomic-embed-text@64"
SMALL = GraphParams(min_points=100, m=8, ef_construct=32, ef=64)
"""A graph from 100 points, so a test vault gets one in a second."""
SEGMENTED = replace(SMALL, segment_points=60)
"""150 points are built as three graph segments of 50."""


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[GraphVectorStore]:
    opened = await GraphVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    opened.wanted = SMALL
    yield opened
    await opened.close()


async def fill(store: GraphVectorStore, n: int) -> None:
    chunks = corpus(n)
    await store.upsert(chunks, embed([c.index_text for c in chunks]))


@pytest.mark.parametrize(
    ("points", "indexed", "graph", "wanted", "due"),
    [
        (99, 0, None, SMALL, False),
        (100, 0, None, SMALL, True),
        (1_000, 950, SMALL, SMALL, False),
        (1_000, 899, SMALL, SMALL, True),
        (10**6, 0, None, None, False),
    ],
    ids=["below-threshold", "at-threshold", "graph-covers-most", "too-much-outside-the-graph", "graphs-off"],
)
def test_when_a_graph_is_due(
    points: int, indexed: int, graph: GraphParams | None, wanted: GraphParams | None, due: bool
) -> None:
    assert needs_graph(points, indexed, graph, wanted) is due


async def test_a_small_shard_stays_exact(store: GraphVectorStore) -> None:
    await fill(store, 60)

    assert await store.ensure_graph() is False
    assert store.graph_state == "none"
    await check_search_is_exact(store, corpus(60), SearchFilters())


@pytest.mark.parametrize("wanted", [SMALL, SEGMENTED], ids=["one-graph", "segment-by-segment"])
async def test_graph_is_built_off_process_and_keeps_the_writes_made_meanwhile(
    store: GraphVectorStore, wanted: GraphParams
) -> None:
    store.wanted = wanted
    chunks = corpus(150)
    vectors = embed([c.index_text for c in chunks])
    await store.upsert(chunks[:120], vectors[:120])

    assert await store.ensure_graph() is True
    assert store.graph_state in ("building", "ready")  # "ready" only if the child already finished
    # Searches and writes go on during the build; whether they land before or after the copy, none is lost.
    for _ in range(200):
        if store._journal is not None:
            break
        await asyncio.sleep(0.01)
    await store.upsert(chunks[120:], vectors[120:])
    await store.delete([chunks[0].id, chunks[1].id])
    changed = replace(chunks[2], tags=("moved",))
    await store.refresh_payload([changed])
    during = await store.search(vectors[5], 3, SearchFilters())
    assert during[0].chunk_id == chunks[5].id

    assert await store.wait_graph() is True

    assert store.graph_state == "ready"
    assert read_marker(store.path) == wanted
    await check_payload_indexes_on_disk(store)
    assert not store.path.with_name(store.path.name + STAGING).exists()
    assert await store.ids() == {c.id for c in chunks[2:]}
    assert (await store.search(vectors[130], 1, SearchFilters()))[0].chunk_id == chunks[130].id
    assert [r.chunk_id for r in await store.search(vectors[2], 1, SearchFilters(tag="moved"))] == [chunks[2].id]
    for removed in (vectors[0], vectors[1]):
        assert {r.chunk_id for r in await store.search(removed, 148, SearchFilters())}.isdisjoint(
            {chunks[0].id, chunks[1].id}
        )


async def test_a_graph_shard_answers_filtered_searches_exactly(store: GraphVectorStore) -> None:
    await fill(store, 150)
    await store.ensure_graph()
    assert await store.wait_graph()

    for case in FILTER_CASES:
        filters = case.values[0]
        assert isinstance(filters, SearchFilters)
        if not filters.is_empty():  # the graph answers only unfiltered searches
            await check_search_is_exact(store, corpus(150), filters)


async def test_the_graph_survives_a_reopen(tmp_path: Path) -> None:
    first = await GraphVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    first.wanted = SMALL
    await fill(first, 150)
    await first.ensure_graph()
    assert await first.wait_graph()
    await first.close()

    again = await GraphVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    try:
        assert again.graph_state == "ready"
        assert await again.count() == 150
        vector = embed([corpus(150)[42].index_text])[0]
        assert (await again.search(vector, 1, SearchFilters()))[0].chunk_id == corpus(150)[42].id
        again.wanted = SMALL
        assert await again.ensure_graph() is False  # the graph covers everything: nothing to rebuild
    finally:
        await again.close()


async def test_closing_during_a_build_cancels_it_and_leaves_the_shard_as_it_was(tmp_path: Path) -> None:
    store = await GraphVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    store.wanted = SMALL
    await fill(store, 150)
    await store.ensure_graph()
    await store.close()

    assert not store.path.with_name(store.path.name + STAGING).exists()
    again = await GraphVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    try:
        assert again.graph_state in ("none", "ready")  # cancelled before the swap, or just after it
        assert await again.count() == 150
    finally:
        await again.close()


@pytest.mark.parametrize(
    ("points", "segments"),
    [(0, 1), (60, 1), (61, 2), (150, 3), (181, 4)],
    ids=["empty", "one-full-segment", "one-point-over", "three", "four"],
)
def test_how_many_graph_segments_a_shard_is_built_in(points: int, segments: int) -> None:
    assert SEGMENTED.segments(points) == segments


async def check_payload_indexes_on_disk(store: GraphVectorStore) -> None:
    """The folders, tags and mtime indexes of a graph shard are memory-mapped, not held in memory."""
    info = await asyncio.to_thread(store._run, "info", lambda shard: shard.info())
    on_disk = {field: getattr(index.params, "on_disk", None) for field, index in info.payload_schema.items()}
    assert on_disk == {"folders": True, "tags": True, "mtime": True}


@pytest.mark.parametrize(
    ("segments", "filtered", "ef"),
    [(1, False, 512), (3, False, 256), (3, True, None), (1, True, None)],
    ids=["one-graph", "segmented", "filtered-segmented-exact", "filtered-exact"],
)
def test_the_search_ef_follows_the_segment_count(segments: int, filtered: bool, ef: int | None) -> None:
    params = search_params(GraphParams(ef=512, segment_ef=256), filtered=filtered, segments=segments)
    assert params.hnsw_ef == ef
    assert params.exact is filtered


@pytest.mark.parametrize(
    ("marker", "segments"),
    [(None, 1), ("{}", 1), ("not json", 1), ('{"params": {"segment_points": 60}}', 1),
     ('{"params": {"segment_points": 60}, "points": 150}', 3), ('{"params": {"segment_points": 60}, "points": 60}', 1)],
    ids=["no-marker", "empty", "garbled", "no-points", "three", "one"],
)  # fmt: skip
def test_read_graph_counts_the_segments_from_the_marker(tmp_path: Path, marker: str | None, segments: int) -> None:
    if marker is not None:
        (tmp_path / MARKER).write_text(marker, encoding="utf-8")
    params, counted = read_graph(tmp_path)
    assert counted == segments
    assert (params is None) == (marker is None or '"params"' not in marker)


async def test_a_big_shard_is_rewritten_one_graph_segment_at_a_time(tmp_path: Path) -> None:
    chunks = corpus(150)
    vectors = embed([c.index_text for c in chunks])
    store = await GraphVectorStore.open(tmp_path / "vectors", COLLECTION, DIM)
    store.wanted = SEGMENTED
    try:
        await store.upsert(chunks, vectors)
        await store.delete([chunks[0].id])  # a deleted point is not carried over
        assert await store.ensure_graph() is True
        assert await store.wait_graph() is True
        info = await asyncio.to_thread(store._run, "info", lambda shard: shard.info())
        assert (info.points_count, info.indexed_vectors_count) == (149, 149)  # every point in some graph
        assert info.segments_count == 4  # three graph segments and the empty one writes go to
        assert set(info.payload_schema) == {"folders", "tags", "mtime"}
        await check_payload_indexes_on_disk(store)
        assert read_marker(store.path) == SEGMENTED
        assert read_graph(store.path) == (SEGMENTED, 3)
        assert store._segments == 3  # its searches use `segment_ef`
        assert not any(p.name.endswith((STAGING, SEGMENTS)) for p in store.path.parent.iterdir())
        await check_search_is_exact(store, chunks[1:], SearchFilters())  # ef 64 > 50: each graph in full
        for case in FILTER_CASES:
            filters = case.values[0]
            assert isinstance(filters, SearchFilters)
            await check_search_is_exact(store, chunks[1:], filters)
        await check_vectors_read_back(store, chunks[1:])  # carried over as they were
        assert await store.ensure_graph() is False  # covered: nothing to rebuild
    finally:
        await store.close()


def test_a_rewrite_puts_an_older_shards_payload_indexes_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "shard"
    shard = EdgeShard.create(str(path), plain_config(DIM))
    for field in ("folders", "tags"):
        shard.update(UpdateOperation.create_field_index(field, PayloadSchemaType.Keyword))  # in memory, as before
    shard.update(UpdateOperation.create_field_index("mtime", PayloadSchemaType.Float))
    vectors = embed([c.index_text for c in corpus(150)])
    shard.update(UpdateOperation.upsert_points([Point(i, v, {"folders": ["a"]}) for i, v in enumerate(vectors)]))
    shard.flush()
    shard.close()
    assert build_here(path, DIM, SEGMENTED) == 150
    shard = EdgeShard.load(str(path), graph_config(DIM, SEGMENTED, build=False, segmented=True))
    try:
        schema = shard.info().payload_schema
    finally:
        shard.close()
    assert {field: getattr(index.params, "on_disk", None) for field, index in schema.items()} == {
        "folders": True,
        "tags": True,
        "mtime": True,
    }


def test_recover_finishes_or_undoes_an_interrupted_swap(tmp_path: Path) -> None:
    path = tmp_path / "shard"
    retired = path.with_name(path.name + RETIRED)
    staging = path.with_name(path.name + STAGING)

    segments = staging.with_name(staging.name + SEGMENTS)
    retired.mkdir()  # moved away, the new one never arrived: the old one comes back
    (retired / MARKER).write_text("{}", encoding="utf-8")
    staging.mkdir()
    segments.mkdir()  # a segment-by-segment build killed half way
    recover(path)
    assert (path / MARKER).is_file()
    assert not retired.exists()
    assert not staging.exists()
    assert not segments.exists()

    retired.mkdir()  # the swap was done, only the cleanup was not
    recover(path)
    assert path.is_dir()
    assert not retired.exists()
