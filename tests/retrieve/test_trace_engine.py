"""The search trace on the real engine: a traced search returns exactly what an untraced one does, and the trace
holds the legs' whole lists, the fused ranking past the cut, what privacy hid and the traced note's terms."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.model import SearchFilters, SearchMode, SearchResult
from askvault.retrieve.hybrid import HybridSearcher
from askvault.retrieve.trace import SearchTrace
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paragraph, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

NOTES: dict[str, str | bytes] = {
    "Homelab/Kodi.md": (
        f"# Kodi\n\n## Setup\n\nKodi runs on the living-room box. {paragraph('setup')}\n\n"
        f"## Maintenance\n\nClear the Kodi thumbnail cache every few months. {paragraph('cache')}\n"
    ),
    "Homelab/NAS.md": "# NAS\n\nScrub the pool monthly as routine maintenance.\n",
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433; vacuum is maintenance too.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun and deep pots.\n",
    "Journal/2024-03-06/Balcony.md": "# Balcony\n\nPlanted tomatoes on the balcony.\n",  # dated by its folder
    **{
        f"Work/Task{i:02}.md": f"# Task {i}\n\nMaintenance task {i} for the box. {paragraph(f't{i}', 12)}\n"
        for i in range(12)
    },
}
QUERIES = [
    ("kodi maintenance", "hybrid", 3, None),
    ("kodi maintenance", "hybrid", 50, None),
    ("kodi maintenance", "dense", 4, None),
    ("kodi maintenance", "keyword", 4, None),
    ("maintenance", "hybrid", 5, SearchFilters(folder="Work/")),
    ("port 5433", "hybrid", 2, None),
    ("tomatoes in March 2024", "hybrid", 3, None),
    ("kodi in March 2024", "keyword", 3, None),
]
QUERY_IDS = [f"{q}-{m}-{k}" for q, m, k, _ in QUERIES]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("trace")
    write_notes(root / "vault", NOTES)
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


def _same(a: SearchResult, b: SearchResult) -> None:
    assert a.hits == b.hits
    assert (a.query, a.mode, a.terms, a.counts, a.dense_available) == (
        b.query,
        b.mode,
        b.terms,
        b.counts,
        b.dense_available,
    )
    assert a.date_scope == b.date_scope
    assert set(a.timings.to_json()) == set(b.timings.to_json())


@pytest.mark.parametrize(("query", "mode", "k", "filters"), QUERIES, ids=QUERY_IDS)
async def test_a_traced_search_is_the_same_search(
    engine: Engine, query: str, mode: SearchMode, k: int, filters: SearchFilters | None
) -> None:
    plain = await engine.searcher.search(query, k, mode, filters)
    trace = SearchTrace(note="Homelab/Kodi.md")
    traced = await engine.searcher.search(query, k, mode, filters, trace)

    _same(plain, traced)
    assert trace.fused[:k] == traced.hits
    # Past the cut: the whole ranking, as a search for every candidate returns it.
    everything = await engine.searcher.search(query, 10_000, mode, filters)
    assert trace.fused == everything.hits
    params = engine.config.retrieval
    assert len(trace.dense) <= params.dense_k
    assert len(trace.keyword) <= params.keyword_k
    assert (len(trace.dense) > 0) == (mode != "keyword")
    assert (len(trace.keyword) > 0) == (mode != "dense" and traced.counts["keyword"] > 0)
    for hit in trace.fused:
        if hit.dense_rank is not None:
            assert trace.dense[hit.dense_rank - 1].chunk_id == hit.chunk.id
        if hit.keyword_rank is not None:
            assert trace.keyword[hit.keyword_rank - 1].chunk_id == hit.chunk.id
    assert trace.filters == (filters or SearchFilters())
    assert trace.plan.report == traced.date_scope
    assert trace.hidden == set()


async def test_a_date_scope_that_held_nothing_is_recorded_as_retried(engine: Engine) -> None:
    trace = SearchTrace()
    result = await engine.searcher.search("kodi in March 2024", 3, "keyword", trace=trace)

    assert result.date_scope is not None
    assert result.date_scope.fallback_reason == "nothing_in_range"
    assert trace.retried is True
    assert trace.plan.accept is None  # the recorded run is the one without the scope
    assert trace.fused == result.hits


async def test_the_scope_a_search_applied(engine: Engine) -> None:
    trace = SearchTrace(note="Homelab/Kodi.md")
    result = await engine.searcher.search("tomatoes in March 2024", 3, trace=trace)

    assert result.date_scope is not None
    assert result.date_scope.applied
    assert trace.retried is False
    assert trace.plan.accept is not None
    kodi = engine.catalog.get(trace.note_chunks[0])
    assert kodi is not None
    assert not trace.plan.accept(kodi)
    assert {hit.chunk.path for hit in trace.fused} == {"Journal/2024-03-06/Balcony.md"}


async def test_privacy_hides_candidates_and_the_notes_own_chunks(engine: Engine) -> None:
    catalog = engine.catalog.snapshot()
    hidden_ids = {cid for cid, chunk in catalog.items() if chunk.heading_path[-1:] == ("Maintenance",)}
    assert len(hidden_ids) == 1
    searcher = HybridSearcher(
        engine.catalog, engine.keywords, engine.dense, engine.config.retrieval, visible=lambda c: c.id not in hidden_ids
    )
    trace = SearchTrace(note="Homelab/Kodi.md")
    result = await searcher.search("kodi thumbnail cache maintenance", 5, trace=trace)

    assert hidden_ids <= trace.hidden
    assert not hidden_ids & {hit.chunk.id for hit in trace.fused}
    assert not hidden_ids & {hit.chunk.id for hit in result.hits}
    assert not hidden_ids & set(trace.note_chunks)
    assert trace.note_chunks
    # The hidden section held "thumbnail" and "cache": the note's visible chunks do not.
    assert trace.note_terms == {"kodi"}
    everyone = SearchTrace(note="Homelab/Kodi.md")
    await engine.searcher.search("kodi thumbnail cache maintenance", 5, trace=everyone)
    assert everyone.note_terms == {"kodi", "thumbnail", "cach", "mainten"}


async def test_note_terms_follow_the_keyword_index(engine: Engine) -> None:
    trace = SearchTrace(note="Homelab/Postgres.md")
    result = await engine.searcher.search("postgres port maintenance kodi", 5, trace=trace)

    assert [t.term for t in result.terms] == ["postgr", "port", "mainten", "kodi"]
    assert trace.note_terms == {"postgr", "port", "mainten"}
    assert len(trace.note_chunks) == 1
    untraced_note = SearchTrace()
    await engine.searcher.search("postgres port maintenance kodi", 5, trace=untraced_note)
    assert untraced_note.note_terms == frozenset()
    assert untraced_note.note_chunks == ()
