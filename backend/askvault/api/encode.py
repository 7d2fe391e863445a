"""The one JSON encoding for bodies and NDJSON lines: compact, UTF-8 (not \\u-escaped), no NaN."""

from __future__ import annotations

import json

from aiohttp import web


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def json_response(body: object, status: int = 200) -> web.Response:
    return web.json_response(body, status=status, dumps=dumps)
