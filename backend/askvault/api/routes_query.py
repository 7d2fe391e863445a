"""Routes that read the index: search, ask (an NDJSON stream) and one chunk by id."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Mapping

from aiohttp import web

from askvault.api.encode import json_response
from askvault.api.errors import INTERNAL_MESSAGE, redact_paths
from askvault.api.gate import GATE
from askvault.api.ndjson import STREAMS, NdjsonStream, aclose, next_item
from askvault.api.schemas import chunk_to_json
from askvault.api.services import SERVICES
from askvault.api.validate import parse_ask, parse_search, read_json_object
from askvault.errors import AskVaultError, NotFound
from askvault.generate.answer_safety import neutralise_answer
from askvault.wire.search_scored import search_body

log = logging.getLogger("askvault.api")

CHUNK_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
TERMINAL = ("done", "error")


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


def _error_event(exc: AskVaultError, partial: str) -> dict[str, object]:
    # The raw tokens are model output: made inert like every `partial` the pipeline sends (docs/api.md).
    safe = neutralise_answer(partial).text if partial else partial
    return {"type": "error", "code": exc.code, "message": redact_paths(exc.message), "partial": safe}


def _line(event: Mapping[str, object]) -> dict[str, object]:
    line = dict(event)
    if line.get("type") == "error" and isinstance(line.get("message"), str):
        line["message"] = redact_paths(str(line["message"]))
    return line


async def ask(request: web.Request) -> web.StreamResponse:
    query = parse_ask(await read_json_object(request))
    services = request.app[SERVICES]
    with request.app[STREAMS].track():
        async with request.app[GATE].slot():
            events = services.answerer.run(query.question, query.history, query.k, query.filters, force=query.force)
            try:
                # The first event is awaited before any byte is sent, so a failure up to retrieval is a
                # plain HTTP error with its status; after that, failures travel as an `error` line.
                try:
                    first = _line(await next_item(events))
                except StopAsyncIteration:
                    raise AskVaultError("the answer pipeline produced no events") from None
                stream = NdjsonStream(request)
                await stream.open()
                await _pump(stream, first, events)
                return await stream.finish()
            finally:
                await aclose(events)


async def _pump(stream: NdjsonStream, first: Mapping[str, object], events: AsyncIterator[Mapping[str, object]]) -> None:
    """Forwards events until the terminal one; makes sure the stream always ends with `done` or `error`."""
    partial: list[str] = []
    line: Mapping[str, object] | None = first
    last_type: object = None
    try:
        while line is not None:
            if line.get("type") == "token" and isinstance(line.get("text"), str):
                partial.append(str(line["text"]))
            last_type = line.get("type")
            if not await stream.send(line) or last_type in TERMINAL:
                return
            try:
                line = _line(await next_item(events))
            except StopAsyncIteration:
                line = None
    except AskVaultError as exc:
        await stream.send(_error_event(exc, "".join(partial)))
        return
    except Exception:
        log.exception("the answer stream failed")
        await stream.send(_error_event(AskVaultError(INTERNAL_MESSAGE), "".join(partial)))
        return
    if last_type not in TERMINAL:
        log.error("the answer stream ended without a done or error event")
        await stream.send(_error_event(AskVaultError("the answer ended early"), "".join(partial)))
