"""The guards every request passes: Host allow-list, exact Origin allow-list with CORS, bearer token, JSON-only."""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from askvault.api.errors import UNAUTHORIZED_MESSAGE
from askvault.errors import Forbidden, PayloadTooLarge, Unauthorized, UnsupportedMediaType

OBSIDIAN_ORIGIN = "app://obsidian.md"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
PUBLIC_PATHS = frozenset({"/api/health"})
"""GET routes that need no token (liveness only; they still pass the Host and Origin guards)."""

PREFLIGHT_HEADERS = {
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type",
    "Access-Control-Max-Age": "600",
}

ALLOWED_ORIGIN = web.RequestKey("askvault_allowed_origin", str)
"""Set once the request's Origin passed the allow-list; the response hook then adds the CORS headers."""


class ListenPorts:
    """The port(s) the server really listens on; known only after binding when asked for port 0."""

    def __init__(self, port: int) -> None:
        self._ports: frozenset[int] = frozenset({port}) if port else frozenset()

    def set(self, ports: Iterable[int]) -> None:
        self._ports = frozenset(p for p in ports if p)

    @property
    def ports(self) -> frozenset[int]:
        return self._ports


LISTEN_PORTS = web.AppKey("askvault_listen_ports", ListenPorts)


def host_allowed(host: str | None, ports: frozenset[int]) -> bool:
    """True when a Host header names this server: a loopback name and our port, nothing else.

    A DNS-rebinding page reaches 127.0.0.1 under its own name, which is what this refuses.
    """
    if not host:
        return False
    name, sep, port = host.lower().rpartition(":")
    if not sep or not port.isascii() or not port.isdigit() or str(int(port)) != port or int(port) not in ports:
        return False
    return name in LOOPBACK_NAMES


def single_host(request: web.Request) -> str | None:
    """The one Host header (aiohttp's request.host falls back to the machine's name when Host is absent)."""
    hosts = request.headers.getall("Host", [])
    return hosts[0] if len(hosts) == 1 else None


def bearer_token(headers: list[str]) -> str | None:
    """The token of exactly one `Authorization: Bearer <token>` header, else None."""
    if len(headers) != 1:
        return None
    scheme, _, candidate = headers[0].strip().partition(" ")
    if scheme.lower() != "bearer" or not candidate.strip():
        return None
    return candidate.strip()


def bearer_matches(headers: list[str], token: str) -> bool:
    """Exactly one `Authorization: Bearer <token>` header, compared in constant time."""
    candidate = bearer_token(headers)
    return candidate is not None and hmac.compare_digest(candidate.encode("utf-8"), token.encode("utf-8"))


def security_middlewares(
    token: str, ports: ListenPorts, origins: Iterable[str], max_body_bytes: int
) -> list[Middleware]:
    """The loopback guards, outermost first: Host, Origin (and preflight), token, JSON-only POST bodies."""

    @web.middleware
    async def host_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not host_allowed(single_host(request), ports.ports):
            raise Forbidden("this server only answers requests addressed to localhost")
        return await handler(request)

    @web.middleware
    async def token_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        public = request.method == "GET" and request.path in PUBLIC_PATHS
        # Only the header counts: a `?token=` would end up in histories and logs.
        if not public and not bearer_matches(request.headers.getall("Authorization", []), token):
            raise Unauthorized(UNAUTHORIZED_MESSAGE)
        return await handler(request)

    return [host_guard, origin_guard(frozenset({OBSIDIAN_ORIGIN, *origins})), token_guard, json_only(max_body_bytes)]


def origin_guard(allowed_origins: frozenset[str]) -> Middleware:
    """An Origin, when sent, must be exactly one of `allowed_origins`; preflights are answered here."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        sent = request.headers.getall("Origin", [])
        if not sent:
            return await handler(request)
        if len(sent) != 1 or sent[0] not in allowed_origins:
            raise Forbidden("origin not allowed")
        request[ALLOWED_ORIGIN] = sent[0]
        if request.method == "OPTIONS":
            # Browsers send no Authorization on a preflight, so it is answered before the token check.
            headers = dict(PREFLIGHT_HEADERS)
            if request.headers.get("Access-Control-Request-Private-Network") == "true":
                headers["Access-Control-Allow-Private-Network"] = "true"
            return web.Response(status=204, headers=headers)
        return await handler(request)

    return guard


def json_only(max_body_bytes: int) -> Middleware:
    """POST bodies must be UTF-8 JSON within the size limit."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method == "POST":
            # A form or text/plain POST needs no preflight; demanding JSON shuts that door.
            if request.content_type != "application/json" or (request.charset or "utf-8").lower() != "utf-8":
                raise UnsupportedMediaType("POST bodies must be Content-Type: application/json (UTF-8)")
            if request.content_length is not None and request.content_length > max_body_bytes:
                raise PayloadTooLarge(f"the request body is larger than {max_body_bytes} bytes")
        return await handler(request)

    return guard


async def add_response_headers(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare` hook: CORS headers for an allowed Origin (errors included), and no caching."""
    origin = request.get(ALLOWED_ORIGIN)
    if origin is not None:
        response.headers["Access-Control-Allow-Origin"] = origin
        vary = [v.strip() for v in response.headers.get("Vary", "").split(",") if v.strip()]
        if "origin" not in (v.lower() for v in vary):
            response.headers["Vary"] = ", ".join([*vary, "Origin"])
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
