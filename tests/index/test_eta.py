"""The rate meter behind `index.progress` in /api/status: rate over the last minute, time left, phase resets."""

from __future__ import annotations

import pytest

from askvault.index.eta import RateMeter
from askvault.index.report import Progress

Step = tuple[float, str, int, int]
"""(clock seconds, phase, done, total)."""


@pytest.mark.parametrize(
    ("steps", "rate", "eta"),
    [
        ([(0, "embed", 0, 1000)], None, None),
        ([(0, "embed", 0, 1000), (1, "embed", 100, 1000)], None, None),
        ([(0, "embed", 0, 1000), (10, "embed", 100, 1000)], 10.0, 90.0),
        ([(0, "embed", 0, 1000), (10, "embed", 100, 1000), (20, "embed", 300, 1000)], 15.0, 700 / 15),
        ([(0, "notes", 0, 50), (10, "notes", 50, 50), (11, "embed", 0, 400)], None, None),
        ([(0, "embed", 0, 100), (30, "embed", 100, 100)], 100 / 30, 0.0),
        ([(0, "embed", 0, 100), (5, "embed", 0, 100)], None, None),
        ([(0, "embed", 500, 900), (10, "embed", 10, 900), (20, "embed", 110, 900)], 10.0, 79.0),
        ([(0, "embed", 0, 10_000), (100, "embed", 100, 10_000), (160, "embed", 700, 10_000)], 10.0, 930.0),
    ],
    ids=[
        "one-report",
        "too-early",
        "steady",
        "speeding-up",
        "new-phase-resets",
        "done",
        "stalled",
        "restarted-count-resets",
        "old-samples-leave-the-window",
    ],
)
def test_rate_and_time_left(steps: list[Step], rate: float | None, eta: float | None) -> None:
    clock = [0.0]
    meter = RateMeter(clock=lambda: clock[0])
    for at, phase, done, total in steps:
        clock[0] = at
        estimate = meter.update(Progress(phase, done, total))  # type: ignore[arg-type]  # phases from the table

    assert estimate.rate_per_s == (None if rate is None else pytest.approx(rate))
    assert estimate.eta_s == (None if eta is None else pytest.approx(eta))
    assert estimate.to_json()["phase"] == steps[-1][1]
