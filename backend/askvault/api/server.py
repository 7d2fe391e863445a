"""Runs the app on a loopback socket (port 0 allowed), and the remote-mode app over TLS when configured."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import ssl
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
    """Plain HTTP listens on loopback only: on any other address the token would cross the network in clear text.
    Other devices are served by remote mode, which speaks only TLS and pairs each device."""
    if is_loopback(server.host):
        return
    if server.in_container:
        # The published port is the host's loopback (docker-compose.yml): requests still name localhost.
        log.info("listening on %s inside a container; its published port decides who can reach it", server.host)
        return
    example = f"[{server.host.strip('[]')}]" if ":" in server.host else server.host
    raise ConfigError(
        f"--host {server.host} is not a loopback address, and plain HTTP would send the token across the network "
        f"in clear text; to serve other devices use --remote {example}:8765 instead, which speaks only TLS and "
        "pairs each device (docs/remote.md)"
    )


@dataclass(frozen=True, slots=True)
class RemoteSite:
    """The remote-mode listener: its own application (guards for paired devices) over TLS."""

    app: web.Application
    ssl_context: ssl.SSLContext
    host: str
    port: int


@contextlib.asynccontextmanager
async def serve(
    app: web.Application, server: ServerConfig, remote: RemoteSite | None = None
) -> AsyncIterator[Listening]:
    """Listens on `server.host:server.port` (0 picks a free port), and on the remote site when given, until the
    block exits."""
    check_bind_host(server)
    runner = _runner(app)
    await runner.setup()
    remote_runner = _runner(remote.app) if remote is not None else None
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
        if remote is not None and remote_runner is not None:
            await remote_runner.setup()
            await _start_remote(remote_runner, remote)
        yield Listening(port=addresses[0][1], addresses=addresses, taken_port=taken)
    finally:
        if remote_runner is not None:
            await remote_runner.cleanup()
        await runner.cleanup()


def _runner(app: web.Application) -> web.AppRunner:
    # handler_cancellation: a client closing the connection cancels its handler, which closes the answer
    # stream and so stops the model. No access log: request lines are nobody's business.
    return web.AppRunner(
        app,
        handler_cancellation=True,
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT_S,
        handle_signals=False,
        keepalive_timeout=IDLE_TIMEOUT_S,
    )


async def _start_remote(runner: web.AppRunner, remote: RemoteSite) -> None:
    if remote.host in ("0.0.0.0", "::"):
        log.warning(
            "remote mode listens on every network interface (%s), as --remote says: every network this machine "
            "joins can reach the port (paired devices and TLS still guard it)",
            remote.host,
        )
    try:
        await web.TCPSite(runner, remote.host, remote.port, ssl_context=remote.ssl_context).start()
    except OSError as exc:
        why = _why(exc, "another port in --remote")
        raise ConfigError(f"--remote: cannot listen on {remote.host}:{remote.port}: {why}") from exc


def _why(exc: OSError, choose: str = "another --port (0 picks a free one)") -> str:
    """Why a bind failed, and the fix, for the one-line error (asyncio's own text repeats the address). `choose`
    says what to pick instead: remote mode's port is never 0, as paired devices remember it."""
    if exc.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address; use one `ip addr` (or `tailscale ip`) lists"
    if exc.errno in _IN_USE:
        return f"another program is using that port; stop it, or choose {choose}"
    if exc.errno in _DENIED:
        return f"the system reserves that port; choose {choose}"
    return (exc.strerror or str(exc)).removeprefix("error while attempting to bind on address ")


async def run_server(app: web.Application, server: ServerConfig, on_bound: Callable[[int], None]) -> None:
    """Serves until cancelled; `on_bound(port)` runs once the socket listens (write the discovery file there)."""
    async with serve(app, server) as listening:
        on_bound(listening.port)
        await asyncio.Event().wait()
