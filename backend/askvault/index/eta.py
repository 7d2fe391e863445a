"""Rate and time left of an index run's current phase, from its progress reports (for status and the CLI)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from askvault.index.report import Progress

WINDOW_S = 60.0
"""The rate is measured over the last minute: embedding speed changes (Ollama busy, long chunks, a model load)."""
MIN_SPAN_S = 2.0
"""No estimate before the phase has run this long: the first batches say little."""


@dataclass(frozen=True, slots=True)
class Estimate:
    phase: str
    done: int
    total: int
    rate_per_s: float | None
    """Items (notes or chunks) per second over the last minute; None until known."""
    eta_s: float | None
    """Seconds until the phase is done at that rate; None until known, 0 when done."""

    def to_json(self) -> dict[str, object]:
        return {
            "phase": self.phase,
            "done": self.done,
            "total": self.total,
            "rate_per_s": None if self.rate_per_s is None else round(self.rate_per_s, 1),
            "eta_s": None if self.eta_s is None else round(self.eta_s),
        }


class RateMeter:
    """Feed it every Progress; `estimate()` says how fast the current phase goes and when it will end."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, window_s: float = WINDOW_S) -> None:
        self._clock = clock
        self._window = window_s
        self._phase = ""
        self._total = 0
        self._samples: deque[tuple[float, int]] = deque()

    def update(self, progress: Progress) -> Estimate:
        now = self._clock()
        last = self._samples[-1][1] if self._samples else 0
        if progress.phase != self._phase or progress.total != self._total or progress.done < last:
            self._phase, self._total = progress.phase, progress.total
            self._samples.clear()
        self._samples.append((now, progress.done))
        while len(self._samples) > 2 and now - self._samples[1][0] >= self._window:
            self._samples.popleft()
        return self.estimate()

    def estimate(self) -> Estimate:
        if not self._samples:
            return Estimate("", 0, 0, None, None)
        (first_t, first_done), (last_t, last_done) = self._samples[0], self._samples[-1]
        left = max(0, self._total - last_done)
        rate: float | None = None
        eta: float | None = 0.0 if left == 0 and self._total else None
        span = last_t - first_t
        if span >= MIN_SPAN_S and last_done > first_done:
            rate = (last_done - first_done) / span
            eta = left / rate
        return Estimate(self._phase, last_done, self._total, rate, eta)
