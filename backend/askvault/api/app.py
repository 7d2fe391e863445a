"""Builds the sidecar's aiohttp application: guards, error shape, routes and the services behind them."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from askvault.api import routes_explain, routes_index, routes_query, routes_related
from askvault.api.errors import error_middleware
from askvault.api.gate import GATE, GenerationGate
from askvault.api.ndjson import STREAMS, StreamRegistry
from askvault.api.security import LISTEN_PORTS, ListenPorts, add_response_headers, security_middlewares
from askvault.api.services import SERVICES, ApiServices
from askvault.config import ServerConfig
from askvault.errors import ConfigError

MIN_TOKEN_CHARS = 32


@dataclass(frozen=True, slots=True)
class ApiSettings:
    """Knobs that are not user configuration (tests shorten the heartbeat)."""

    heartbeat_s: float = 15.0
    """Seconds between `heartbeat` lines on /api/events."""
    ask_running: int = 1
    ask_waiting: int = 2
    """Answers that may wait for the running one; more get 429 `busy`."""


def create_app(
    services: ApiServices, server: ServerConfig, token: str, port: int, *, settings: ApiSettings | None = None
) -> web.Application:
    """The API of docs/api.md. `port` is the port Host headers must name; 0 means "not bound yet": nothing
    passes the Host guard until `serve()` (or `set_listen_ports`) records the real one."""
    settings = settings or ApiSettings()
    if len(token) < MIN_TOKEN_CHARS:
        raise ConfigError("the bearer token is too short (a token from load_or_create_token is 43 characters)")
    for origin in server.extra_origins:
        if origin in ("*", "null") or "*" in origin:
            raise ConfigError(f"--allow-origin: {origin!r} is not an exact origin")
    ports = ListenPorts(port)
    app = web.Application(
        client_max_size=server.max_body_bytes,
        middlewares=[
            error_middleware,
            *security_middlewares(token, ports, server.extra_origins, server.max_body_bytes),
        ],
    )
    app[LISTEN_PORTS] = ports
    share_services(app, services, settings, GenerationGate(settings.ask_running, settings.ask_waiting))
    add_routes(app.router)
    return app


def share_services(app: web.Application, services: ApiServices, settings: ApiSettings, gate: GenerationGate) -> None:
    """What every listener's app holds: the services, the one generation gate (answers queue across listeners),
    its own stream registry, and the response headers."""
    app[SERVICES] = services
    app[GATE] = gate
    app[STREAMS] = StreamRegistry()
    app[routes_index.HEARTBEAT_S] = settings.heartbeat_s
    app.on_response_prepare.append(add_response_headers)
    app.on_shutdown.append(app[STREAMS].cancel_all)


def add_routes(router: web.UrlDispatcher, *, health: bool = True) -> None:
    """The routes of docs/api.md both listeners serve (the remote one has a health route of its own)."""
    if health:
        router.add_get("/api/health", routes_index.health, allow_head=False)
    router.add_get("/api/status", routes_index.status, allow_head=False)
    router.add_post("/api/reindex", routes_index.reindex)
    router.add_get("/api/events", routes_index.events, allow_head=False)
    router.add_post("/api/search", routes_query.search)
    router.add_post("/api/ask", routes_query.ask)
    router.add_get("/api/chunks/{id}", routes_query.chunk, allow_head=False)
    router.add_post("/api/related", routes_related.related)
    router.add_post("/api/explain", routes_explain.explain)


def set_listen_ports(app: web.Application, ports: set[int]) -> None:
    """Records the port(s) actually bound (after listening on port 0) for the Host guard."""
    app[LISTEN_PORTS].set(ports)
