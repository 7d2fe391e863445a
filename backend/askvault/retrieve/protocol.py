"""The searcher seam: what the answer pipeline, the API and the evaluation need from retrieval."""

from __future__ import annotations

from typing import Protocol

from askvault.model import SearchFilters, SearchMode, SearchResult
from askvault.retrieve.trace import SearchTrace


class Searcher(Protocol):
    async def search(
        self,
        query: str,
        k: int,
        mode: SearchMode = "hybrid",
        filters: SearchFilters | None = None,
        trace: SearchTrace | None = None,
    ) -> SearchResult:
        """Runs the requested legs and fuses them. Never raises for an unavailable embedder in hybrid
        mode: it falls back to keyword-only and sets `dense_available=False`. Raises BadRequest for an
        empty query and ModelError subclasses only in `dense` mode.

        With a `trace`, the searcher records what it saw before the cut (`retrieve.trace`); the result is the
        same as without one. A searcher with nothing to record may leave the trace as it is."""
        ...
