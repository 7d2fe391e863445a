"""Remote mode's application: the same routes as loopback behind guards for paired devices, plus pairing."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from askvault.api.app import ApiSettings, add_routes, share_services
from askvault.api.errors import error_middleware
from askvault.api.gate import GenerationGate
from askvault.api.remote import routes as routes_pair
from askvault.api.remote.access import ACCESS, DEVICE, RemoteAccess, client_ip, record_failure
from askvault.api.remote.failures import TooManyFailures
from askvault.api.security import OBSIDIAN_ORIGIN, bearer_token, json_only, origin_guard, single_host
from askvault.api.services import ApiServices
from askvault.config import RemoteConfig, ServerConfig
from askvault.errors import Forbidden, Unauthorized

log = logging.getLogger("askvault.api")

MOBILE_ORIGINS = ("capacitor://localhost", "http://localhost")
"""The origins Obsidian's iOS (Capacitor) and Android apps send; desktop sends app://obsidian.md."""
REMOTE_PUBLIC = frozenset({("GET", "/api/health"), ("POST", "/api/pair")})
"""The only requests a device makes without its token: liveness (with the fingerprint) and pairing itself."""
DEVICE_UNAUTHORIZED = (
    "this device is not paired with the sidecar, or was revoked: pair it again with a code from `askvault pair`"
)


def remote_hosts(remote: RemoteConfig) -> frozenset[str]:
    """The Host headers the remote listener answers: its address as a literal, and each name, with its port."""
    names = list(remote.names)
    if not remote.unspecified:
        names.append(f"[{remote.host}]" if ":" in remote.host else remote.host)
    hosts = {f"{name}:{remote.port}" for name in names}
    if remote.port == 443:
        hosts.update(names)  # clients leave out the default port
    return frozenset(hosts)


def remote_host_allowed(host: str | None, remote: RemoteConfig, hosts: frozenset[str]) -> bool:
    """Exactly one of `hosts`; on every interface (0.0.0.0 / ::) any IP literal of that family with the port,
    since the address a device dials is not known here, and a literal cannot be DNS-rebound."""
    if not host:
        return False
    host = host.lower()
    if host in hosts:
        return True
    if not remote.unspecified:
        return False
    name, sep, port = host.rpartition(":")
    if not sep or port != str(remote.port):
        return False
    bracketed = name.startswith("[") and name.endswith("]")
    try:
        address = ipaddress.ip_address(name[1:-1] if bracketed else name)
    except ValueError:
        return False
    return (address.version == 6) == bracketed == (remote.host == "::")


def remote_middlewares(remote: RemoteConfig, origins: Iterable[str], max_body_bytes: int) -> list[Middleware]:
    """The remote guards, outermost first: Host, Origin, failure block, device token, JSON-only bodies. The block
    comes after the Origin check so its 429 carries CORS headers: a phone's WebView can then read why."""
    hosts = remote_hosts(remote)

    @web.middleware
    async def failure_block(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.app[ACCESS].limiter.blocked(client_ip(request)):
            raise TooManyFailures()
        return await handler(request)

    @web.middleware
    async def host_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not remote_host_allowed(single_host(request), remote, hosts):
            raise Forbidden("this server only answers requests addressed to its remote address or names")
        return await handler(request)

    @web.middleware
    async def device_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if (request.method, request.path) in REMOTE_PUBLIC:
            return await handler(request)
        token = bearer_token(request.headers.getall("Authorization", []))
        device = request.app[ACCESS].devices.authenticate(token) if token else None
        if device is None:
            record_failure(request, "a request without a paired device's token")
            raise Unauthorized(DEVICE_UNAUTHORIZED)
        request[DEVICE] = device
        return await handler(request)

    allowed = frozenset({OBSIDIAN_ORIGIN, *MOBILE_ORIGINS, *origins})
    return [host_guard, origin_guard(allowed), failure_block, device_guard, json_only(max_body_bytes)]


def create_remote_app(
    services: ApiServices,
    server: ServerConfig,
    access: RemoteAccess,
    gate: GenerationGate,
    *,
    settings: ApiSettings | None = None,
) -> web.Application:
    """The remote listener's app; `gate` is the loopback app's, so answers queue as one across both."""
    if server.remote is None:
        raise ValueError("create_remote_app needs a remote configuration")
    app = web.Application(
        client_max_size=server.max_body_bytes,
        middlewares=[error_middleware, *remote_middlewares(server.remote, server.extra_origins, server.max_body_bytes)],
    )
    app[ACCESS] = access
    share_services(app, services, settings or ApiSettings(), gate)
    # Its own health (with the fingerprint) takes the place of the shared one, so it is added first.
    app.router.add_get("/api/health", routes_pair.health, allow_head=False)
    app.router.add_post("/api/pair", routes_pair.pair)
    add_routes(app.router, health=False)
    return app
