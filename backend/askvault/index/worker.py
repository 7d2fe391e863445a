"""Blocking index work off the event loop, cancellable between two notes and never in the middle of one."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class Aborted(Exception):
    """Raised inside the worker thread when the run was cancelled: stop between two notes."""


class Worker:
    """One blocking job at a time in a thread; a cancel sets a flag the job checks between notes."""

    def __init__(self) -> None:
        self._abort = threading.Event()
        self._inflight: asyncio.Future[object] | None = None

    async def run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        self._abort.clear()
        future: asyncio.Future[T] = asyncio.ensure_future(asyncio.to_thread(func, *args, **kwargs))
        self._inflight = future  # type: ignore[assignment]
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            self._abort.set()
            # The thread finishes its current note before the cancel goes on: no note is half-written.
            with contextlib.suppress(Exception):
                await future
            raise

    def check_abort(self) -> None:
        """Called by the job between notes."""
        if self._abort.is_set():
            raise Aborted()

    async def drain(self) -> None:
        """Waits for a job a cancelled run left behind, so the stores can close safely."""
        inflight = self._inflight
        if inflight is not None and not inflight.done():
            self._abort.set()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await inflight
