"""The optional reranker: a chat model reorders the top fused candidates; any failure keeps the fused order."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from askvault.config import RetrievalParams
from askvault.errors import ModelError, ModelTimeout
from askvault.generate.protocol import StructuredChat
from askvault.generate.rerank_prompt import (
    FallbackReason,
    RankingCheck,
    build_rerank_messages,
    candidate_ids,
    check_ranking,
    ranking_schema,
)
from askvault.model import Hit
from askvault.retrieve.timing import METRIC_DIGITS, elapsed_ms

log = logging.getLogger(__name__)

MIN_CANDIDATES = 2
"""Fewer than this and there is nothing to reorder: no model call."""


@dataclass(frozen=True, slots=True)
class RerankReport:
    """What the reranker did for one question (the retrieval event's `rerank` object, docs/api.md)."""

    applied: bool
    """True when the model's order was used (it may equal the fused order: see `order_changed`)."""
    model: str
    candidates: int
    """How many top fused chunks were offered (ids c1…cN in fused order)."""
    fallback_reason: FallbackReason | None
    detail: str | None
    """A readable line for the fallback (never the model's raw reply or note text)."""
    ms: float
    order_changed: bool
    omitted: int
    """Candidates a partial ranking left out; they follow in fused order."""
    fused_order: tuple[str, ...]
    """The candidates' chunk ids in fused order, so a client can show each chunk's place before reranking."""


@dataclass(frozen=True, slots=True)
class Reranked:
    hits: tuple[Hit, ...]
    """Every hit passed in: the reranked candidates first, then the rest in fused order."""
    report: RerankReport


class Reranker(Protocol):
    @property
    def model(self) -> str: ...

    async def rerank(self, question: str, hits: Sequence[Hit]) -> Reranked:
        """Reorders the top candidates of `hits` (best first). Never raises for a model failure: the fused
        order comes back with `report.fallback_reason` set."""
        ...


class ChatReranker:
    """Reranker over a `StructuredChat` (Ollama's `format` schema), bounded by a timeout."""

    def __init__(self, chat: StructuredChat, candidates: int = 12, excerpt_chars: int = 600, timeout_s: float = 20.0):
        self._chat = chat
        self._candidates = candidates
        self._excerpt_chars = excerpt_chars
        self._timeout_s = timeout_s

    @classmethod
    def from_params(cls, chat: StructuredChat, params: RetrievalParams) -> ChatReranker:
        return cls(chat, params.rerank_candidates, params.rerank_excerpt_chars, params.rerank_timeout_s)

    @property
    def model(self) -> str:
        return self._chat.model

    async def rerank(self, question: str, hits: Sequence[Hit]) -> Reranked:
        started = time.perf_counter()
        top = list(hits[: self._candidates])
        fused_order = tuple(hit.chunk.id for hit in top)
        if len(top) < MIN_CANDIDATES:
            detail = f"{len(top)} candidate(s): nothing to reorder"
            return self._fallback(hits, fused_order, "too_few_candidates", detail, started)
        ids = candidate_ids(len(top))
        messages = build_rerank_messages(question, top, self._excerpt_chars)
        try:
            async with asyncio.timeout(self._timeout_s):
                reply = await self._chat.complete_json(messages, ranking_schema(ids))
        except (TimeoutError, ModelTimeout):
            detail = f"no ranking within {self._timeout_s:g} s"
            return self._fallback(hits, fused_order, "timeout", detail, started)
        except ModelError as exc:
            return self._fallback(hits, fused_order, "model_error", exc.message, started)
        check: RankingCheck = check_ranking(reply, ids)
        if check.order is None:
            assert check.reason is not None
            return self._fallback(hits, fused_order, check.reason, check.detail, started)
        ranked = [top[i] for i in check.order]
        report = RerankReport(
            applied=True,
            model=self.model,
            candidates=len(top),
            fallback_reason=None,
            detail=None,
            ms=elapsed_ms(started, METRIC_DIGITS),
            order_changed=list(check.order) != list(range(len(top))),
            omitted=check.omitted,
            fused_order=fused_order,
        )
        return Reranked(hits=(*ranked, *hits[len(top) :]), report=report)

    def _fallback(
        self,
        hits: Sequence[Hit],
        fused_order: tuple[str, ...],
        reason: FallbackReason,
        detail: str | None,
        started: float,
    ) -> Reranked:
        if reason != "too_few_candidates":
            log.info("reranking fell back to the fused order: %s (%s)", reason, detail)
        report = RerankReport(
            applied=False,
            model=self.model,
            candidates=len(fused_order),
            fallback_reason=reason,
            detail=detail,
            ms=elapsed_ms(started, METRIC_DIGITS),
            order_changed=False,
            omitted=0,
            fused_order=fused_order,
        )
        return Reranked(hits=tuple(hits), report=report)
