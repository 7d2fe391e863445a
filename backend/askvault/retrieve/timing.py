"""Elapsed milliseconds from `time.perf_counter` readings, the one clock every search and answer timing uses."""

from __future__ import annotations

import time

STAGE_DIGITS = 3
"""Decimals of a search's and a related-notes lookup's `timings_ms` (docs/api.md): a keyword or fusion stage often
takes well under 0.1 ms, and one decimal would report it as 0.0."""
METRIC_DIGITS = 1
"""Decimals of an answer's metrics and of its trace records (rewrite, rerank, generation), as they have always been
reported (the `done` event's `metrics`, the eval and CLI output)."""


def elapsed_ms(started: float, digits: int) -> float:
    """Milliseconds since `started` (a `time.perf_counter()` reading), rounded to `digits` decimals."""
    return round((time.perf_counter() - started) * 1000.0, digits)
