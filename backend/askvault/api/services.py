"""The seams the API routes depend on, so the wiring can plug in the real engine (and tests their fakes)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from askvault.ask.events import AskEvent
from askvault.ask.explain import Explanation
from askvault.errors import NotFound
from askvault.model import Chunk, Message, SearchFilters
from askvault.retrieve.protocol import Searcher
from askvault.retrieve.related import NO_NOTE, RelatedResult
from askvault.wire.search_scored import SearchRelevance

__all__ = [
    "SERVICES",
    "Answerer",
    "ApiServices",
    "Explainer",
    "IndexControl",
    "RelatedFinder",
    "Searcher",
]


class Answerer(Protocol):
    def run(
        self,
        question: str,
        history: Sequence[Message],
        k: int | None,
        filters: SearchFilters | None,
        *,
        force: bool = False,
    ) -> AsyncIterator[AskEvent]:
        """Streams the typed events of an answer (`askvault.ask.events`): retrieval, tokens, then done or error;
        the route shapes each as its NDJSON line (docs/api.md). The answer pipeline is one.

        `k` None means the pipeline's own default; `force` sends the notes even when the relevance decision
        would keep them back. Raising before the first event turns into an HTTP error;
        raising later becomes an `error` event. Closing the iterator (the client went away) must stop the
        generation upstream.
        """
        ...


class IndexControl(Protocol):
    def status(self) -> Mapping[str, object]:
        """The `vault`, `index`, `models` and `store` parts of the /api/status body."""
        ...

    async def start_reindex(self, full: bool) -> bool:
        """Starts a run in the background; False when one is already running."""
        ...

    def subscribe(self) -> AsyncIterator[Mapping[str, object]]:
        """`index` and `models` events (already shaped as in docs/api.md) until the iterator is closed.

        The subscription starts when this is called (the route reads the status right after, and nothing
        may fall in between); the route always calls `aclose()`, possibly before ever iterating, and that
        must release the subscription.
        """
        ...

    async def get_chunk(self, chunk_id: str) -> Chunk | None: ...


class RelatedFinder(Protocol):
    async def related(self, path: str, k: int) -> RelatedResult:
        """The `k` notes closest to the note at `path` (docs/api.md); NotFound when no chunk of it may be shown."""
        ...


class NoRelatedNotes:
    """The related-notes service of an app wired without one: every path answers like a note not indexed."""

    async def related(self, path: str, k: int) -> RelatedResult:
        raise NotFound(NO_NOTE)


NO_RELATED = NoRelatedNotes()


class Explainer(Protocol):
    async def explain(
        self, question: str, note: str, k: int | None = None, filters: SearchFilters | None = None
    ) -> Explanation:
        """Why `note` was or was not used for `question`, from the answer's own retrieval step (no answer model).

        A note that does not exist or is excluded is an answer, not an error; BadRequest for a bad question or k.
        """
        ...


@dataclass(frozen=True, slots=True)
class ApiServices:
    searcher: Searcher
    answerer: Answerer
    index: IndexControl
    related: RelatedFinder = NO_RELATED
    explainer: Explainer | None = None
    """None: POST /api/explain answers 404 (a build without it); the sidecar always has one."""
    search_relevance: SearchRelevance | None = None
    """None: `/api/search` carries `relevance: null` (no calibration known); the sidecar always has one."""


SERVICES = web.AppKey("askvault_services", ApiServices)
