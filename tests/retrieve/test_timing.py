"""Elapsed milliseconds: search stages keep three decimals, answer metrics one, from the same clock reading."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from askvault.retrieve import timing
from askvault.retrieve.timing import METRIC_DIGITS, STAGE_DIGITS, elapsed_ms


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
