"""A Searcher that answers with canned hits and records every query (the retrieval seam for pipeline tests)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from askvault.ask.events import AskEvent
from askvault.ask.pipeline import AnswerPipeline
from askvault.ask.relevance import FALLBACK, Calibration
from askvault.ask.rerank import ChatReranker
from askvault.ask.tracing import Tracer
from askvault.config import OllamaConfig, PromptParams, RetrievalParams
from askvault.generate.ollama_chat import OllamaChatModel
from askvault.model import Hit, SearchFilters, SearchMode, SearchResult, SearchTimings, TermStat
from askvault.retrieve.trace import SearchTrace


@dataclass(frozen=True, slots=True)
class Query:
    query: str
    k: int
    mode: SearchMode
    filters: SearchFilters | None


@dataclass
class CannedSearcher:
    hits: list[Hit]
    terms: list[TermStat] = field(default_factory=lambda: [TermStat("postgres", 1, 4.2)])
    counts: dict[str, int] | None = None
    queries: list[Query] = field(default_factory=list)
    dense_available: bool = True
    """False: answers like a search whose dense leg could not run (keyword-only)."""

    async def search(
        self,
        query: str,
        k: int,
        mode: SearchMode = "hybrid",
        filters: SearchFilters | None = None,
        trace: SearchTrace | None = None,
    ) -> SearchResult:
        self.queries.append(Query(query, k, mode, filters))
        # Timings are measured, like the real searcher's: an embedding round trip, then the legs.
        started = time.perf_counter()
        await asyncio.sleep(0.002)
        embedded = time.perf_counter()
        hits = self.hits[:k]
        finished = time.perf_counter()
        counts = self.counts
        if counts is None:
            counts = {
                "dense": sum(h.dense_rank is not None for h in self.hits),
                "keyword": sum(h.keyword_rank is not None for h in self.hits),
            }
        return SearchResult(
            query=query,
            mode=mode,
            hits=hits,
            terms=list(self.terms),
            counts=counts,
            timings=SearchTimings(
                embed=(embedded - started) * 1000,
                dense=0.01,
                keyword=0.01,
                fusion=0.01,
                total=(finished - started) * 1000,
            ),
            dense_available=self.dense_available,
        )


async def collect(events: AsyncIterator[AskEvent]) -> list[AskEvent]:
    return [event async for event in events]


def kinds(events: Sequence[AskEvent]) -> list[str]:
    return [event.type for event in events]


@asynccontextmanager
async def open_pipeline(
    ollama_url: str,
    searcher: CannedSearcher,
    *,
    chat_model: str = "llama3.2:3b",
    read_timeout_s: float = 30.0,
    answer_tokens: int | None = None,
    retrieval: RetrievalParams | None = None,
    tracer: Tracer | None = None,
    calibration: Calibration = FALLBACK,
) -> AsyncIterator[AnswerPipeline]:
    """The real pipeline over the real Ollama chat model (pointed at the fake server) and a canned searcher;
    with `retrieval.rerank` on, the real chat reranker over the same model, as the wiring builds it."""
    cfg = OllamaConfig(url=ollama_url, chat_model=chat_model, read_timeout_s=read_timeout_s)
    if answer_tokens is not None:
        cfg = dataclasses.replace(cfg, answer_tokens=answer_tokens)
    chat = OllamaChatModel(cfg)
    params = retrieval or RetrievalParams()
    reranker = ChatReranker.from_params(chat, params) if params.rerank else None
    try:
        yield AnswerPipeline(
            searcher, chat, PromptParams(), params, tracer=tracer, reranker=reranker, calibration=calibration
        )
    finally:
        await chat.aclose()
