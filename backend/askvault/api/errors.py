"""The one error middleware: every failure on every route becomes `{"error": {"code", "message"}}`."""

from __future__ import annotations

import logging
import re
from typing import ClassVar

from aiohttp import web
from aiohttp.typedefs import Handler

from askvault.api.encode import json_response
from askvault.errors import (
    AskVaultError,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    TooManyRequests,
    Unauthorized,
    UnsupportedMediaType,
)

log = logging.getLogger("askvault.api")

INTERNAL_MESSAGE = "internal error; the sidecar log has the details"
UNAUTHORIZED_MESSAGE = (
    "missing or wrong bearer token: get it with `askvault token --vault <your vault>` (plus the --data-dir the "
    "sidecar was started with, if any) and paste it into the Ask Vault plugin's settings, or send it as "
    "`Authorization: Bearer <token>`"
)
"""Says where the token comes from, never the token, the vault or the data folder: the caller is not trusted yet."""


class MethodNotAllowed(AskVaultError):
    """An HTTP-level error that has no counterpart in the engine's hierarchy."""

    code: ClassVar[str] = "method_not_allowed"
    http_status: ClassVar[int] = 405


# aiohttp's own HTTP errors (router, body limit) mapped onto ours, with our wording instead of theirs.
_HTTP_ERRORS: dict[int, tuple[type[AskVaultError], str]] = {
    400: (BadRequest, "the request could not be read"),
    401: (Unauthorized, UNAUTHORIZED_MESSAGE),
    403: (Forbidden, "forbidden"),
    404: (NotFound, "not found"),
    405: (MethodNotAllowed, "method not allowed on this route"),
    409: (Conflict, "conflict"),
    413: (PayloadTooLarge, "the request body is too large"),
    415: (UnsupportedMediaType, "the request body must be application/json"),
    429: (TooManyRequests, "busy; try again shortly"),
}

# Absolute POSIX paths (not URLs, not `a/b`), home-relative paths, Windows drive and UNC paths.
_PATHS = re.compile(
    r"(?<![\w.:/~-])/(?:[^\s/'\"`<>]+/)*[^\s/'\"`<>]+"
    r"|~/[^\s'\"`<>]*"
    r"|(?<![\w])[A-Za-z]:\\[^\s'\"`<>]*"
    r"|\\\\[^\s'\"`<>]+"
)


def redact_paths(message: str) -> str:
    """Replaces file-system paths with `<path>`: error bodies must not reveal the layout outside the vault."""
    return _PATHS.sub("<path>", message)


def error_body(code: str, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": redact_paths(message)}}


def error_response(exc: AskVaultError, headers: dict[str, str] | None = None) -> web.Response:
    response = json_response(error_body(exc.code, exc.message), status=exc.http_status)
    if headers:
        response.headers.update(headers)
    if isinstance(exc, Unauthorized):
        response.headers["WWW-Authenticate"] = "Bearer"
    elif isinstance(exc, TooManyRequests):
        response.headers["Retry-After"] = str(exc.retry_after_s)
    return response


def from_http_exception(exc: web.HTTPException) -> AskVaultError:
    kind, message = _HTTP_ERRORS.get(exc.status, (AskVaultError, INTERNAL_MESSAGE))
    return kind(message)


@web.middleware
async def error_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Outermost: nothing leaves the app except our JSON error shape (or a normal response)."""
    try:
        return await handler(request)
    except AskVaultError as exc:
        if exc.http_status >= 500:
            log.warning("%s %s failed: %s: %s", request.method, request.path, exc.code, exc.message)
        return error_response(exc)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        keep = {name: exc.headers[name] for name in ("Allow",) if name in exc.headers}
        return error_response(from_http_exception(exc), keep)
    except ConnectionResetError:
        raise  # the client is gone: nothing to answer, aiohttp drops the connection quietly
    except Exception:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(AskVaultError(INTERNAL_MESSAGE))
