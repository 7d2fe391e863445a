"""A real sidecar with remote mode on: loopback on port 0, TLS on 127.0.0.2, fake services, real files on disk."""

from __future__ import annotations

import contextlib
import socket
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import aiohttp

from askvault.api.app import create_app
from askvault.api.gate import GATE
from askvault.api.remote.access import RemoteAccess
from askvault.api.remote.app import create_remote_app
from askvault.api.remote.certificate import RemoteCertificate, load_or_create_certificate, server_ssl_context
from askvault.api.remote.devices import DeviceStore
from askvault.api.remote.failures import FailureLimiter
from askvault.api.remote.pairing import PairingCodes
from askvault.api.server import RemoteSite, serve
from askvault.api.services import ApiServices
from askvault.ask.relevance import calibration_for
from askvault.config import RemoteConfig, ServerConfig
from askvault.wire.search_scored import SearchRelevance
from tests.api.conftest import TOKEN
from tests.api.fakes import FakeAnswerer, FakeIndex, FakeRelated, FakeSearcher
from tests.api.remote.clock import Clock

REMOTE_HOST = "127.0.0.2"
"""Another loopback address stands in for the LAN one: a real second interface address, no network needed."""


def free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


@dataclass
class RemoteSidecar:
    remote: RemoteConfig
    cert: RemoteCertificate
    access: RemoteAccess
    clock: Clock
    local_port: int
    session: aiohttp.ClientSession
    searcher: FakeSearcher
    answerer: FakeAnswerer
    folder: Path
    base: str = field(init=False)

    def __post_init__(self) -> None:
        self.base = f"https://{REMOTE_HOST}:{self.remote.port}"

    def url(self, path: str) -> str:
        return self.base + path

    def local_url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.local_port}{path}"

    def issue(self, minutes: int = 10) -> str:
        return self.access.codes.issue(minutes).code

    async def pair(self, device: str = "Test phone") -> str:
        """Pairs a device through the real route and returns its token."""
        async with self.session.post(self.url("/api/pair"), json={"code": self.issue(), "device": device}) as res:
            assert res.status == 200, await res.text()
            body = await res.json()
        token = body["token"]
        assert isinstance(token, str)
        return token


def trusting(cert: RemoteCertificate) -> ssl.SSLContext:
    """A client context that trusts exactly this certificate (what a phone that installed it does)."""
    return ssl.create_default_context(cafile=str(cert.cert_path))


@contextlib.asynccontextmanager
async def start_remote(
    folder: Path,
    *,
    names: tuple[str, ...] = (),
    limiter: FailureLimiter | None = None,
    host: str = REMOTE_HOST,
    port: int | None = None,
) -> AsyncIterator[RemoteSidecar]:
    remote = RemoteConfig(host=host, port=port or free_port(REMOTE_HOST), names=names)
    server = ServerConfig(port=0, remote=remote)
    searcher, answerer = FakeSearcher(), FakeAnswerer()
    services = ApiServices(
        searcher,
        answerer,
        FakeIndex(),
        FakeRelated(),
        search_relevance=SearchRelevance(calibration_for("all-minilm"), 8),
    )
    app = create_app(services, server, TOKEN, 0)
    cert = load_or_create_certificate(folder / "remote", [host, *names])
    clock = Clock(datetime.now(UTC))
    access = RemoteAccess(
        fingerprint=cert.fingerprint,
        devices=DeviceStore(folder / "remote" / "devices.json"),
        codes=PairingCodes(folder / "remote" / "pairing.json", clock=clock),
        limiter=FailureLimiter() if limiter is None else limiter,
    )
    site = RemoteSite(
        app=create_remote_app(services, server, access, app[GATE]),
        ssl_context=server_ssl_context(cert),
        host=host,
        port=remote.port,
    )
    connector = aiohttp.TCPConnector(ssl=trusting(cert))
    async with serve(app, server, site) as listening, aiohttp.ClientSession(connector=connector) as session:
        yield RemoteSidecar(remote, cert, access, clock, listening.port, session, searcher, answerer, folder)


RemoteFactory = Callable[..., contextlib.AbstractAsyncContextManager[RemoteSidecar]]
