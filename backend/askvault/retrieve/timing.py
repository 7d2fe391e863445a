"""Elapsed milliseconds from `time.perf_counter` readings, the one clock every search and answer timing uses."""

from __future__ import annotations

import time
from dataclasses import dataclass

from askvault.model import SearchTimings

STAGE_DIGITS = 3
"""Decimals of a search's and a related-notes lookup's `timings_ms` (docs/api.md): a keyword or fusion stage often
takes well under 0.1 ms, and one decimal would report it as 0.0."""
METRIC_DIGITS = 1
"""Decimals of an answer's metrics and of its trace records (rewrite, rerank, generation), as they have always been
reported (the `done` event's `metrics`, the eval and CLI output)."""


def elapsed_ms(started: float, digits: int) -> float:
    """Milliseconds since `started` (a `time.perf_counter()` reading), rounded to `digits` decimals."""
    return round((time.perf_counter() - started) * 1000.0, digits)


@dataclass(frozen=True, slots=True)
class AnswerTimings:
    """An answer's search as its metrics report it: embedding the question, then the rest of the search."""

    embed_ms: float
    retrieval_ms: float
    """The search without embedding the question."""

    @classmethod
    def of_search(cls, search: SearchTimings, search_started: float) -> AnswerTimings:
        """The split of the searcher's own timings, whose `total` includes the embedding.

        Never more than the caller observed since `search_started` (a `time.perf_counter()` reading taken just
        before the search), so the metrics' parts cannot exceed the answer's total."""
        observed = elapsed_ms(search_started, METRIC_DIGITS)
        total = min(max(search.total, 0.0), observed)
        embed = min(max(search.embed or 0.0, 0.0), total)
        return cls(round(embed, METRIC_DIGITS), round(total - embed, METRIC_DIGITS))

    def total_ms(self, started: float, generation_ms: float = 0.0) -> float:
        """The whole answer since `started` (when the question arrived): never less than its reported parts."""
        parts = self.embed_ms + self.retrieval_ms + generation_ms
        return max(elapsed_ms(started, METRIC_DIGITS), round(parts, METRIC_DIGITS))
