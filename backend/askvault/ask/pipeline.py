"""The answer pipeline the sidecar, the CLI and the MCP server share: rewrite, retrieve, prompt, stream, cite."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import AsyncGenerator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field

from askvault.ask.events import AskEvent, DoneEvent, Metrics, RetrievalEvent, SourceRef, TokenEvent
from askvault.ask.generation import generate_answer
from askvault.ask.relevance import FALLBACK, Calibration, RelevanceDecision, decide, relevance_signals
from askvault.ask.rerank import Reranker, RerankReport
from askvault.ask.rewrite import Rewrite, rewrite_question
from askvault.ask.tracing import NoopTracer, Tracer, safe_record
from askvault.config import PromptParams, RetrievalParams
from askvault.errors import BadRequest
from askvault.generate.prompt import Prompt, bound_history, build_prompt
from askvault.generate.protocol import ChatModel
from askvault.model import Hit, Message, Scalar, SearchFilters, SearchResult
from askvault.retrieve.protocol import Searcher
from askvault.retrieve.timing import METRIC_DIGITS, AnswerTimings, elapsed_ms
from askvault.retrieve.trace import SearchTrace

log = logging.getLogger(__name__)

NO_RESULTS_ANSWER = "I couldn't find anything about this in your vault."
NOT_COVERED_ANSWER = (
    "Your notes don't seem to cover this, so no model was asked. The closest notes are listed below, not used."
)
MAX_K = 50
CLOSEST_NOTES = 5
"""How many notes an abstention lists as closest."""


def is_relevant(hit: Hit, min_dense_score: float) -> bool:
    """Found by keyword search, or a dense hit at least `min_dense_score` similar.

    A dense hit whose score the searcher did not report counts as found: without a score we cannot tell,
    and wrongly answering "nothing found" is worse than one model call on weak sources.
    """
    if hit.keyword_rank is not None:
        return True
    return hit.dense_rank is not None and (hit.dense_score is None or hit.dense_score >= min_dense_score)


def closest_notes(hits: Sequence[Hit], limit: int = CLOSEST_NOTES) -> tuple[SourceRef, ...]:
    """The best chunk of each of the first `limit` notes of the ranking, none of them sent."""
    seen: set[str] = set()
    closest: list[SourceRef] = []
    for hit in hits:
        if hit.chunk.path in seen:
            continue
        seen.add(hit.chunk.path)
        closest.append(SourceRef(None, hit))
        if len(closest) == limit:
            break
    return tuple(closest)


@dataclass(frozen=True, slots=True)
class Retrieval:
    """One question's retrieval step, as the answer uses it (and an explanation reads it)."""

    question: str
    rewrite: Rewrite
    result: SearchResult
    """The search as it came back: `hits` is the fused ranking's first `fetch` (≥ `want`)."""
    want: int
    """How many sources were asked for (`k`, else `retrieval.top_k`)."""
    ranked: list[Hit]
    """The first `want` hits after reranking (the fused order without it): the sources the answer considers."""
    decision: RelevanceDecision
    timings: AnswerTimings
    """The search's time as the answer's metrics report it (embedding, the rest)."""
    relevant: list[Hit] = field(default_factory=list)
    """The ranked hits that could be sent (`is_relevant`), offered to the prompt; empty on an abstention."""
    rerank: RerankReport | None = None
    reordered: tuple[str, ...] | None = None
    """Every hit's id in the reranked order, when the reranker ran; None otherwise."""
    prompt: Prompt | None = None
    """None when nothing goes to the model (abstention, or nothing relevant)."""
    closest: tuple[SourceRef, ...] = ()
    """On an abstention: the closest notes, none of them sent."""

    @property
    def sent(self) -> list[Hit]:
        """The hits in the prompt, in order: sent[i] is source [i + 1]."""
        return list(self.prompt.sent) if self.prompt is not None else []


