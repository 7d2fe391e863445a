"""A real sidecar on port 0 with fake services, and helpers to talk to it (including raw HTTP)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import aiohttp
import pytest
from aiohttp import web

from askvault.api.app import ApiSettings, create_app
from askvault.api.server import serve
from askvault.api.services import ApiServices
from askvault.ask.relevance import calibration_for
from askvault.config import ServerConfig
from askvault.wire.search_scored import SearchRelevance
from tests.api.fakes import FakeAnswerer, FakeIndex, FakeRelated, FakeSearcher

# (method, path, JSON body or None): every route, so no guard can be forgotten on one.
ROUTES = [
    ("GET", "/api/health", None),
    ("GET", "/api/status", None),
    ("POST", "/api/search", {"query": "kodi"}),
    ("POST", "/api/ask", {"question": "kodi?"}),
    ("POST", "/api/reindex", {}),
    ("GET", "/api/chunks/c8a1f0e29b7d4a36", None),
    ("GET", "/api/events", None),
    ("POST", "/api/related", {"path": "Homelab/Kodi.md"}),
]
ROUTE_IDS = [f"{m} {p}" for m, p, _ in ROUTES]
PROTECTED = [r for r in ROUTES if r[1] != "/api/health"]
PROTECTED_IDS = [f"{m} {p}" for m, p, _ in PROTECTED]
POSTS = [r for r in ROUTES if r[0] == "POST"]
POST_IDS = [p for _, p, _ in POSTS]

TOKEN = "test-token-0123456789abcdefghijklmnopqrstuvwxyzAB"
ORIGIN = "app://obsidian.md"


@dataclass
class Sidecar:
    app: web.Application
    port: int
    session: aiohttp.ClientSession
    searcher: FakeSearcher
    answerer: FakeAnswerer
    index: FakeIndex
    related: FakeRelated = field(default_factory=FakeRelated)
    token: str = TOKEN
    base: str = field(init=False)

    def __post_init__(self) -> None:
        self.base = f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.base + path

    def auth(self, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **extra}


StartSidecar = Callable[..., contextlib.AbstractAsyncContextManager[Sidecar]]


@contextlib.asynccontextmanager
async def start_sidecar(
    settings: ApiSettings | None = None, server: ServerConfig | None = None
) -> AsyncIterator[Sidecar]:
    server = server or ServerConfig(port=0)
    searcher, answerer, index, related = FakeSearcher(), FakeAnswerer(), FakeIndex(), FakeRelated()
    # The all-minilm calibration, so `/api/search` shows a relevance decision as the sidecar's does.
    judge = SearchRelevance(calibration_for("all-minilm"), 8)
    services = ApiServices(searcher, answerer, index, related, search_relevance=judge)
    app = create_app(services, server, TOKEN, 0, settings=settings)
    async with serve(app, server) as listening, aiohttp.ClientSession() as session:
        yield Sidecar(app, listening.port, session, searcher, answerer, index, related)


@pytest.fixture
async def sidecar() -> AsyncIterator[Sidecar]:
    async with start_sidecar() as running:
        yield running


@pytest.fixture
def make_sidecar() -> StartSidecar:
    return start_sidecar


@dataclass(frozen=True)
class RawResponse:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


async def raw_request(port: int, head: str, body: bytes = b"") -> RawResponse:
    """Sends exactly these bytes (no client fixing up Host) and reads the whole response."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(head.replace("\n", "\r\n").encode("latin-1") + body)
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
        await writer.wait_closed()
    head_bytes, _, payload = data.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        payload = _unchunk(payload)
    return RawResponse(int(lines[0].split()[1]), headers, payload)


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out


def assert_error(body: object, code: str) -> None:
    """The one error shape: exactly {"error": {"code", "message"}} with a non-empty message."""
    assert isinstance(body, dict)
    assert set(body) == {"error"}
    error = body["error"]
    assert isinstance(error, dict)
    assert set(error) == {"code", "message"}
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert error["message"]


def assert_untouched(sidecar: Sidecar) -> None:
    """No request reached a service: the guards stopped it first."""
    assert sidecar.searcher.calls == []
    assert sidecar.answerer.calls == []
    assert sidecar.index.reindex_calls == []
    assert sidecar.index.chunk_lookups == []
    assert sidecar.index.status_calls == 0
    assert sidecar.related.calls == []
