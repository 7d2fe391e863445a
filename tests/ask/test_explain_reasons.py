"""The explanation's sentences and its reading of a retrieval step, table-driven on hand-built steps."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from askvault.ask.explain import explain_note
from askvault.ask.explain_reasons import filter_detail, ordinal
from askvault.ask.pipeline import Retrieval
from askvault.ask.relevance import FALLBACK, RelevanceSignals, decide
from askvault.ask.rewrite import Rewrite
from askvault.config import PromptParams
from askvault.generate.prompt import build_prompt
from askvault.model import Chunk, Hit, NoteStatus, RankedId, SearchFilters, SearchResult, SearchTimings, TermStat
from askvault.retrieve.timing import AnswerTimings
from askvault.retrieve.trace import SearchTrace
from askvault.wire.explain import explanation_to_json

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd"}


@pytest.mark.parametrize(("n", "expected"), ORDINALS.items(), ids=[str(n) for n in ORDINALS])
def test_ordinals(n: int, expected: str) -> None:
    assert ordinal(n) == expected


MAY_2025 = datetime(2025, 5, 20, 12, tzinfo=UTC).timestamp()
KODI = Chunk("k1", "Homelab/Kodi.md", "Kodi", ("Kodi",), 1, 4, "Kodi box.", "Kodi\nKodi box.", ("media",), MAY_2025)
FILTERS = {
    "folder": (SearchFilters(folder="Journal/"), "the folder filter `Journal/` (it is not in that folder)"),
    "tag": (SearchFilters(tag="#work"), "the tag filter `#work` (it has no such tag)"),
    "after": (
        SearchFilters(modified_after=datetime(2025, 6, 1, tzinfo=UTC).timestamp()),
        "the modified-after filter 2025-06-01 (it was modified 2025-05-20)",
    ),
    "before": (
        SearchFilters(modified_before=datetime(2025, 1, 1, tzinfo=UTC).timestamp()),
        "the modified-before filter 2025-01-01 (it was modified 2025-05-20)",
    ),
    "two": (
        SearchFilters(folder="Journal/", tag="media"),
        "the folder filter `Journal/` (it is not in that folder)",
    ),
}


@pytest.mark.parametrize(("filters", "named"), FILTERS.values(), ids=FILTERS.keys())
def test_the_filter_that_left_a_note_out_is_named(filters: SearchFilters, named: str) -> None:
    assert filter_detail(filters, KODI) == f"The request's filters left this note out: {named}."


def _chunk(n: int, path: str) -> Chunk:
    return Chunk(f"c{n}", path, path.removesuffix(".md"), (), 1, 2, f"text {n}", f"index {n}", (), 0.0)


def _step(hits: list[Hit], *, sent: int, relevant: list[Hit] | None = None) -> tuple[Retrieval, SearchTrace]:
    """A step whose prompt sends the first `sent` relevant hits, and the trace of its search."""
    result = SearchResult("q", "hybrid", hits, [TermStat("kodi", 2, 1.5)], {"dense": 2, "keyword": 1}, SearchTimings())
    decision = decide(RelevanceSignals(0.9, 1.0, 1.0, True, None), FALLBACK)
    usable = hits if relevant is None else relevant
    prompt = build_prompt("q", usable, PromptParams(max_sources=sent)) if usable else None
    timings = AnswerTimings(1.0, 1.0)
    step = Retrieval(
        "q", Rewrite("q", False, False), result, 8, hits, decision, timings, relevant=usable, prompt=prompt
    )
    trace = SearchTrace(note="B.md")
    trace.chunks = {hit.chunk.id: hit.chunk for hit in hits}
    trace.dense = [RankedId(hit.chunk.id, 0.5 - n / 10) for n, hit in enumerate(hits) if hit.dense_rank is not None]
    trace.fused = list(hits)
    trace.note_chunks = tuple(hit.chunk.id for hit in hits if hit.chunk.path == "B.md")
    trace.note_terms = frozenset({"kodi"})
    return step, trace


INDEXED = NoteStatus("B.md", "indexed", title="B", chunks=1)


def test_a_weak_dense_match_in_the_top_k_is_not_sent() -> None:
    a = Hit(_chunk(1, "A.md"), 1, 1, 1.0, 0.9, 3.0)
    b = Hit(_chunk(2, "B.md"), 2, None, 0.4, -0.2)  # dense only, below min_dense_score: not relevant
    step, trace = _step([a, b], sent=6, relevant=[a])

    explained = explain_note(step, trace, INDEXED, PromptParams())
    assert explained.summary == "Ranked 2nd after fusion, but its only match was too weak a dense similarity to send."
    assert explained.factors == ()
    assert explained.sent is False
    assert explained.matched == ("kodi",)


def test_the_character_budget_is_named_when_the_source_count_was_not_reached() -> None:
    long = Chunk("c1", "A.md", "A", (), 1, 2, "x" * 9000, "x", (), 0.0)
    a = Hit(long, 1, 1, 1.0, 0.9, 3.0)
    b = Hit(_chunk(2, "B.md"), 2, 2, 0.5, 0.8, 2.0)
    step, trace = _step([a, b], sent=6)

    explained = explain_note(step, trace, INDEXED, PromptParams())
    assert [f.detail for f in explained.factors] == [
        "It ranked 2nd of the 8 sources asked for, but the prompt's 9000-character budget was full before it."
    ]
    assert explained.summary == "Ranked 2nd after fusion; only the top one was sent."


def test_a_note_that_is_not_indexed_gets_no_entries_even_if_its_chunks_ranked() -> None:
    a = Hit(_chunk(1, "A.md"), 1, 1, 1.0, 0.9, 3.0)
    b = Hit(_chunk(2, "B.md"), 2, 2, 0.5, 0.8, 2.0)
    step, trace = _step([a, b], sent=6)
    status = NoteStatus("B.md", "excluded", rule="exclude-glob", detail="Excluded from the index by the pattern `B*`.")

    explained = explain_note(step, trace, status, PromptParams())
    assert (explained.dense, explained.keyword, explained.fused) == (None, None, None)
    assert explained.sent is False
    assert (explained.matched, explained.missing) == ((), ("kodi",))
    assert explained.summary == "Excluded from the index by the pattern `B*`."
    assert explanation_to_json(explained)["note"] == {
        "path": "B.md",
        "title": None,
        "status": "excluded",
        "indexed_at": None,
        "chunks": 0,
        "reason": {"rule": "exclude-glob", "detail": "Excluded from the index by the pattern `B*`."},
    }
