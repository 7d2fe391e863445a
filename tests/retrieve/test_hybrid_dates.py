"""Date phrases on the real engine: the scope narrows both legs, explicit filters win, an empty range falls back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.config import RetrievalParams
from askvault.model import ChunkInfo, SearchFilters, SearchMode
from askvault.query.dates import reference_now
from askvault.retrieve.hybrid import HybridSearcher
from askvault.retrieve.trace import SearchTrace
from askvault.store.keyword.bm25 import Bm25Index
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import CountingTokenizer, engine_config, indexed_engine, paths, set_mtime, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

NOW = datetime(2024, 3, 20, 12, tzinfo=UTC)
"""A Wednesday: last week is 11–17 March 2024."""
CHECKOUT = datetime(2026, 11, 29, 9, tzinfo=UTC).timestamp()
"""Every note's mtime, as after a fresh clone: only path dates say when a daily note was written."""
LEG_K = 3
LAST_WEEK = {f"Daily/2024-03-{d}.md" for d in range(11, 18)}
STRAY = "Notes/Loose thought.md"
"""No date in its path; its mtime (set below) falls in last week."""


def dates_vault(root: Path) -> None:
    notes: dict[str, str | bytes] = {}
    for day in range(1, 31):
        # Out-of-range notes say "bread" more often, so without the scope they would fill every leg.
        bread = "bread bread bread dough" if f"Daily/2024-03-{day:02d}.md" not in LAST_WEEK else "bread"
        notes[f"Daily/2024-03-{day:02d}.md"] = f"# Day {day}\n\nBaked {bread} today, {day} loaves in the oven.\n"
    notes[STRAY] = "# Loose thought\n\nMaybe bake bread with rye next time.\n"
    write_notes(root, notes)
    for rel in notes:
        set_mtime(root / rel, CHECKOUT)
    set_mtime(root / STRAY, datetime(2024, 3, 14, 9, tzinfo=UTC).timestamp())


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("dates")
    dates_vault(root / "vault")
    retrieval = RetrievalParams(dense_k=LEG_K, keyword_k=LEG_K, query_dates=True)
    async with indexed_engine(
        engine_config(root / "vault", root / "data", module_ollama.url, retrieval=retrieval)
    ) as e:
        yield e


@pytest.mark.parametrize("mode", ["hybrid", "keyword", "dense"])
async def test_without_the_phrase_other_days_fill_every_leg(engine: Engine, mode: SearchMode) -> None:
    result = await engine.searcher.search("bread dough I baked", 10, mode)

    assert not set(paths(result)) & (LAST_WEEK | {STRAY})  # filtering afterwards would leave nothing


@pytest.mark.parametrize("mode", ["hybrid", "keyword", "dense"])
async def test_the_phrase_narrows_each_leg_before_truncation(engine: Engine, mode: SearchMode) -> None:
    with reference_now(NOW):
        result = await engine.searcher.search("bread dough I baked last week", 10, mode)

    assert set(paths(result)) <= LAST_WEEK | {STRAY}  # path dates first, then the mtime of the undated note
    assert len(result.hits) >= LEG_K
    scope = result.date_scope
    assert scope is not None
    assert (scope.phrase, str(scope.start), str(scope.end)) == ("last week", "2024-03-11", "2024-03-18")
    assert (scope.applied, scope.notes, scope.fallback_reason) == (True, 8, None)


async def test_an_undated_note_counts_by_its_mtime(engine: Engine) -> None:
    with reference_now(NOW):
        result = await engine.searcher.search("rye last week", 10, "keyword")

    assert paths(result) == [STRAY]
    assert result.date_scope is not None
    assert result.date_scope.applied


async def test_an_explicit_modified_filter_wins_over_the_phrase(engine: Engine) -> None:
    filters = SearchFilters(modified_after=CHECKOUT - 10)
    with reference_now(NOW):
        result = await engine.searcher.search("bread dough I baked last week", 10, "keyword", filters)

    assert STRAY not in paths(result)
    assert len(result.hits) == LEG_K
    assert result.date_scope is not None
    assert (result.date_scope.applied, result.date_scope.fallback_reason) == (False, "explicit_filter")


async def test_a_range_without_notes_searches_everything_and_says_so(engine: Engine) -> None:
    with reference_now(NOW):
        result = await engine.searcher.search("bread I baked in 2019", 10, "hybrid")

    assert len(result.hits) > 0
    assert result.date_scope is not None
    assert (result.date_scope.phrase, result.date_scope.applied) == ("in 2019", False)
    assert result.date_scope.fallback_reason == "nothing_in_range"


async def test_a_range_whose_notes_match_nothing_falls_back(engine: Engine) -> None:
    with reference_now(datetime(2024, 3, 5, 12, tzinfo=UTC)):
        fallback = await engine.searcher.search("rye yesterday", 10, "keyword")

    assert paths(fallback) == [STRAY]  # yesterday (4 March) holds a daily note, but none says "rye"
    assert fallback.date_scope is not None
    assert (fallback.date_scope.applied, fallback.date_scope.fallback_reason) == (False, "nothing_in_range")


async def test_without_a_phrase_there_is_no_scope(engine: Engine) -> None:
    result = await engine.searcher.search("bread dough", 5, "hybrid")

    assert result.date_scope is None


YESTERDAY = "Daily/2024-03-04.md"
""""Yesterday" on 5 March: the only note in range, hidden by the privacy re-check below."""


def counting_searcher(engine: Engine) -> tuple[HybridSearcher, CountingTokenizer]:
    """The engine's catalog and vectors behind a keyword index whose tokenizer counts, and a privacy re-check that
    hides yesterday's note (excluded after it was indexed): a search scoped to yesterday then shows nothing."""
    tokenizer = CountingTokenizer()
    keywords = Bm25Index(tokenizer)
    keywords.rebuild(engine.manifest.iter_chunks())
    params = RetrievalParams(dense_k=LEG_K, keyword_k=LEG_K, query_dates=True)

    def visible(chunk: ChunkInfo) -> bool:
        return chunk.path != YESTERDAY

    return HybridSearcher(engine.catalog, keywords, engine.dense, params, visible=visible), tokenizer


async def test_the_date_scope_retry_embeds_and_tokenizes_the_question_once(
    engine: Engine, module_ollama: RunningOllama
) -> None:
    searcher, tokenizer = counting_searcher(engine)
    trace = SearchTrace()
    before = len(module_ollama.fake.calls("/api/embed"))
    with reference_now(datetime(2024, 3, 5, 12, tzinfo=UTC)):
        result = await searcher.search("bread I baked yesterday", 10, "hybrid", trace=trace)

    assert trace.retried  # the scoped run showed nothing (its one note is hidden): it ran again unscoped
    assert result.date_scope is not None
    assert result.date_scope.fallback_reason == "nothing_in_range"
    assert result.hits
    assert YESTERDAY not in paths(result)
    assert result.counts["dense"] == LEG_K  # the retry's dense leg ran, on the question's one vector
    assert len(module_ollama.fake.calls("/api/embed")) - before == 1
    assert tokenizer.questions == 1
