"""Why a note was or was not used for a question: the answer's own retrieval step, traced, read for one note.

No second search and no re-implementation: `Explainer` runs `AnswerPipeline.retrieve` (rewrite, the hybrid
search, the relevance decision, reranking when on, the prompt) with a `SearchTrace`, and reads the note's
places off what that one call saw. No answer model is called.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from askvault.ask.explain_reasons import Factor, Placement, factors_for, summary_for
from askvault.ask.pipeline import AnswerPipeline, Retrieval
from askvault.ask.relevance import RelevanceDecision
from askvault.config import PromptParams
from askvault.model import ChunkInfo, Hit, NoteStatus, SearchFilters
from askvault.retrieve.trace import SearchTrace


@dataclass(frozen=True, slots=True)
class LegEntry:
    """A note's best chunk in one ranking: its 1-based rank there and that ranking's score."""

    chunk: ChunkInfo
    rank: int
    score: float


@dataclass(frozen=True, slots=True)
class Explanation:
    """What `POST /api/explain` answers (docs/api.md); `askvault.wire.explain` shapes it."""

    question: str
    status: NoteStatus
    sent: bool
    summary: str
    dense: LegEntry | None
    keyword: LegEntry | None
    fused: LegEntry | None
    matched: tuple[str, ...]
    missing: tuple[str, ...]
    k: int
    sent_count: int
    last_score: float | None
    dense_available: bool
    factors: tuple[Factor, ...]
    decision: RelevanceDecision


def _best_in_leg(trace: SearchTrace, note: str, leg: str) -> LegEntry | None:
    ranked = trace.dense if leg == "dense" else trace.keyword
    for rank, entry in enumerate(ranked, start=1):
        chunk = trace.chunks.get(entry.chunk_id)
        if chunk is not None and chunk.path == note and entry.chunk_id not in trace.hidden:
            return LegEntry(chunk, rank, entry.score)
    return None


def _best_fused(trace: SearchTrace, note: str) -> LegEntry | None:
    for rank, hit in enumerate(trace.fused, start=1):
        if hit.chunk.path == note:
            return LegEntry(hit.chunk, rank, hit.fused_score)
    return None


def _first(hits: list[Hit], note: str) -> int | None:
    """The 1-based place of the note's first chunk among `hits`."""
    return next((n for n, hit in enumerate(hits, start=1) if hit.chunk.path == note), None)


def explain_note(step: Retrieval, trace: SearchTrace, status: NoteStatus, prompt: PromptParams) -> Explanation:
    """Reads one note's places off a traced retrieval step; pure. A note that is not indexed gets no entries,
    whatever the index still holds of it: an excluded note's chunks are never described."""
    note = status.path
    terms = list(dict.fromkeys(term.term for term in step.result.terms))
    indexed = status.state == "indexed"
    dense = _best_in_leg(trace, note, "dense") if indexed else None
    keyword = _best_in_leg(trace, note, "keyword") if indexed else None
    fused = _best_fused(trace, note) if indexed else None
    held = trace.note_terms if indexed else frozenset()
    first = trace.chunks.get(trace.note_chunks[0]) if indexed and trace.note_chunks else None
    place = Placement(
        note_chunk=first,
        fused=fused.rank if fused is not None else None,
        fused_id=fused.chunk.id if fused is not None else None,
        ranked=_first(step.ranked, note) if indexed else None,
        relevant=_first(step.relevant, note) if indexed else None,
        source=_first(step.sent, note) if indexed else None,
    )
    factors = factors_for(step, trace, status, place, prompt)
    hits = step.result.hits[: step.want]
    return Explanation(
        question=step.question,
        status=status,
        sent=place.source is not None,
        summary=summary_for(step, trace, status, place, factors),
        dense=dense,
        keyword=keyword,
        fused=fused,
        matched=tuple(term for term in terms if term in held),
        missing=tuple(term for term in terms if term not in held),
        k=step.want,
        sent_count=len(step.sent),
        last_score=hits[-1].fused_score if hits else None,
        dense_available=step.result.dense_available,
        factors=factors,
        decision=step.decision,
    )


class Explainer:
    """Answers "why (not) this note?" for one question by running the answer's retrieval step, traced."""

    def __init__(self, pipeline: AnswerPipeline, prompt: PromptParams, status_of: Callable[[str], NoteStatus]) -> None:
        self._pipeline = pipeline
        self._prompt = prompt
        self._status_of = status_of
        """The index's read-only view of one path (`index.note_status`); it may read the note, so off the loop."""

    async def explain(
        self, question: str, note: str, k: int | None = None, filters: SearchFilters | None = None
    ) -> Explanation:
        """Raises what `AnswerPipeline.retrieve` raises (BadRequest for an empty question or k outside 1..50)."""
        status = await asyncio.to_thread(self._status_of, note)
        trace = SearchTrace(note=note)
        step = await self._pipeline.retrieve(question, (), k, filters, trace=trace)
        return explain_note(step, trace, status, self._prompt)
