"""`POST /api/related`: the notes closest to one note (docs/api.md)."""

from __future__ import annotations

from aiohttp import web

from askvault.api.encode import json_response
from askvault.api.services import SERVICES
from askvault.api.validate import parse_related, read_json_object
from askvault.wire.search import related_to_json


async def related(request: web.Request) -> web.Response:
    query = parse_related(await read_json_object(request))
    result = await request.app[SERVICES].related.related(query.path, query.k)
    return json_response(related_to_json(result))
