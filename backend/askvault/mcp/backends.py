"""Where the tools get their answers: the engine in this process, or a running sidecar through its HTTP API.

Both speak docs/api.md's JSON: a search is the `POST /api/search` body, an answer the list of
`POST /api/ask` events, so the tools shape one form whichever backend serves them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from types import TracebackType
from typing import ClassVar, Protocol

import aiohttp

from askvault.ask.pipeline import AnswerPipeline
from askvault.errors import AskVaultError
from askvault.model import SearchFilters
from askvault.retrieve.protocol import Searcher
from askvault.wire.events import event_lines
from askvault.wire.search import search_result_to_json

log = logging.getLogger(__name__)

Json = Mapping[str, object]
READ_BUFFER_BYTES = 4 * 1024 * 1024
"""A `retrieval` event is one NDJSON line carrying every source's text and the prompt."""


class VaultBackend(Protocol):
    async def search(self, query: str, k: int, filters: SearchFilters | None) -> Json:
        """The `POST /api/search` body for a hybrid search."""
        ...

    async def ask(self, question: str, force: bool = False) -> list[Json]:
        """The answer's events as docs/api.md objects: `retrieval`, `token`…, then `done` or `error`; `force` sends
        the notes to the model even when they do not seem to cover the question."""
        ...


class LocalBackend:
    """The engine this process opened (it holds the vault's index lock)."""

    def __init__(self, searcher: Searcher, pipeline: AnswerPipeline) -> None:
        self._searcher = searcher
        self._pipeline = pipeline

    async def search(self, query: str, k: int, filters: SearchFilters | None) -> Json:
        return search_result_to_json(await self._searcher.search(query, k, "hybrid", filters))

    async def ask(self, question: str, force: bool = False) -> list[Json]:
        async with aclosing(event_lines(self._pipeline.run(question, force=force))) as lines:
            return [line async for line in lines]


class SidecarUnavailable(AskVaultError):
    code: ClassVar[str] = "sidecar_unavailable"
    http_status: ClassVar[int] = 503


class SidecarRefused(AskVaultError):
    """The sidecar answered with an error body; `code` is its docs/api.md code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.api_code = code


@dataclass(frozen=True, slots=True)
class SidecarAddress:
    url: str
    """`http://127.0.0.1:27582`: where the sidecar listens, without a trailing slash."""
    token: str


STOPPED = (
    "the Ask Vault sidecar for this vault has stopped; start it again (`askvault serve` or Obsidian), "
    "or restart this MCP server so it opens the index itself"
)


class SidecarBackend:
    """A running `askvault serve` for the same vault: read-only, through its API with its bearer token.

    `locate` is asked before every call (it reads the small discovery file), so a sidecar that restarted
    on another port is found again; when none runs any more, calls fail with a readable error.
    """

    def __init__(
        self,
        locate: Callable[[], SidecarAddress | None],
        *,
        connect_timeout_s: float = 5.0,
        read_timeout_s: float = 300.0,
    ) -> None:
        self._locate = locate
        self._timeout = aiohttp.ClientTimeout(total=None, sock_connect=connect_timeout_s, sock_read=read_timeout_s)
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> SidecarBackend:
        self._session = aiohttp.ClientSession(timeout=self._timeout, read_bufsize=READ_BUFFER_BYTES)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def search(self, query: str, k: int, filters: SearchFilters | None) -> Json:
        body: dict[str, object] = {"query": query, "k": k, "mode": "hybrid"}
        if filters is not None:
            body["filters"] = {key: value for key, value in (("folder", filters.folder), ("tag", filters.tag)) if value}
        async with self._post("/api/search", body) as response:
            await _raise_for_error(response)
            data = await response.json()
        if not isinstance(data, dict):
            raise SidecarUnavailable("the sidecar's search answer was not a JSON object")
        return data

    async def ask(self, question: str, force: bool = False) -> list[Json]:
        events: list[Json] = []
        # `force` only when set: a sidecar older than the relevance decision refuses fields it does not know.
        body: dict[str, object] = {"question": question, "force": True} if force else {"question": question}
        async with self._post("/api/ask", body) as response:
            await _raise_for_error(response)
            async for raw in response.content:
                if not raw.strip():
                    continue
                event = json.loads(raw)
                if isinstance(event, dict):
                    events.append(event)
        return events

    def _post(self, route: str, body: Json) -> _Request:
        if self._session is None:
            raise RuntimeError("use SidecarBackend as an async context manager")
        address = self._locate()
        if address is None:
            raise SidecarUnavailable(STOPPED)
        return _Request(self._session, address, route, body)


class _Request:
    """One POST whose connection failures read as 'the sidecar stopped', never as a traceback."""

    def __init__(self, session: aiohttp.ClientSession, address: SidecarAddress, route: str, body: Json) -> None:
        self._session = session
        self._address = address
        self._route = route
        self._body = body
        self._response: aiohttp.ClientResponse | None = None

    async def __aenter__(self) -> aiohttp.ClientResponse:
        try:
            self._response = await self._session.post(
                self._address.url + self._route,
                json=self._body,
                headers={"Authorization": f"Bearer {self._address.token}"},
            )
        except (aiohttp.ClientConnectionError, TimeoutError) as exc:
            log.warning("sidecar at %s unreachable: %s", self._address.url, exc)
            raise SidecarUnavailable(STOPPED) from None
        return self._response

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._response is not None:
            self._response.release()
        if isinstance(exc, aiohttp.ClientPayloadError | aiohttp.ClientConnectionError | TimeoutError):
            log.warning("sidecar connection broke: %s", exc)
            raise SidecarUnavailable("the connection to the Ask Vault sidecar broke off; try again") from None
        if isinstance(exc, json.JSONDecodeError | aiohttp.ContentTypeError):
            raise SidecarUnavailable("the sidecar sent something that is not its JSON API") from None


async def _raise_for_error(response: aiohttp.ClientResponse) -> None:
    if response.status < 400:
        return
    if response.status == 401:
        raise SidecarRefused(
            "unauthorized",
            "the running sidecar did not accept this vault's token (the token file changed after it started); "
            "restart the sidecar",
        )
    try:
        body = await response.json()
    except (aiohttp.ContentTypeError, json.JSONDecodeError, UnicodeDecodeError):
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("message"), str):
        raise SidecarUnavailable(f"the sidecar answered HTTP {response.status} without its error body")
    raise SidecarRefused(str(error.get("code", "error")), error["message"])
