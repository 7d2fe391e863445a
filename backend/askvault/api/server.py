"""Runs the app on a loopback socket (port 0 allowed) and refuses to listen beyond it unless told to."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from aiohttp import web

from askvault.api.app import set_listen_ports
from askvault.config import ServerConfig
from askvault.errors import ConfigError

log = logging.getLogger("askvault.api")

SHUTDOWN_TIMEOUT_S = 5.0
IDLE_TIMEOUT_S = 75.0
"""A connection that has not sent a complete request this long after connecting (or after its last response)
is closed: a slow-loris client that dribbles its headers is dropped instead of holding a socket for an hour
(aiohttp's AppRunner default is 3630 s). Streams in progress (answers, /api/events) are not affected."""


@dataclass(frozen=True, slots=True)
class Listening:
    port: int
    """The first bound socket's port (the one to advertise)."""
    addresses: tuple[tuple[str, int], ...]
    """Every bound (address, port)."""


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind_host(server: ServerConfig) -> None:
    """Loopback only, unless --allow-remote: on any other address the vault is one token away from the LAN."""
    if is_loopback(server.host):
        return
    if not server.allow_remote:
        raise ConfigError(
            f"--host {server.host} is not a loopback address; the sidecar serves your notes, so it only listens "
            "on 127.0.0.1 unless you also pass --allow-remote"
        )
    log.warning(
        "listening on %s because --allow-remote is set: anyone who can reach it and holds the token can read "
        "your vault",
        server.host,
    )


@contextlib.asynccontextmanager
async def serve(app: web.Application, server: ServerConfig) -> AsyncIterator[Listening]:
    """Listens on `server.host:server.port` (0 picks a free port) until the block exits."""
    check_bind_host(server)
    # handler_cancellation: a client closing the connection cancels its handler, which closes the answer
    # stream and so stops the model. No access log: request lines are nobody's business.
    runner = web.AppRunner(
        app,
        handler_cancellation=True,
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT_S,
        handle_signals=False,
        keepalive_timeout=IDLE_TIMEOUT_S,
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, server.host, server.port)
        try:
            await site.start()
        except OSError as exc:
            raise ConfigError(f"--port {server.port}: cannot listen on {server.host} ({exc.strerror})") from exc
        addresses = tuple((str(name[0]), int(name[1])) for name in runner.addresses)
        set_listen_ports(app, {port for _, port in addresses})
        yield Listening(port=addresses[0][1], addresses=addresses)
    finally:
        await runner.cleanup()


async def run_server(app: web.Application, server: ServerConfig, on_bound: Callable[[int], None]) -> None:
    """Serves until cancelled; `on_bound(port)` runs once the socket listens (write the discovery file there)."""
    async with serve(app, server) as listening:
        on_bound(listening.port)
        await asyncio.Event().wait()
