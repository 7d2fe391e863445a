"""Hybrid search end to end on the real engine: the AND trap, exact values, two chunks of one note, honest timings."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.ask.events import DoneEvent, RetrievalEvent
from askvault.retrieve.hybrid import HybridSearcher
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paragraph, paths, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

KODI_QUESTION = "what does the Kodi maintenance workflow do"


def search_vault() -> dict[str, str | bytes]:
    notes: dict[str, str | bytes] = {
        # Has "kodi" and "maintenance" but not "workflow": a query joined with AND matches no chunk at all.
        "Homelab/Kodi.md": (
            "# Kodi\n\n## Maintenance\n\nEvery Sunday the Kodi box cleans its library and rebuilds the thumbnail "
            "cache; Kodi add-ons update themselves.\n"
        ),
        "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
        "Travel/Lisbon.md": "# Lisbon\n\nThe port is busy; ferries leave the port every hour. Port wine tastings.\n",
        "Finance/Invoices.md": "# Invoices\n\nThe NAS was paid with invoice INV-2024-0042 in March.\n",
        "Finance/Budget.md": "# Budget\n\nInvoice INV-2024-0041 covered the 2024 router; invoices are filed monthly.\n",
        "Homelab/Backups.md": (
            f"# Backups\n\n## Laptop\n\nRestic snapshots the laptop to the NAS. {paragraph('laptop')}\n\n"
            f"## Phone\n\nRestic also snapshots the phone photos. {paragraph('phone')}\n"
        ),
    }
    for i in range(20):
        notes[f"Work/Process{i:02}.md"] = (
            f"# Process {i}\n\nThe maintenance workflow for system {i}: open a ticket, follow the workflow, "
            f"log the maintenance window and close the workflow. {paragraph(f'system{i}', 20)}\n"
        )
    return notes


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("hybrid")
    write_notes(root / "vault", search_vault())
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


async def test_the_kodi_and_trap(engine: Engine) -> None:
    terms = ("kodi", "maintenance", "workflow")
    texts = [chunk.index_text.lower() for chunk in engine.manifest.iter_chunks()]
    assert not any(all(term in text for term in terms) for text in texts)  # AND would match nothing

    keyword = await engine.searcher.search(KODI_QUESTION, 5, "keyword")
    hybrid = await engine.searcher.search(KODI_QUESTION, 5)

    assert paths(keyword)[0] == "Homelab/Kodi.md"
    stats = {t.term: t for t in keyword.terms}
    assert stats["kodi"].df == 1
    assert stats["workflow"].df == 20
    assert stats["kodi"].idf > 3 * stats["workflow"].idf
    assert keyword.counts["keyword"] == 21
    assert "Homelab/Kodi.md" in paths(hybrid)[:3]
    kodi = next(hit for hit in hybrid.hits if hit.chunk.path == "Homelab/Kodi.md")
    assert kodi.keyword_rank == 1
    assert hybrid.dense_available
    assert kodi.dense_rank is not None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("5433", "Homelab/Postgres.md", id="port"),
        pytest.param("which service uses port 5433", "Homelab/Postgres.md", id="port-in-question"),
        pytest.param("INV-2024-0042", "Finance/Invoices.md", id="invoice-id"),
        pytest.param("INV-2024-0041", "Finance/Budget.md", id="near-miss-id"),
    ],
)
async def test_exact_values_come_first_in_hybrid(engine: Engine, query: str, expected: str) -> None:
    result = await engine.searcher.search(query, 5)

    assert paths(result)[0] == expected
    assert result.hits[0].keyword_rank == 1


async def test_a_second_chunk_of_the_same_note_is_kept(engine: Engine) -> None:
    # Keyword mode: the fake embedder's vectors are noise, which would decide a hybrid ranking here.
    result = await engine.searcher.search("restic snapshots", 5, "keyword")

    headings = [hit.chunk.heading_path for hit in result.hits if hit.chunk.path == "Homelab/Backups.md"]
    assert sorted(headings) == [("Backups", "Laptop"), ("Backups", "Phone")]
    assert paths(result)[:2] == ["Homelab/Backups.md", "Homelab/Backups.md"]


async def test_one_leg_alone_ranks_by_rank_score(engine: Engine) -> None:
    result = await engine.searcher.search("restic snapshots the laptop", 8, "keyword")

    assert result.hits
    for rank, hit in enumerate(result.hits, start=1):
        assert (hit.keyword_rank, hit.dense_rank) == (rank, None)
        assert hit.fused_score == pytest.approx(1 / (60 + rank))
    assert len({hit.chunk.id for hit in result.hits}) == len(result.hits)


async def test_score_fusion_is_the_default_and_bounded(engine: Engine) -> None:
    """Hybrid fuses by score: each hit's fused score is its legs' min-max normalised scores, averaged
    (no identifiers in this question), so between 0 and 1, best first, and every hit keeps its legs' ranks."""
    result = await engine.searcher.search("restic snapshots the laptop", 8)
    scores = [hit.fused_score for hit in result.hits]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert all(hit.dense_rank is not None or hit.keyword_rank is not None for hit in result.hits)
    both = [hit for hit in result.hits if hit.dense_rank == 1 and hit.keyword_rank == 1]
    assert all(hit.fused_score == pytest.approx(1.0) for hit in both)


