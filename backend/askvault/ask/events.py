"""The typed events an answer streams (retrieval → token* → done | error), each with its docs/api.md JSON shape."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from askvault.ask.relevance import RelevanceDecision
from askvault.ask.rerank import RerankReport
from askvault.generate.answer_safety import Neutralised
from askvault.model import DateScopeReport, Hit, Message, TermStat
from askvault.retrieve.jsonshape import date_scope_to_json

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject = dict[str, JsonValue]


@dataclass(frozen=True, slots=True)
class SourceRef:
    """One entry of the fused ranking; `n` is its [n] in the prompt, None when it was not sent."""

    n: int | None
    hit: Hit

    @property
    def sent(self) -> bool:
        return self.n is not None

    def to_json(self) -> JsonObject:
        chunk = self.hit.chunk
        shape: JsonObject = {
            "n": self.n,
            "id": chunk.id,
            "path": chunk.path,
            "title": chunk.title,
            "heading_path": list(chunk.heading_path),
            "start_line": chunk.start_line,
            "end_line": chunk.end_line,
            "text": chunk.text,
            "dense_rank": self.hit.dense_rank,
            "keyword_rank": self.hit.keyword_rank,
            "fused_score": self.hit.fused_score,
            "dense_score": _rounded(self.hit.dense_score),
            "keyword_score": _rounded(self.hit.keyword_score),
            "sent": self.sent,
        }
        if self.hit.boosts:
            # As in /api/search: present only when a query-side boost moved this source.
            shape["boosts"] = list(self.hit.boosts)
        return shape


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def relevance_json(decision: RelevanceDecision) -> JsonObject:
    """The retrieval event's `relevance` object (docs/api.md)."""
    signals = decision.signals
    return {
        "answer": decision.answer,
        "score": round(decision.score, 4),
        "threshold": decision.threshold,
        "signals": {
            "top_dense": _rounded(signals.top_dense),
            "keyword_strength": _rounded(signals.keyword_strength),
            "term_coverage": _rounded(signals.term_coverage),
            "legs_agree": signals.legs_agree,
            "dense_gap": _rounded(signals.dense_gap),
            "dense_available": signals.dense_available,
        },
        "calibration": {"model": decision.calibration_model, "source": decision.calibration_source},
        "forced": decision.forced,
        "reason": decision.reason,
    }


def rerank_json(report: RerankReport) -> JsonObject:
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


@dataclass(frozen=True, slots=True)
class RetrievalEvent:
    """What was found and what was sent, before any token: citations can resolve while the answer streams."""

    type: ClassVar[Literal["retrieval"]] = "retrieval"
    question: str
    query: str
    """What retrieval searched for: the standalone rewrite of a follow-up, else the question."""
    rewritten: bool
    terms: tuple[TermStat, ...]
    counts: Mapping[str, int]
    sources: tuple[SourceRef, ...]
    """Sent sources first in prompt order, then the rest of the fused ranking."""
    prompt: tuple[Message, ...]
    """The exact messages the model receives; empty when no model is called."""
    embed_ms: float
    retrieval_ms: float
    rerank: RerankReport | None = None
    """What the reranker did; None when reranking is off (or nothing was found, so nothing was reranked)."""
    date_scope: DateScopeReport | None = None
    """The question's date phrase and whether retrieval applied it (null when none was used)."""
    relevance: RelevanceDecision | None = None
    """Whether the notes seemed to cover the question, and so went to the model (None only from old callers)."""
    closest: tuple[SourceRef, ...] = ()
    """When the decision kept the notes back: the best chunk of each of the closest notes, none of them sent."""

    @property
    def sent(self) -> tuple[str, ...]:
        return tuple(s.hit.chunk.id for s in self.sources if s.sent)

    def to_json(self) -> JsonObject:
        return {
            "type": self.type,
            "question": self.question,
            "query": self.query,
            "rewritten": self.rewritten,
            "terms": [{"term": t.term, "df": t.df, "idf": t.idf} for t in self.terms],
            "counts": dict(self.counts),
            "sources": [s.to_json() for s in self.sources],
            "sent": list(self.sent),
            "prompt": [{"role": m.role, "content": m.content} for m in self.prompt],
            "timings_ms": {"embed": self.embed_ms, "retrieval": self.retrieval_ms},
            "rerank": rerank_json(self.rerank) if self.rerank is not None else None,
            "date_scope": self._date_scope_json(),
            "relevance": relevance_json(self.relevance) if self.relevance is not None else None,
            "closest": [s.to_json() for s in self.closest],
        }

    def _date_scope_json(self) -> JsonObject | None:
        shape = date_scope_to_json(self.date_scope)
        return None if shape is None else dict(shape)


@dataclass(frozen=True, slots=True)
class TokenEvent:
    type: ClassVar[Literal["token"]] = "token"
    text: str

    def to_json(self) -> JsonObject:
        return {"type": self.type, "text": self.text}


@dataclass(frozen=True, slots=True)
class Metrics:
    """Where the time and tokens went. Generation figures are None when no model was called."""

    embed_ms: float
    retrieval_ms: float
    """Search time without embedding the query."""
    first_token_ms: float | None
    """From the start of generation to the first text."""
    generation_ms: float | None
    total_ms: float
    """The whole question, from the call to the last event; never less than its reported parts."""
    prompt_tokens: int | None
    completion_tokens: int | None

    def to_json(self) -> JsonObject:
        return {
            "embed_ms": self.embed_ms,
            "retrieval_ms": self.retrieval_ms,
            "first_token_ms": self.first_token_ms,
            "generation_ms": self.generation_ms,
            "total_ms": self.total_ms,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


@dataclass(frozen=True, slots=True)
class DoneEvent:
    type: ClassVar[Literal["done"]] = "done"
    answer: str
    citations: tuple[int, ...]
    invalid_citations: tuple[int, ...]
    no_results: bool
    metrics: Metrics
    neutralised: tuple[Neutralised, ...] = ()
    """What `neutralise_answer` took out of `answer` (remote images, external links, HTML, runnable code)."""
    done_reason: str | None = None
    """Why the model stopped, as Ollama says it ("stop", or "length" at the token cap), or "repetition" when
    the sidecar stopped a model repeating itself; None when no model was called or it did not say."""

    @property
    def truncated(self) -> bool:
        """The answer was cut (length limit, or a loop stopped), not ended by the model: it may stop mid-sentence."""
        return self.done_reason in ("length", "repetition")

    def to_json(self) -> JsonObject:
        return {
            "type": self.type,
            "answer": self.answer,
            "citations": list(self.citations),
            "invalid_citations": list(self.invalid_citations),
            "no_results": self.no_results,
            "sanitized_answer": bool(self.neutralised),
            "neutralised": [{"kind": n.kind, "target": n.target} for n in self.neutralised],
            "done_reason": self.done_reason,
            "truncated": self.truncated,
            "metrics": self.metrics.to_json(),
        }


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    """A failure after retrieval; `code` is the error's API code, `partial` the text that arrived before it."""

    type: ClassVar[Literal["error"]] = "error"
    code: str
    message: str
    partial: str

    def to_json(self) -> JsonObject:
        return {"type": self.type, "code": self.code, "message": self.message, "partial": self.partial}


AskEvent = RetrievalEvent | TokenEvent | DoneEvent | ErrorEvent
