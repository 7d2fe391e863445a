"""The sentences of an explanation: what affected one note in one retrieval step, and the one-line summary."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from askvault.ask.pipeline import Retrieval
from askvault.config import PromptParams
from askvault.model import ChunkInfo, Noise, NoteStatus, SearchFilters
from askvault.query.dates import current_now
from askvault.retrieve.date_filter import note_day
from askvault.retrieve.informative import NOISE_LABEL
from askvault.retrieve.trace import SearchTrace

FactorKind = Literal[
    "filter", "date_scope", "abstention", "boilerplate", "rerank", "prompt_budget", "dense_off", "privacy"
]


@dataclass(frozen=True, slots=True)
class Factor:
    """Something in the retrieval step that affected the note, in one sentence."""

    kind: FactorKind
    detail: str


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one note stood in each stage of the step (1-based places; None where it was absent)."""

    note_chunk: ChunkInfo | None
    """One of its chunks that may be shown (filters and date scope judge a note by any one of them)."""
    fused: int | None
    """Its best chunk's place in the whole fused ranking."""
    fused_id: str | None
    ranked: int | None
    """Its first place among the sources the answer considered (after reranking)."""
    relevant: int | None
    """Its first place among those that could be sent."""
    source: int | None
    """Its first source number in the prompt."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _day(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).date().isoformat()


def filter_detail(filters: SearchFilters, chunk: ChunkInfo) -> str:
    """Which of the request's filters left the note out, and why, in one sentence."""
    why: list[str] = []
    if filters.folder is not None and not SearchFilters(folder=filters.folder).accepts(chunk):
        why.append(f"the folder filter `{filters.folder}` (it is not in that folder)")
    if filters.tag is not None and not SearchFilters(tag=filters.tag).accepts(chunk):
        why.append(f"the tag filter `#{filters.tag.lstrip('#')}` (it has no such tag)")
    after, before = filters.modified_after, filters.modified_before
    if after is not None and chunk.mtime < after:
        why.append(f"the modified-after filter {_day(after)} (it was modified {_day(chunk.mtime)})")
    if before is not None and chunk.mtime > before:
        why.append(f"the modified-before filter {_day(before)} (it was modified {_day(chunk.mtime)})")
    return "The request's filters left this note out: " + "; ".join(why or ["its filters"]) + "."


def factors_for(
    step: Retrieval, trace: SearchTrace, status: NoteStatus, place: Placement, prompt: PromptParams
) -> tuple[Factor, ...]:
    """Every factor that applied, in pipeline order: the legs, filters, date scope, the decision, the reranker,
    the prompt, then privacy."""
    found: list[Factor] = []
    if not step.result.dense_available:
        found.append(Factor("dense_off", "Dense search was not available, so only keyword search ran."))
    chunk = place.note_chunk
    if chunk is not None and not trace.filters.is_empty() and not trace.filters.accepts(chunk):
        found.append(Factor("filter", filter_detail(trace.filters, chunk)))
    report = trace.plan.report
    if chunk is not None and trace.plan.accept is not None and report is not None and not trace.plan.accept(chunk):
        day = note_day(chunk, current_now()).isoformat()
        notes = f"{report.notes} note" + ("" if report.notes == 1 else "s")
        detail = f'The question\'s date phrase "{report.phrase}" limited the search to {notes}; '
        found.append(Factor("date_scope", detail + f"this note is dated {day}."))
    noisy = _noisy_passage(trace, place)
    if noisy is not None:
        found.append(Factor("boilerplate", noisy))
    decision = step.decision
    if not decision.answer:
        figures = f"relevance {decision.score:.2f}, needs {decision.threshold:.2f}"
        found.append(Factor("abstention", f"The relevance decision kept every note back ({figures})."))
    moved = _reranked(step, place)
    if moved is not None:
        before, after = moved
        candidates = step.rerank.candidates if step.rerank is not None else 0
        detail = f"The reranker moved it from {ordinal(before)} to {ordinal(after)} of {candidates} candidates."
        found.append(Factor("rerank", detail))
    if place.relevant is not None and place.source is None and step.prompt is not None:
        where = f"It ranked {ordinal(place.relevant)} of the {step.want} sources asked for, but "
        if place.relevant > prompt.max_sources:
            found.append(Factor("prompt_budget", where + f"the prompt holds at most {prompt.max_sources}."))
        else:
            budget = f"the prompt's {prompt.max_chars}-character budget was full before it."
            found.append(Factor("prompt_budget", where + budget))
    if status.state == "indexed" and status.hidden and status.hidden_detail:
        found.append(Factor("privacy", status.hidden_detail))
    return tuple(found)


def noise_words(noise: Noise) -> str:
    """ "72% template lines the vault repeats across its notes and 28% links" (the parts it has)."""
    parts = [
        f"{share}% {words}"
        for share, words in (
            (noise.template, "template lines the vault repeats across its notes"),
            (noise.links, "links"),
            (noise.query, "query blocks"),
        )
        if share
    ]
    return " and ".join(parts) if len(parts) < 3 else f"{parts[0]}, {parts[1]} and {parts[2]}"


def _noisy_passage(trace: SearchTrace, place: Placement) -> str | None:
    """The sentence for a note whose best passage lost score for its template, link or query lines."""
    hit = next((hit for hit in trace.fused if hit.chunk.id == place.fused_id), None)
    if hit is None or NOISE_LABEL not in hit.boosts:
        return None
    trail = " › ".join(hit.chunk.heading_path) or hit.chunk.title
    return (
        f"Its best passage ({trail}) is {noise_words(hit.chunk.noise)}, so it ranks below passages that say "
        "more of their own."
    )


def _reranked(step: Retrieval, place: Placement) -> tuple[int, int] | None:
    """(place before, place after) when the reranker used its order and that moved the note's best chunk."""
    report, order, chunk_id = step.rerank, step.reordered, place.fused_id
    if report is None or not report.applied or order is None or chunk_id is None:
        return None
    if chunk_id not in report.fused_order or chunk_id not in order:
        return None
    before, after = report.fused_order.index(chunk_id) + 1, order.index(chunk_id) + 1
    return (before, after) if before != after else None


def summary_for(
    step: Retrieval, trace: SearchTrace, status: NoteStatus, place: Placement, factors: tuple[Factor, ...]
) -> str:
    """The one plain sentence shown first: the outcome for this note and the main reason."""
    if status.state != "indexed":
        return status.detail or "This note is not in the index."
    if place.source is not None:
        return f"Sent as source {place.source}."
    if not step.decision.answer:
        return "Nothing was sent: your notes don't seem to cover this question."
    kinds = {factor.kind for factor in factors}
    if place.fused is None:
        if "filter" in kinds:
            return "Left out by the request's filters."
        if "date_scope" in kinds and trace.plan.report is not None:
            return f'Left out by the date phrase "{trace.plan.report.phrase}" in the question.'
        if not status.chunks:
            return "Indexed, but nothing in it can be searched."
        if not step.result.dense_available:
            return "Not found by keyword search for these words (dense search is off)."
        return "Not found by either search for these words."
    ranked = f"Ranked {ordinal(place.fused)} after fusion"
    if step.prompt is None:
        return f"{ranked}, but nothing found was close enough to send."
    sent = "only the top one was sent" if len(step.sent) == 1 else f"only the top {len(step.sent)} were sent"
    moved = _reranked(step, place)
    if moved is not None:
        return f"{ranked}, but the reranker moved it to {ordinal(moved[1])}; {sent}."
    if place.ranked is not None and place.relevant is None:
        return f"{ranked}, but its only match was too weak a dense similarity to send."
    return f"{ranked}; {sent}."
