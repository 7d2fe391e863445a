"""The answer stream's events → their NDJSON lines (docs/api.md, `POST /api/ask`), which the API, MCP and CLI share."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import cast

from askvault.ask.events import AskEvent, DoneEvent, Metrics, RetrievalEvent, SourceRef, TokenEvent
from askvault.ask.relevance import RelevanceDecision
from askvault.ask.rerank import RerankReport
from askvault.wire.search import date_scope_to_json, hit_to_json, term_to_json

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject = dict[str, JsonValue]


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def source_to_json(source: SourceRef) -> JsonObject:
    """One source of the retrieval event: the search hit's shape, with its [n], both scores and whether it was
    sent; `boosts`, `noise` and `via` stay last and present only when set, as in /api/search."""
    hit = cast(JsonObject, hit_to_json(source.hit))
    optional: JsonObject = {key: hit.pop(key) for key in ("boosts", "noise", "via") if key in hit}
    return {
        "n": source.n,
        **hit,
        "dense_score": rounded(source.hit.dense_score),
        "keyword_score": rounded(source.hit.keyword_score),
        "sent": source.sent,
        **optional,
    }


def relevance_to_json(decision: RelevanceDecision) -> JsonObject:
    """The retrieval event's (and /api/explain's) `relevance` object."""
    signals = decision.signals
    return {
        "answer": decision.answer,
        "score": round(decision.score, 4),
        "threshold": decision.threshold,
        "signals": {
            "top_dense": rounded(signals.top_dense),
            "keyword_strength": rounded(signals.keyword_strength),
            "term_coverage": rounded(signals.term_coverage),
            "legs_agree": signals.legs_agree,
            "dense_gap": rounded(signals.dense_gap),
            "dense_available": signals.dense_available,
        },
        "calibration": {"model": decision.calibration_model, "source": decision.calibration_source},
        "forced": decision.forced,
        "reason": decision.reason,
    }


def rerank_to_json(report: RerankReport) -> JsonObject:
    return {
        "applied": report.applied,
        "model": report.model,
        "candidates": report.candidates,
        "fallback_reason": report.fallback_reason,
        "detail": report.detail,
        "ms": report.ms,
        "order_changed": report.order_changed,
        "omitted": report.omitted,
        "fused_order": list(report.fused_order),
    }


def retrieval_to_json(event: RetrievalEvent) -> JsonObject:
    scope = date_scope_to_json(event.date_scope)
    return {
        "type": event.type,
        "question": event.question,
        "query": event.query,
        "rewritten": event.rewritten,
        "terms": [cast(JsonObject, term_to_json(t)) for t in event.terms],
        "counts": dict(event.counts),
        "sources": [source_to_json(s) for s in event.sources],
        "sent": list(event.sent),
        "prompt": [{"role": m.role, "content": m.content} for m in event.prompt],
        "timings_ms": {"embed": event.embed_ms, "retrieval": event.retrieval_ms},
        "rerank": rerank_to_json(event.rerank) if event.rerank is not None else None,
        "date_scope": None if scope is None else dict(scope),
        "relevance": relevance_to_json(event.relevance) if event.relevance is not None else None,
        "closest": [source_to_json(s) for s in event.closest],
    }


def metrics_to_json(metrics: Metrics) -> JsonObject:
    return {
        "embed_ms": metrics.embed_ms,
        "retrieval_ms": metrics.retrieval_ms,
        "first_token_ms": metrics.first_token_ms,
        "generation_ms": metrics.generation_ms,
        "total_ms": metrics.total_ms,
        "prompt_tokens": metrics.prompt_tokens,
        "completion_tokens": metrics.completion_tokens,
    }


def done_to_json(event: DoneEvent) -> JsonObject:
    return {
        "type": event.type,
        "answer": event.answer,
        "citations": list(event.citations),
        "invalid_citations": list(event.invalid_citations),
        "no_results": event.no_results,
        "sanitized_answer": bool(event.neutralised),
        "neutralised": [{"kind": n.kind, "target": n.target} for n in event.neutralised],
        "done_reason": event.done_reason,
        "truncated": event.truncated,
        "metrics": metrics_to_json(event.metrics),
    }


def event_to_json(event: AskEvent) -> JsonObject:
    """The NDJSON line's object of one event (it carries its own `type`)."""
    if isinstance(event, RetrievalEvent):
        return retrieval_to_json(event)
    if isinstance(event, TokenEvent):
        return {"type": event.type, "text": event.text}
    if isinstance(event, DoneEvent):
        return done_to_json(event)
    return {"type": event.type, "code": event.code, "message": event.message, "partial": event.partial}


async def event_lines(events: AsyncGenerator[AskEvent, None]) -> AsyncGenerator[JsonObject, None]:
    """The events as lines; closing this closes `events`, which stops the model upstream."""
    async with aclosing(events) as opened:
        async for event in opened:
            yield event_to_json(event)
