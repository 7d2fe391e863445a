"""One answer generation at a time, a short queue behind it, and 429 `busy` beyond that."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from aiohttp import web

from askvault.errors import TooManyRequests


class GenerationGate:
    """A semaphore with a bounded waiting room: a local model serves one answer at a time anyway, and an
    unbounded queue would only turn a burst of clicks into minutes of stale answers."""

    def __init__(self, running: int = 1, waiting: int = 2) -> None:
        if running < 1 or waiting < 0:
            raise ValueError("running must be ≥ 1 and waiting ≥ 0")
        self._semaphore = asyncio.Semaphore(running)
        self._capacity = running + waiting
        self._occupied = 0

    @property
    def occupied(self) -> int:
        """Generations running plus requests waiting for one."""
        return self._occupied

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if self._occupied >= self._capacity:
            raise TooManyRequests("busy: another answer is being generated; try again shortly")
        self._occupied += 1
        try:
            async with self._semaphore:
                yield
        finally:
            self._occupied -= 1


GATE = web.AppKey("askvault_generation_gate", GenerationGate)
