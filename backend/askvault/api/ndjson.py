"""NDJSON streaming responses: one JSON object per line, written as it comes, and tracked for shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

from aiohttp import web

from askvault.api.encode import dumps

log = logging.getLogger("askvault.api")

NDJSON = "application/x-ndjson"

T = TypeVar("T")


class NdjsonStream:
    """An open `application/x-ndjson` response. `send` reports False once the client has gone."""

    def __init__(self, request: web.Request) -> None:
        self._request = request
        self.response = web.StreamResponse(status=200)
        self.response.content_type = NDJSON

    async def open(self) -> None:
        await self.response.prepare(self._request)

    @property
    def client_gone(self) -> bool:
        transport = self._request.transport
        return transport is None or transport.is_closing()

    async def send(self, obj: object) -> bool:
        if self.client_gone:
            return False
        try:
            # Each write goes straight to the socket: the plugin renders every line as it arrives.
            await self.response.write((dumps(obj) + "\n").encode("utf-8"))
        except ConnectionResetError:
            return False
        return True

    async def finish(self) -> web.StreamResponse:
        with contextlib.suppress(ConnectionResetError):
            await self.response.write_eof()
        return self.response


async def aclose(iterator: AsyncIterator[T]) -> None:
    """Closes an async iterator if it can be closed (generators can): that is what stops work upstream."""
    close = getattr(iterator, "aclose", None)
    if close is None:
        return
    try:
        await close()
    except Exception:
        log.exception("closing a stream source failed")


async def next_item(iterator: AsyncIterator[T]) -> T:
    return await iterator.__anext__()


class StreamRegistry:
    """The handler tasks of open streams, cancelled at shutdown so a long `/api/events` never holds it up."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[object]] = set()

    @contextlib.contextmanager
    def track(self) -> Iterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def cancel_all(self, _app: web.Application) -> None:
        for task in list(self._tasks):
            task.cancel()


STREAMS = web.AppKey("askvault_streams", StreamRegistry)