class AnswerPipeline:
    """Answers one question at a time from the vault; safe to share between concurrent questions."""

    def __init__(
        self,
        searcher: Searcher,
        chat: ChatModel,
        prompt: PromptParams,
        retrieval: RetrievalParams,
        *,
        tracer: Tracer | None = None,
        rewrite_timeout_s: float = 30.0,
        reranker: Reranker | None = None,
        calibration: Calibration = FALLBACK,
    ) -> None:
        self._searcher = searcher
        self._chat = chat
        self._prompt = prompt
        self._retrieval = retrieval
        self._tracer: Tracer = tracer or NoopTracer()
        self._rewrite_timeout_s = rewrite_timeout_s
        self._reranker = reranker
        """None: no reranking (the default); wiring passes one only when `retrieval.rerank` is on."""
        self._calibration = calibration
        """How this embedder's relevance signals are weighed (`relevance.calibration_for` in the wiring)."""

    async def run(
        self,
        question: str,
        history: Sequence[Message] = (),
        k: int | None = None,
        filters: SearchFilters | None = None,
        *,
        force: bool = False,
    ) -> AsyncGenerator[AskEvent, None]:
        """Yields one RetrievalEvent, zero or more TokenEvents, then one DoneEvent or ErrorEvent.

        Before any model sees the notes, the relevance decision (`ask.relevance`) asks whether they seem to cover
        the question; when not, no model is called (no rerank, no answer) and the closest notes are listed instead,
        unless `force` sends them anyway. A follow-up's rewrite still runs first: retrieval needs its query.

        Raises (before the first event, so an HTTP layer can still answer with a status) BadRequest for an
        empty question or k outside 1..50, and whatever the searcher raises (StoreError). After the first
        event nothing is raised: model failures become an ErrorEvent with their code and the partial answer made
        inert (`safety.partial`, the one rule for an answer cut short).
        Close the iterator (`contextlib.aclosing`) or cancel the task to stop generation upstream.
        """
        started = time.perf_counter()
        step = await self.retrieve(question, history, k, filters, force=force)
        timings = step.timings
        retrieval = self._retrieval_event(step)
        self._record_retrieval(step.result, retrieval, step.decision, step.rerank)
        yield retrieval

        prompt, closest = step.prompt, step.closest
        if prompt is None:
            text = NOT_COVERED_ANSWER if closest else NO_RESULTS_ANSWER
            yield TokenEvent(text)
            total = timings.total_ms(started)
            metrics = Metrics(timings.embed_ms, timings.retrieval_ms, None, None, total, None, None)
            yield DoneEvent(text, (), (), True, metrics)
            return

        # aclosing: when our consumer closes us, the inner generator (and with it the model stream) closes now,
        # not whenever the garbage collector gets to it.
        answer = generate_answer(self._chat, self._tracer, prompt, started, timings)
        async with aclosing(answer) as events:
            async for event in events:
                yield event

    async def retrieve(
        self,
        question: str,
        history: Sequence[Message] = (),
        k: int | None = None,
        filters: SearchFilters | None = None,
        *,
        force: bool = False,
        trace: SearchTrace | None = None,
    ) -> Retrieval:
        """The answer's retrieval step, everything before the answer model: rewrite, search, the relevance
        decision, reranking (when on) and the prompt. `run` streams from it; an explanation reads it, with a
        `trace` for the search (`retrieve.trace`). Raises as `run` does before its first event."""
        question = question.strip()
        if not question:
            raise BadRequest("question must not be empty")
        if k is not None and not 1 <= k <= MAX_K:
            raise BadRequest(f"k must be between 1 and {MAX_K}")
        turns = bound_history(history, self._prompt.max_history_turns)

        rewrite = await self._rewrite(question, turns)
        want = k or self._retrieval.top_k
        # The reranker sees the top `rerank_candidates` even when fewer sources were asked for.
        fetch = max(want, self._retrieval.rerank_candidates) if self._reranker is not None else want
        search_started = time.perf_counter()
        result = await self._searcher.search(rewrite.query, fetch, "hybrid", filters, trace=trace)
        timings = AnswerTimings.of_search(result.timings, search_started)

        # Judged on the first `want` hits whatever the reranker fetched, so the signals match a plain top-k search.
        ranked = result.hits[:want]
        decision = decide(relevance_signals(dataclasses.replace(result, hits=ranked)), self._calibration, force=force)
        step = Retrieval(question, rewrite, result, want, ranked, decision, timings)
        if not decision.answer:
            return dataclasses.replace(step, closest=closest_notes(ranked))
        ordered, rerank = await self._rerank(rewrite.query, result.hits)
        ranked = ordered[:want]
        relevant = [hit for hit in ranked if is_relevant(hit, self._retrieval.min_dense_score)]
        prompt = build_prompt(question, relevant, self._prompt, turns) if relevant else None
        reordered = tuple(hit.chunk.id for hit in ordered) if rerank is not None else None
        return dataclasses.replace(
            step, ranked=ranked, relevant=relevant, rerank=rerank, reordered=reordered, prompt=prompt
        )

    def _record_retrieval(
        self,
        result: SearchResult,
        retrieval: RetrievalEvent,
        decision: RelevanceDecision,
        rerank: RerankReport | None,
    ) -> None:
        safe_record(
            self._tracer,
            "retrieval",
            {
                "hits": len(result.hits),
                "relevant": sum(is_relevant(s.hit, self._retrieval.min_dense_score) for s in retrieval.sources),
                "sent": len(retrieval.sent),
                "dense_available": result.dense_available,
                "embed_ms": retrieval.embed_ms,
                "retrieval_ms": retrieval.retrieval_ms,
                "relevance_answer": decision.answer,
                "relevance_score": round(decision.score, 4),
                "relevance_forced": decision.forced,
            },
        )
        if rerank is not None:
            attributes: dict[str, Scalar] = {
                "applied": rerank.applied,
                "fallback_reason": rerank.fallback_reason,
                "candidates": rerank.candidates,
                "order_changed": rerank.order_changed,
                "ms": rerank.ms,
            }
            safe_record(self._tracer, "rerank", attributes)

    async def _rerank(self, query: str, hits: Sequence[Hit]) -> tuple[list[Hit], RerankReport | None]:
        """Every hit, the reranked relevant candidates first, then the rest in fused order (the caller cuts it).

        Only hits that could be sent are offered, and with none there is no model call (no retrieval, no call).
        """
        relevant = [hit for hit in hits if is_relevant(hit, self._retrieval.min_dense_score)]
        if self._reranker is None or not relevant:
            return list(hits), None
        reranked = await self._reranker.rerank(query, relevant)
        placed = {hit.chunk.id for hit in reranked.hits}
        ordered = [*reranked.hits, *(hit for hit in hits if hit.chunk.id not in placed)]
        return ordered, reranked.report

    async def _rewrite(self, question: str, turns: list[Message]) -> Rewrite:
        began = time.perf_counter()
        rewrite = await rewrite_question(self._chat, question, turns, self._rewrite_timeout_s)
        if turns:
            took = elapsed_ms(began, METRIC_DIGITS)
            attributes = {"rewritten": rewrite.rewritten, "used_model": rewrite.used_model, "ms": took}
            safe_record(self._tracer, "rewrite", attributes)
        return rewrite

    def _retrieval_event(self, step: Retrieval) -> RetrievalEvent:
        """Sources: the sent ones in prompt order, then the rest of the ranking (all of it when nothing was sent)."""
        prompt, result = step.prompt, step.result
        sent = prompt.sent if prompt is not None else ()
        sent_ids = {hit.chunk.id for hit in sent}
        sources = [SourceRef(n, hit) for n, hit in enumerate(sent, start=1)]
        sources += [SourceRef(None, hit) for hit in step.ranked if hit.chunk.id not in sent_ids]
        return RetrievalEvent(
            question=step.question,
            query=step.rewrite.query,
            rewritten=step.rewrite.rewritten,
            terms=tuple(result.terms),
            counts=dict(result.counts),
            sources=tuple(sources),
            prompt=tuple(prompt.messages) if prompt is not None else (),
            embed_ms=step.timings.embed_ms,
            retrieval_ms=step.timings.retrieval_ms,
            rerank=step.rerank,
            date_scope=result.date_scope,
            relevance=step.decision,
            closest=step.closest,
        )
