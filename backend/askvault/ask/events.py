"""The typed events an answer streams (retrieval → token* → done | error); `askvault.wire.events` shapes them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from askvault.ask.relevance import RelevanceDecision
from askvault.ask.rerank import RerankReport
from askvault.model import DateScopeReport, Hit, Message, TermStat
from askvault.safety.answer import Neutralised


@dataclass(frozen=True, slots=True)
class SourceRef:
    """One entry of the fused ranking; `n` is its [n] in the prompt, None when it was not sent."""

    n: int | None
    hit: Hit

    @property
    def sent(self) -> bool:
        return self.n is not None


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


@dataclass(frozen=True, slots=True)
class TokenEvent:
    """Answer text as the model wrote it: clients render the stream by the same rules as `askvault.safety`, and
    the done or error event that ends it carries the inert text to keep (`safety.partial.AnswerSoFar`)."""

    type: ClassVar[Literal["token"]] = "token"
    text: str


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


@dataclass(frozen=True, slots=True)
class DoneEvent:
    type: ClassVar[Literal["done"]] = "done"
    answer: str
    """The whole answer made inert (`AnswerSoFar.final`): what a client keeps and renders."""
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


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    """A failure after retrieval; `code` is the error's API code, `partial` the text that arrived before it."""

    type: ClassVar[Literal["error"]] = "error"
    code: str
    message: str
    partial: str
    """Already inert (`AnswerSoFar.partial`, the partial-answer rule): serialised as it is, never neutralised again."""


AskEvent = RetrievalEvent | TokenEvent | DoneEvent | ErrorEvent
