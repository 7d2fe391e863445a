"""Routes that read the index: search, ask (an NDJSON stream) and one chunk by id."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from aiohttp import web

from askvault.api.encode import json_response
from askvault.api.errors import INTERNAL_MESSAGE, redact_paths
from askvault.api.gate import GATE
from askvault.api.ndjson import STREAMS, NdjsonStream, aclose, next_item
from askvault.api.schemas import chunk_to_json
from askvault.api.services import SERVICES
from askvault.api.validate import parse_ask, parse_search, read_json_object
from askvault.ask.events import AskEvent, ErrorEvent
from askvault.ask.generation import ending_answer
from askvault.errors import AskVaultError, NotFound
from askvault.wire.events import JsonObject, event_to_json
from askvault.wire.search_scored import search_body

CHUNK_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def search(request: web.Request) -> web.Response:
    query = parse_search(await read_json_object(request))
    services = request.app[SERVICES]
    judge = services.search_relevance
    fetch = query.k if judge is None else judge.fetch(query.k, query.mode)
    result = await services.searcher.search(query.query, fetch, query.mode, query.filters)
    return json_response(search_body(result, query.k, query.mode, judge))


async def chunk(request: web.Request) -> web.Response:
    chunk_id = request.match_info["id"]
    # Validated where it is parsed: whatever the store does with an id, it never sees `..` or a slash.
    found = await request.app[SERVICES].index.get_chunk(chunk_id) if CHUNK_ID.fullmatch(chunk_id) else None
    if found is None:
        raise NotFound("no chunk with this id")
    return json_response(chunk_to_json(found))


def _line(event: AskEvent) -> JsonObject:
    """The event's NDJSON line as `wire.events` shapes it; an error's message loses any path (its partial is
    already inert: `ask.generation.cut_short`)."""
    line = event_to_json(event)
    if isinstance(event, ErrorEvent):
        line["message"] = redact_paths(event.message)
    return line


async def ask(request: web.Request) -> web.StreamResponse:
    query = parse_ask(await read_json_object(request))
    services = request.app[SERVICES]
    with request.app[STREAMS].track():
        async with request.app[GATE].slot():
            run = services.answerer.run(query.question, query.history, query.k, query.filters, force=query.force)
            # Whatever the answerer does, the stream ends with one done or error event (the partial-answer rule).
            events = ending_answer(run, INTERNAL_MESSAGE)
            try:
                # The first event is awaited before any byte is sent, so a failure up to retrieval is a
                # plain HTTP error with its status; after that, failures travel as an `error` line.
                try:
                    first = await next_item(events)
                except StopAsyncIteration:
                    raise AskVaultError("the answer pipeline produced no events") from None
                stream = NdjsonStream(request)
                await stream.open()
                await _pump(stream, first, events)
                return await stream.finish()
            finally:
                await aclose(events)


async def _pump(stream: NdjsonStream, first: AskEvent, events: AsyncIterator[AskEvent]) -> None:
    """Sends each event as its line until the terminal one (`ending_answer` ends with it) or the client goes."""
    if not await stream.send(_line(first)):
        return
    async for event in events:
        if not await stream.send(_line(event)):
            return
