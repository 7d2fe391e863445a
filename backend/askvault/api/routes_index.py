"""Routes about the sidecar and its index: health, status, reindex and the live event stream."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping

from aiohttp import web

from askvault.api.encode import json_response
from askvault.api.ndjson import STREAMS, NdjsonStream, aclose, next_item
from askvault.api.schemas import status_to_json
from askvault.api.services import SERVICES
from askvault.api.validate import parse_reindex, read_json_object
from askvault.errors import Conflict

log = logging.getLogger("askvault.api")

HEARTBEAT_S = web.AppKey("askvault_heartbeat_s", float)


async def health(_request: web.Request) -> web.Response:
    # Liveness only: it answers without a token, so it says nothing about the vault.
    return json_response({"ok": True})


async def status(request: web.Request) -> web.Response:
    return json_response(status_to_json(request.app[SERVICES].index.status()))


async def reindex(request: web.Request) -> web.Response:
    wanted = parse_reindex(await read_json_object(request))
    if not await request.app[SERVICES].index.start_reindex(wanted.full):
        raise Conflict("an index run is already in progress")
    return json_response({"accepted": True}, status=202)


async def events(request: web.Request) -> web.StreamResponse:
    index = request.app[SERVICES].index
    with request.app[STREAMS].track():
        # Subscribe before reading the status, so no change falls between the two; read the status before
        # the first byte goes out, so a failure there is still a plain HTTP error.
        source = index.subscribe()
        try:
            first = {"type": "status", "status": status_to_json(index.status())}
            stream = NdjsonStream(request)
            await stream.open()
            if await stream.send(first):
                try:
                    await _forward(stream, source, request.app[HEARTBEAT_S])
                except Exception:
                    log.exception("the index event stream failed")
            return await stream.finish()
        finally:
            await aclose(source)


async def _forward(stream: NdjsonStream, source: AsyncIterator[Mapping[str, object]], heartbeat: float) -> None:
    """Source events as they come, a heartbeat whenever it is quiet; returns when either side ends."""
    pending: asyncio.Task[Mapping[str, object]] | None = None
    try:
        while True:
            if pending is None:
                pending = asyncio.ensure_future(next_item(source))
            done, _ = await asyncio.wait({pending}, timeout=heartbeat)
            if not done:
                # The heartbeat doubles as a probe: a write to a closed socket ends the stream.
                if not await stream.send({"type": "heartbeat"}):
                    return
                continue
            finished, pending = pending, None
            try:
                event = finished.result()
            except StopAsyncIteration:
                return
            if not await stream.send(dict(event)):
                return
    finally:
        if pending is not None:
            pending.cancel()
            # The source must be idle again before it can be closed.
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pending
