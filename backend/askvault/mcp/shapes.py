"""What the tools return: typed results (their JSON schemas are the tools' output schemas), from docs/api.md JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from askvault.errors import AskVaultError
from askvault.mcp.sections import SectionText, trail

HEADING_HELP = (
    "Heading trail 'Heading › Subheading' ('' for text before the first heading); pass it to get_note_section"
)


class SearchHit(BaseModel):
    rank: int = Field(description="1-based position in the fused ranking (best first)")
    id: str = Field(description="Stable chunk id")
    path: str = Field(description="Vault-relative path of the note, e.g. 'Homelab/Postgres.md'")
    title: str = Field(description="The note's title")
    heading: str = Field(description=HEADING_HELP)
    heading_path: list[str] = Field(description="The heading trail as a list, from the top heading down")
    start_line: int = Field(description="First line of the chunk in the note (1-based)")
    end_line: int = Field(description="Last line of the chunk in the note (inclusive)")
    dense_rank: int | None = Field(description="Rank from semantic (embedding) search; null when it missed")
    keyword_rank: int | None = Field(description="Rank from keyword (BM25) search; null when it missed")
    fused_score: float = Field(description="Reciprocal rank fusion score of both ranks (higher is better)")
    text: str = Field(description="The chunk's readable text")


class SearchOutput(BaseModel):
    query: str
    counts: dict[str, int] = Field(description="How many chunks each method matched: {'dense': n, 'keyword': n}")
    results: list[SearchHit] = Field(description="Ranked chunks; empty when nothing matched")


class AskSource(BaseModel):
    n: int = Field(description="The source's number: the answer cites it as [n]")
    id: str = Field(description="Stable chunk id")
    path: str = Field(description="Vault-relative path of the note")
    title: str = Field(description="The note's title")
    heading: str = Field(description=HEADING_HELP)
    heading_path: list[str]
    start_line: int
    end_line: int
    cited: bool = Field(description="Whether the answer cites this source")


class ClosestNote(BaseModel):
    path: str = Field(description="Vault-relative path of the note")
    title: str
    heading: str = Field(description=HEADING_HELP)
    start_line: int
    end_line: int
    dense_score: float | None = Field(
        default=None, description="Semantic similarity (cosine) to the question; null when missed"
    )
    keyword_score: float | None = Field(
        default=None, description="Keyword (BM25) score; null when no question word occurs in it"
    )


class AskOutput(BaseModel):
    question: str
    answer: str = Field(description="The answer, written by the local model from the sources, citing them as [n]")
    citations: list[int] = Field(description="The source numbers the answer cites")
    invalid_citations: list[int] = Field(description="Numbers the answer cites that match no source; disregard them")
    no_results: bool = Field(description="True when the model was not asked (nothing found, or abstained)")
    truncated: bool = Field(
        default=False,
        description="True when the answer was cut (length limit, or the model kept repeating itself) and may end "
        "mid-sentence",
    )
    sources: list[AskSource] = Field(description="The numbered sources sent to the model, in [n] order")
    abstained: bool = Field(
        description="True when the notes did not seem to cover the question, so no model was asked; `closest` lists "
        "the nearest notes. Ask again with force=true to have the model answer from them anyway"
    )
    reason: str = Field(description="Why the notes were (or were not) used, in one sentence")
    closest: list[ClosestNote] = Field(description="When abstained: the closest notes, not used; else empty")


class SectionOutput(BaseModel):
    path: str = Field(description="Vault-relative path of the note")
    title: str
    heading: str = Field(description="The full heading trail of the section ('' for text before the first heading)")
    heading_path: list[str]
    start_line: int = Field(description="Line of the heading in the note (1-based)")
    end_line: int = Field(description="Last line of the section, its subsections included")
    text: str = Field(description="The section's readable text: links as text, comments removed; one line per line")


class AnswerFailed(AskVaultError):
    """The answer pipeline ended with an `error` event (the model is missing, unreachable, timed out…)."""

    def __init__(self, code: str, message: str, partial: str) -> None:
        broke_off = f" The answer broke off after: {partial.strip()!r}" if partial.strip() else ""
        super().__init__(message.rstrip(".") + "." + broke_off)
        self.api_code = code


def _maps(value: object) -> list[Mapping[str, object]]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, Mapping)]


def _trail(item: Mapping[str, object]) -> str:
    heading_path = item.get("heading_path")
    return trail([str(h) for h in heading_path]) if isinstance(heading_path, list) else ""


def search_output(body: Mapping[str, object]) -> SearchOutput:
    """The `POST /api/search` body → the tool's result."""
    hits = [
        SearchHit.model_validate({**item, "rank": rank, "heading": _trail(item)})
        for rank, item in enumerate(_maps(body.get("results")), start=1)
    ]
    counts = body.get("counts")
    return SearchOutput(
        query=str(body.get("query", "")),
        counts={str(k): int(v) for k, v in counts.items() if isinstance(v, int)} if isinstance(counts, Mapping) else {},
        results=hits,
    )


def ask_output(events: Sequence[Mapping[str, object]]) -> AskOutput:
    """The `POST /api/ask` events → the tool's result; an `error` event raises AnswerFailed."""
    retrieval: Mapping[str, object] = {}
    done: Mapping[str, object] | None = None
    tokens: list[str] = []
    for event in events:
        kind = event.get("type")
        if kind == "retrieval":
            retrieval = event
        elif kind == "token":
            tokens.append(str(event.get("text", "")))
        elif kind == "done":
            done = event
        elif kind == "error":
            raise AnswerFailed(str(event.get("code")), str(event.get("message", "")), str(event.get("partial", "")))
    if done is None:
        raise AnswerFailed("internal", "The answer ended without its closing event", "".join(tokens))
    citations = _ints(done.get("citations"))
    sent = [item for item in _maps(retrieval.get("sources")) if isinstance(item.get("n"), int)]
    sources = [
        AskSource.model_validate({**item, "heading": _trail(item), "cited": item.get("n") in citations})
        for item in sorted(sent, key=lambda item: int(str(item.get("n"))))
    ]
    relevance = retrieval.get("relevance")
    decided = relevance if isinstance(relevance, Mapping) else {}
    return AskOutput(
        question=str(retrieval.get("question", "")),
        answer=str(done.get("answer", "".join(tokens))),
        citations=citations,
        invalid_citations=_ints(done.get("invalid_citations")),
        no_results=bool(done.get("no_results", False)),
        truncated=done.get("truncated") is True,
        sources=sources,
        # A sidecar without the decision always used what it found.
        abstained=decided.get("answer") is False,
        reason=str(decided.get("reason", "")),
        closest=[
            ClosestNote.model_validate({**item, "heading": _trail(item)}) for item in _maps(retrieval.get("closest"))
        ],
    )


def _ints(value: object) -> list[int]:
    return [n for n in value if isinstance(n, int) and not isinstance(n, bool)] if isinstance(value, list) else []


def section_output(section: SectionText) -> SectionOutput:
    return SectionOutput(
        path=section.path,
        title=section.title,
        heading=trail(section.heading_path),
        heading_path=list(section.heading_path),
        start_line=section.start_line,
        end_line=section.end_line,
        text=section.text,
    )
