"""POST /api/explain: why one note was or was not used for a question (docs/api.md)."""

from __future__ import annotations

from aiohttp import web

from askvault.api.encode import json_response
from askvault.api.services import SERVICES
from askvault.api.validate import parse_explain, read_json_object
from askvault.errors import NotFound
from askvault.wire.explain import explanation_to_json


async def explain(request: web.Request) -> web.Response:
    query = parse_explain(await read_json_object(request))
    explainer = request.app[SERVICES].explainer
    if explainer is None:
        raise NotFound("explain is not available in this sidecar")
    explanation = await explainer.explain(query.question, query.note, query.k, query.filters)
    return json_response(explanation_to_json(explanation))