async def test_total_time_includes_embedding_and_the_answer_metrics_are_honest(
    engine: Engine, module_ollama: RunningOllama
) -> None:
    module_ollama.fake.embed_delay_s = 0.05  # a lower bound on the embed time, so the split below is checkable
    try:
        result = await engine.searcher.search("restic snapshots", 5)
        events = [event async for event in engine.pipeline.run("restic snapshots")]
    finally:
        module_ollama.fake.embed_delay_s = 0.0

    timings = result.timings
    assert timings.embed is not None
    assert timings.dense is not None
    assert timings.keyword is not None
    assert timings.embed >= 50
    assert timings.total >= timings.embed + timings.dense + timings.keyword + timings.fusion - 0.01
    retrieval, done = events[0], events[-1]
    assert isinstance(retrieval, RetrievalEvent)
    assert isinstance(done, DoneEvent)
    metrics = done.metrics
    assert (retrieval.embed_ms, retrieval.retrieval_ms) == (metrics.embed_ms, metrics.retrieval_ms)
    assert metrics.embed_ms >= 50
    assert metrics.retrieval_ms > 0  # was 0.0: the embed time was subtracted twice
    assert metrics.total_ms >= metrics.embed_ms + metrics.retrieval_ms


@pytest.mark.parametrize("coverage", [True, False], ids=["coverage-on", "coverage-off"])
async def test_the_keyword_share_shrinks_with_the_words_the_vault_lacks(engine: Engine, coverage: bool) -> None:
    """A question in a language the notes are not written in: the keyword leg can only match its one borrowed
    word (`kodi`), so with `keyword_coverage` its share is scaled by the share of terms the vault knows (c) and the
    dense leg ranks the rest: fused = (c · keyword + dense) / (1 + c), against (keyword + dense) / 2 without."""
    params = dataclasses.replace(engine.config.retrieval, keyword_coverage=coverage)
    searcher = HybridSearcher(engine.catalog, engine.keywords, engine.dense, params, visible=engine.guard.visible)
    result = await searcher.search("как настроить обслуживание kodi", 50)

    known = [t for t in result.terms if t.df > 0]
    assert [t.term for t in known] == ["kodi"]
    assert len(result.terms) > 1
    share = len(known) / len(result.terms) if coverage else 1.0
    dense = [hit.dense_score for hit in result.hits if hit.dense_score is not None]
    assert len(dense) == len(engine.catalog.snapshot())  # every chunk is a dense candidate: min and max are known
    kodi = next(hit for hit in result.hits if hit.keyword_rank == 1)
    assert kodi.chunk.path == "Homelab/Kodi.md"
    assert kodi.dense_score is not None
    dense_part = (kodi.dense_score - min(dense)) / (max(dense) - min(dense))
    assert kodi.fused_score == pytest.approx((share * 1.0 + dense_part) / (1.0 + share))


async def test_keyword_coverage_is_on_and_leaves_a_fully_known_question_alone(engine: Engine) -> None:
    assert engine.config.retrieval.keyword_coverage
    off = dataclasses.replace(engine.config.retrieval, keyword_coverage=False)
    plain = HybridSearcher(engine.catalog, engine.keywords, engine.dense, off, visible=engine.guard.visible)
    question = "restic snapshots the laptop"
    with_coverage, without = await engine.searcher.search(question, 8), await plain.search(question, 8)
    assert all(t.df > 0 for t in with_coverage.terms)
    ranked = [(h.chunk.id, h.fused_score) for h in with_coverage.hits]
    assert ranked == [(h.chunk.id, h.fused_score) for h in without.hits]
