"""Runs the app on a loopback socket (port 0 allowed) and refuses to listen beyond it unless told to."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from aiohttp import web

from askvault.api.app import set_listen_ports
from askvault.config import ServerConfig
from askvault.errors import ConfigError

log = logging.getLogger("askvault.api")

_IN_USE = frozenset(code for code in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", None)) if code is not None)
_DENIED = frozenset(code for code in (errno.EACCES, getattr(errno, "WSAEACCES", None)) if code is not None)
_PORT_TAKEN = _IN_USE | _DENIED
"""Bind errors that mean "someone else has this port": in use, or (Windows) inside a range Hyper-V reserved."""

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
    taken_port: int | None = None
    """The default port, when another program held it and a free port was taken instead (`port_fallback`)."""


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
        taken: int | None = None
        try:
            await web.TCPSite(runner, server.host, server.port).start()
        except OSError as exc:
            if not (server.port_fallback and server.port and exc.errno in _PORT_TAKEN):
                raise ConfigError(f"--port {server.port}: cannot listen on {server.host}: {_why(exc)}") from exc
            # Only the default port: another program holds it, so any free port will do; the discovery file and
            # the banner say which, and the plugin reads the discovery file.
            log.info("port %d is taken by another program; listening on a free port instead", server.port)
            taken = server.port
            try:
                await web.TCPSite(runner, server.host, 0).start()
            except OSError as again:
                raise ConfigError(f"cannot listen on {server.host}: {_why(again)}") from again
        addresses = tuple((str(name[0]), int(name[1])) for name in runner.addresses)
        set_listen_ports(app, {port for _, port in addresses})
        yield Listening(port=addresses[0][1], addresses=addresses, taken_port=taken)
    finally:
        await runner.cleanup()


def _why(exc: OSError) -> str:
    """Why a bind failed, and the fix, for the one-line error (asyncio's own text repeats the address)."""
    if exc.errno in _IN_USE:
        return "another program is using that port; stop it, or choose another --port (0 picks a free one)"
    if exc.errno in _DENIED:
        return "the system reserves that port; choose another --port (0 picks a free one)"
    return (exc.strerror or str(exc)).removeprefix("error while attempting to bind on address ")


async def run_server(app: web.Application, server: ServerConfig, on_bound: Callable[[int], None]) -> None:
    """Serves until cancelled; `on_bound(port)` runs once the socket listens (write the discovery file there)."""
    async with serve(app, server) as listening:
        on_bound(listening.port)
        await asyncio.Event().wait()
