"""The answer pipeline the sidecar, the CLI and the MCP server share: rewrite, retrieve, prompt, stream, cite."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncGenerator, Sequence
from contextlib import aclosing

from askvault.ask.events import AskEvent, DoneEvent, ErrorEvent, Metrics, RetrievalEvent, SourceRef, TokenEvent
from askvault.ask.rerank import Reranker, RerankReport
from askvault.ask.rewrite import Rewrite, rewrite_question
from askvault.ask.tracing import NoopTracer, Tracer, safe_record
from askvault.config import PromptParams, RetrievalParams
from askvault.errors import BadRequest, ModelError, ModelStreamBroken
from askvault.generate.answer_safety import neutralise_answer
from askvault.generate.citations import check_citations
from askvault.generate.prompt import Prompt, bound_history, build_prompt
from askvault.generate.protocol import ChatDone, ChatModel
from askvault.model import Hit, Message, Scalar, SearchFilters, SearchResult
from askvault.retrieve.protocol import Searcher

log = logging.getLogger(__name__)

NO_RESULTS_ANSWER = "I couldn't find anything about this in your vault."
MAX_K = 50


def is_relevant(hit: Hit, min_dense_score: float) -> bool:
    """Found by keyword search, or a dense hit at least `min_dense_score` similar.

    A dense hit whose score the searcher did not report counts as found: without a score we cannot tell,
    and wrongly answering "nothing found" is worse than one model call on weak sources.
    """
    if hit.keyword_rank is not None:
        return True
    return hit.dense_rank is not None and (hit.dense_score is None or hit.dense_score >= min_dense_score)


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 1)


def split_search_timings(result: SearchResult, observed_s: float) -> tuple[float, float]:
    """(embed_ms, retrieval_ms) from the searcher's own timings; retrieval excludes embedding.

    Never more than the pipeline observed around the call, so the metrics' parts cannot exceed the total.
    """
    observed = _ms(observed_s)
    total = min(max(result.timings_ms.get("total", observed), 0.0), observed)
    embed = min(max(result.timings_ms.get("embed", 0.0), 0.0), total)
    return round(embed, 1), round(total - embed, 1)


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
    ) -> None:
        self._searcher = searcher
        self._chat = chat
        self._prompt = prompt
        self._retrieval = retrieval
        self._tracer: Tracer = tracer or NoopTracer()
        self._rewrite_timeout_s = rewrite_timeout_s
        self._reranker = reranker
        """None: no reranking (the default); wiring passes one only when `retrieval.rerank` is on."""

    async def run(
        self,
        question: str,
        history: Sequence[Message] = (),
        k: int | None = None,
        filters: SearchFilters | None = None,
    ) -> AsyncGenerator[AskEvent, None]:
        """Yields one RetrievalEvent, zero or more TokenEvents, then one DoneEvent or ErrorEvent.

        Raises (before the first event, so an HTTP layer can still answer with a status) BadRequest for an
        empty question or k outside 1..50, and whatever the searcher raises (StoreError). After the first
        event nothing is raised: model failures become an ErrorEvent with their code and the partial text.
        Close the iterator (`contextlib.aclosing`) or cancel the task to stop generation upstream.
        """
        started = time.perf_counter()
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
        result = await self._searcher.search(rewrite.query, fetch, "hybrid", filters)
        embed_ms, retrieval_ms = split_search_timings(result, time.perf_counter() - search_started)

        hits, rerank = await self._rerank(rewrite.query, result.hits, want)
        relevant = [hit for hit in hits if is_relevant(hit, self._retrieval.min_dense_score)]
        prompt = build_prompt(question, relevant, self._prompt, turns) if relevant else None
        retrieval = self._retrieval_event(question, rewrite, result, hits, prompt, embed_ms, retrieval_ms, rerank)
        safe_record(
            self._tracer,
            "retrieval",
            {
                "hits": len(result.hits),
                "relevant": len(relevant),
                "sent": len(retrieval.sent),
                "dense_available": result.dense_available,
                "embed_ms": embed_ms,
                "retrieval_ms": retrieval_ms,
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
        yield retrieval

        if prompt is None:
            yield TokenEvent(NO_RESULTS_ANSWER)
            total = max(_ms(time.perf_counter() - started), round(embed_ms + retrieval_ms, 1))
            metrics = Metrics(embed_ms, retrieval_ms, None, None, total, None, None)
            yield DoneEvent(NO_RESULTS_ANSWER, (), (), True, metrics)
            return

        # aclosing: when our consumer closes us, the inner generator (and with it the model stream) closes now,
        # not whenever the garbage collector gets to it.
        async with aclosing(self._generate(prompt, started, embed_ms, retrieval_ms)) as events:
            async for event in events:
                yield event

    async def _rerank(self, query: str, hits: Sequence[Hit], want: int) -> tuple[list[Hit], RerankReport | None]:
        """The hits to use (at most `want`): the reranked relevant candidates first, then the rest in fused order.

        Only hits that could be sent are offered, and with none there is no model call (no retrieval, no call).
        """
        relevant = [hit for hit in hits if is_relevant(hit, self._retrieval.min_dense_score)]
        if self._reranker is None or not relevant:
            return list(hits[:want]), None
        reranked = await self._reranker.rerank(query, relevant)
        placed = {hit.chunk.id for hit in reranked.hits}
        ordered = [*reranked.hits, *(hit for hit in hits if hit.chunk.id not in placed)]
        return ordered[:want], reranked.report

    async def _rewrite(self, question: str, turns: list[Message]) -> Rewrite:
        began = time.perf_counter()
        rewrite = await rewrite_question(self._chat, question, turns, self._rewrite_timeout_s)
        if turns:
            took = _ms(time.perf_counter() - began)
            attributes = {"rewritten": rewrite.rewritten, "used_model": rewrite.used_model, "ms": took}
            safe_record(self._tracer, "rewrite", attributes)
        return rewrite

    def _retrieval_event(
        self,
        question: str,
        rewrite: Rewrite,
        result: SearchResult,
        hits: Sequence[Hit],
        prompt: Prompt | None,
        embed_ms: float,
        retrieval_ms: float,
        rerank: RerankReport | None,
    ) -> RetrievalEvent:
        sources: list[SourceRef] = []
        if prompt is not None:
            sent_ids = {hit.chunk.id for hit in prompt.sent}
            sources = [SourceRef(n, hit) for n, hit in enumerate(prompt.sent, start=1)]
            sources += [SourceRef(None, hit) for hit in hits if hit.chunk.id not in sent_ids]
        return RetrievalEvent(
            question=question,
            query=rewrite.query,
            rewritten=rewrite.rewritten,
            terms=tuple(result.terms),
            counts=dict(result.counts),
            sources=tuple(sources),
            prompt=tuple(prompt.messages) if prompt is not None else (),
            embed_ms=embed_ms,
            retrieval_ms=retrieval_ms,
            rerank=rerank,
            date_scope=result.date_scope,
        )

    async def _generate(
        self, prompt: Prompt, started: float, embed_ms: float, retrieval_ms: float
    ) -> AsyncGenerator[AskEvent, None]:
        parts: list[str] = []
        first_token_ms: float | None = None
        done: ChatDone | None = None
        generation_started = time.perf_counter()
        stream = self._chat.stream(prompt.messages)
        try:
            async for event in stream:
                if isinstance(event, ChatDone):
                    done = event
                    break
                if not event.text:
                    continue
                if first_token_ms is None:
                    first_token_ms = _ms(time.perf_counter() - generation_started)
                parts.append(event.text)
                yield TokenEvent(event.text)
            if done is None:
                raise ModelStreamBroken("The model's answer ended without its closing message")
        except ModelError as exc:
            safe_record(self._tracer, "error", {"code": exc.code, "partial_chars": len("".join(parts))})
            yield ErrorEvent(exc.code, exc.message, neutralise_answer("".join(parts)).text)
            return
        except Exception:
            # The stream is already committed; an unexpected failure still ends it with a proper event.
            log.exception("answer generation failed unexpectedly")
            safe_record(self._tracer, "error", {"code": "internal", "partial_chars": len("".join(parts))})
            partial = neutralise_answer("".join(parts)).text
            yield ErrorEvent("internal", "Generating the answer failed unexpectedly", partial)
            return
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()

        generation_ms = _ms(time.perf_counter() - generation_started)
        answer = "".join(parts)
        # Tokens stream as the model wrote them; the final answer is what a client should keep and render.
        safe = neutralise_answer(answer)
        answer = safe.text
        cited = check_citations(answer, len(prompt.sent))
        total = max(_ms(time.perf_counter() - started), round(embed_ms + retrieval_ms + generation_ms, 1))
        metrics = Metrics(
            embed_ms=embed_ms,
            retrieval_ms=retrieval_ms,
            first_token_ms=first_token_ms,
            generation_ms=generation_ms,
            total_ms=total,
            prompt_tokens=done.prompt_tokens,
            completion_tokens=done.completion_tokens,
        )
        safe_record(
            self._tracer,
            "generation",
            {
                "first_token_ms": first_token_ms,
                "generation_ms": generation_ms,
                "prompt_tokens": done.prompt_tokens,
                "completion_tokens": done.completion_tokens,
                "done_reason": done.done_reason,
                "citations": len(cited.valid),
                "invalid_citations": len(cited.invalid),
            },
        )
        yield DoneEvent(answer, cited.valid, cited.invalid, False, metrics, safe.neutralised)
