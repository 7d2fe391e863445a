"""Elapsed milliseconds (search stages keep three decimals, answer metrics one) and the records that carry them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from askvault.model import SearchTimings
from askvault.retrieve import timing
from askvault.retrieve.timing import METRIC_DIGITS, STAGE_DIGITS, AnswerTimings, elapsed_ms


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # The module's own `time` only, so the test runner's clock is untouched; 12.3456 ms after 10.0 s.
    monkeypatch.setattr(timing, "time", SimpleNamespace(perf_counter=lambda: 10.0123456))


@pytest.mark.usefixtures("clock")
def test_stage_timings_keep_three_decimals() -> None:
    assert elapsed_ms(10.0, STAGE_DIGITS) == 12.346


@pytest.mark.usefixtures("clock")
def test_answer_metrics_keep_one_decimal() -> None:
    assert elapsed_ms(10.0, METRIC_DIGITS) == 12.3


@pytest.mark.usefixtures("clock")
@pytest.mark.parametrize("digits", [STAGE_DIGITS, METRIC_DIGITS])
def test_the_same_arithmetic_as_the_copies_it_replaced(digits: int) -> None:
    # retrieve.hybrid/related rounded (now - start) * 1000 to 3 decimals; ask.generation/pipeline/rerank to 1.
    for started in (9.5, 10.0, 10.0123, 0.0):
        assert elapsed_ms(started, digits) == round((10.0123456 - started) * 1000.0, digits)


def test_search_timings_shape_as_timings_ms_always_has() -> None:
    # docs/api.md: embed, dense, keyword, fusion, total in that order; a leg that did not run has no key.
    hybrid = SearchTimings(embed=12.1, dense=1.9, keyword=0.8, fusion=0.1, total=15.2)
    assert list(hybrid.to_json().items()) == [
        ("embed", 12.1),
        ("dense", 1.9),
        ("keyword", 0.8),
        ("fusion", 0.1),
        ("total", 15.2),
    ]
    assert list(SearchTimings(keyword=0.8, fusion=0.1, total=1.0).to_json()) == ["keyword", "fusion", "total"]
    assert list(SearchTimings(2.0, 1.0, None, 0.1, 3.5).to_json()) == ["embed", "dense", "fusion", "total"]


@pytest.mark.usefixtures("clock")
def test_an_answer_counts_the_embedding_once() -> None:
    # 12.3 ms observed since 10.0; the search's total (9.0) includes its embedding (5.04).
    split = AnswerTimings.of_search(SearchTimings(5.04, 1.0, 1.0, 1.0, 9.0), 10.0)
    assert split == AnswerTimings(embed_ms=5.0, retrieval_ms=4.0)
    assert split.total_ms(10.0) == 12.3  # the clock, above its parts
    assert split.total_ms(10.0, generation_ms=100.0) == 109.0  # its parts, above the clock
    assert AnswerTimings.of_search(SearchTimings(keyword=1.0, fusion=1.0, total=9.0), 10.0) == AnswerTimings(0.0, 9.0)


@pytest.mark.usefixtures("clock")
def test_an_answer_never_reports_more_search_than_it_observed() -> None:
    assert AnswerTimings.of_search(SearchTimings(20.0, 1.0, 1.0, 1.0, 50.0), 10.0) == AnswerTimings(12.3, 0.0)
    assert AnswerTimings.of_search(SearchTimings(2.0, 1.0, 1.0, 1.0, 50.0), 10.0) == AnswerTimings(2.0, 10.3)
