"""The relevance decision, table-driven: signals from a search result, the calibrated score, the decision."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askvault.ask.relevance import (
    CALIBRATIONS,
    FALLBACK,
    Calibration,
    RelevanceSignals,
    Weights,
    calibration_for,
    decide,
    relevance_signals,
)
from askvault.model import Chunk, Hit, SearchResult, SearchTimings, TermStat

Leg = tuple[int, float] | None
"""(rank, score) in one leg, or None when that leg missed the chunk."""


def hit(n: int, dense: Leg = None, keyword: Leg = None, path: str | None = None) -> Hit:
    chunk = Chunk(f"c{n}", path or f"Notes/{n}.md", f"Note {n}", (), 1, 1, "text", "text")
    return Hit(
        chunk=chunk,
        dense_rank=dense[0] if dense else None,
        keyword_rank=keyword[0] if keyword else None,
        fused_score=1.0 / (60 + n),
        dense_score=dense[1] if dense else None,
        keyword_score=keyword[1] if keyword else None,
    )


def result(hits: list[Hit], terms: list[TermStat] | None = None, dense_available: bool = True) -> SearchResult:
    return SearchResult("q", "hybrid", hits, terms or [], {}, SearchTimings(), dense_available=dense_available)


TERMS = [TermStat("boat", 2, 2.0), TermStat("wifi", 0, 0.0), TermStat("router", 1, 3.0)]
DENSE_SIX = [hit(n, dense=(n, 1.0 - n / 10)) for n in range(1, 7)]

SIGNAL_CASES = [
    (result([]), RelevanceSignals(None, None, None, False, None)),
    (
        result([hit(1, keyword=(1, 4.0)), hit(2, keyword=(2, 1.0))], TERMS, dense_available=False),
        RelevanceSignals(None, 0.8, 2 / 3, False, None, dense_available=False),
    ),
    (result(DENSE_SIX, TERMS), RelevanceSignals(0.9, None, None, False, 0.9 - 0.5)),
    (result(DENSE_SIX[:4]), RelevanceSignals(0.9, None, None, False, None)),
    (result([hit(1, dense=(1, -0.05))]), RelevanceSignals(0.0, None, None, False, None)),
    (
        result([hit(1, dense=(1, 0.7), path="A.md"), hit(2, keyword=(3, 2.5), path="A.md")], TERMS),
        RelevanceSignals(0.7, 0.5, 2 / 3, True, None),
    ),
    (
        result([hit(1, dense=(1, 0.7), path="A.md"), hit(2, keyword=(4, 2.5), path="A.md")], TERMS),
        RelevanceSignals(0.7, 0.5, 2 / 3, False, None),
    ),
    (
        result([hit(1, dense=(2, 0.6), keyword=(1, 5.0))], TERMS),
        RelevanceSignals(0.6, 1.0, 2 / 3, True, None),
    ),
    (result([hit(1, keyword=(1, 2.0))], [TermStat("x", 0, 0.0)]), RelevanceSignals(None, None, 0.0, False, None)),
    (result([hit(1, keyword=(1, 2.0))]), RelevanceSignals(None, None, None, False, None)),
]
SIGNAL_IDS = [
    "nothing",
    "keyword-only",
    "dense-only-with-gap",
    "too-few-for-a-gap",
    "negative-cosine-floored",
    "legs-agree-on-a-note",
    "keyword-rank-4-is-too-deep",
    "one-chunk-in-both-legs",
    "no-informative-term",
    "no-terms",
]


@pytest.mark.parametrize(("searched", "expected"), SIGNAL_CASES, ids=SIGNAL_IDS)
def test_relevance_signals(searched: SearchResult, expected: RelevanceSignals) -> None:
    got = relevance_signals(searched)
    for name in ("top_dense", "keyword_strength", "term_coverage", "dense_gap"):
        want = getattr(expected, name)
        assert getattr(got, name) == (None if want is None else pytest.approx(want)), name
    assert (got.legs_agree, got.dense_available) == (expected.legs_agree, expected.dense_available)


STRICT = Calibration("strict", Weights(top_dense=20.0), bias=-16.0, threshold=0.5, source="fitted on a test")
KEYWORDS = Calibration("kw", Weights(keyword_strength=10.0), bias=-5.0, threshold=0.5, source="keyword fit")


def signals(
    dense: float | None = None,
    strength: float | None = None,
    coverage: float | None = None,
    *,
    keyword_only: bool = False,
) -> RelevanceSignals:
    return RelevanceSignals(dense, strength, coverage, False, None, dense_available=not keyword_only)


DECISIONS = [
    (signals(), FALLBACK, False, (False, False, "*"), "Nothing in your notes matched the question."),
    (signals(dense=0.6), FALLBACK, False, (True, False, "*"), "Your notes look relevant"),
    (signals(dense=0.3, strength=0.2, coverage=0.1), FALLBACK, False, (False, False, "*"), "Your notes do not seem"),
    (signals(dense=0.3, strength=0.2, coverage=0.3), FALLBACK, False, (True, False, "*"), "Your notes look relevant"),
    (signals(dense=0.3, strength=0.2, coverage=0.1), FALLBACK, True, (True, True, "*"), "Sent anyway as you asked"),
    (signals(dense=0.9), FALLBACK, True, (True, False, "*"), "Your notes look relevant"),
    (signals(), FALLBACK, True, (True, True, "*"), "Nothing in your notes matched the question."),
    (signals(dense=0.7), STRICT, False, (False, False, "strict"), "Your notes do not seem"),
    (signals(dense=0.85), STRICT, False, (True, False, "strict"), "Your notes look relevant"),
    (signals(strength=0.9, coverage=0.5, keyword_only=True), STRICT, False, (True, False, "*"), "keywords only"),
    (signals(strength=0.9, coverage=0.4, keyword_only=True), STRICT, False, (False, False, "*"), "keywords only"),
    (
        signals(strength=0.9, coverage=0.4, keyword_only=True),
        dataclasses.replace(STRICT, keyword_only=KEYWORDS),
        False,
        (True, False, "kw"),
        "Your notes look relevant",
    ),
]
DECISION_IDS = [
    "nothing-found",
    "one-similar-note",
    "weak-everywhere",
    "weak-but-together-enough",
    "forced-past-an-abstention",
    "force-when-answering-anyway",
    "forced-with-nothing-found",
    "strict-model-below",
    "strict-model-above",
    "keyword-only-uses-the-fallback",
    "keyword-only-too-little-coverage",
    "keyword-only-own-calibration",
]


@pytest.mark.parametrize(("given_signals", "calibration", "force", "outcome", "reason"), DECISIONS, ids=DECISION_IDS)
def test_decide(
    given_signals: RelevanceSignals,
    calibration: Calibration,
    force: bool,
    outcome: tuple[bool, bool, str],
    reason: str,
) -> None:
    decision = decide(given_signals, calibration, force=force)
    assert (decision.answer, decision.forced, decision.calibration_model) == outcome
    assert reason in decision.reason
    assert decision.reason.endswith(".")
    assert decision.signals == given_signals
    assert 0.0 <= decision.score <= 1.0
    used = {"*": FALLBACK, "strict": STRICT, "kw": KEYWORDS}[decision.calibration_model]
    assert (decision.threshold, decision.calibration_source) == (used.threshold, used.source)


@pytest.mark.parametrize(
    ("bias", "expected"),
    [(0.0, 0.5), (1000.0, 1.0), (-1000.0, 0.0), (2.0, 0.8807970779778823)],
    ids=["even", "huge", "tiny", "two"],
)
def test_score_is_a_logistic_that_never_overflows(bias: float, expected: float) -> None:
    assert Calibration("m", Weights(), bias, 0.5, "test").score(signals()) == pytest.approx(expected)


@given(
    dense=st.none() | st.floats(0.0, 1.0),
    strength=st.none() | st.floats(0.0, 3.0),
    coverage=st.none() | st.floats(0.0, 1.0),
)
def test_the_fallback_abstains_only_when_there_is_clearly_nothing(
    dense: float | None, strength: float | None, coverage: float | None
) -> None:
    decision = decide(signals(dense, strength, coverage), FALLBACK)
    clearly_something = (dense is not None and dense >= 0.5) or (coverage is not None and coverage >= 0.5)
    if clearly_something:
        assert decision.answer


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("all-minilm", "all-minilm"),
        ("all-minilm:latest", "all-minilm"),
        ("all-minilm@384", "all-minilm"),
        ("hf.co/sentence-transformers/All-MiniLM:l6-v2", "all-minilm"),
        ("multilingual-e5-small@384+doc-1a2b3c4d", "multilingual-e5-small"),
        ("nomic-embed-text", "*"),
        ("", "*"),
    ],
    ids=["bare", "tagged", "fingerprint", "namespaced", "prefixed-fingerprint", "unknown", "empty"],
)
def test_calibration_for(name: str, expected: str) -> None:
    assert calibration_for(name).model == expected


def test_the_table_is_keyed_by_each_calibrations_model() -> None:
    assert {"all-minilm", "multilingual-e5-small"} <= set(CALIBRATIONS)
    for key, calibration in CALIBRATIONS.items():
        assert calibration.model == key
        assert 0.0 < calibration.threshold < 1.0
        assert calibration.source
