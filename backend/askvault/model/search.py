"""One search as the retrieval stage answers it: filters, each leg's ranking, hits, timings and the result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from askvault.model.chunks import Chunk, ChunkInfo


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Restrictions applied inside both retrieval legs (never after truncation)."""

    folder: str | None = None
    """Vault-relative folder prefix, e.g. `Homelab/`."""
    tag: str | None = None
    modified_after: float | None = None
    modified_before: float | None = None

    def is_empty(self) -> bool:
        return (
            self.folder is None and self.tag is None and self.modified_after is None and (self.modified_before is None)
        )

    def accepts(self, chunk: ChunkInfo) -> bool:
        """True when the chunk passes every filter that is set."""
        if self.folder is not None and not chunk.path.startswith(self.folder.rstrip("/") + "/"):
            return False
        if self.tag is not None and self.tag.lower().lstrip("#") not in chunk.tags:
            return False
        if self.modified_after is not None and chunk.mtime < self.modified_after:
            return False
        return not (self.modified_before is not None and chunk.mtime > self.modified_before)


@dataclass(frozen=True, slots=True)
class RankedId:
    """One entry of a single method's ranking."""

    chunk_id: str
    score: float


@dataclass(frozen=True, slots=True)
class TermStat:
    """A query term as keyword search used it."""

    term: str
    df: int
    idf: float


@dataclass(frozen=True, slots=True)
class Hit:
    """A fused search result with both per-method ranks kept (1-based; None when a method missed it)."""

    chunk: Chunk
    dense_rank: int | None
    keyword_rank: int | None
    fused_score: float
    dense_score: float | None = None
    """Cosine similarity from the dense leg, when it returned the chunk."""
    keyword_score: float | None = None
    """BM25 score from the keyword leg, when it returned the chunk."""
    boosts: tuple[str, ...] = ()
    """Query-side boosts applied to this chunk: `identifier:kodi-livingroom` (it holds that token and gained the
    identifier ranking's share), `mention:[[Postgres]]` / `tag:#homelab` (moved up for a link or tag in the
    query); empty when plain fusion placed it."""


SearchMode = Literal["hybrid", "dense", "keyword"]


@dataclass(frozen=True, slots=True)
class DateScopeReport:
    """A date phrase the question held and what retrieval did with it (shown in the inspector)."""

    phrase: str
    start: date | None
    """First day of the range; None when open."""
    end: date | None
    """Day after the last one (exclusive); None when open."""
    applied: bool
    """True when both legs searched only notes dated in the range."""
    basis: str
    """How notes are dated: `note_date_then_mtime` (a YYYY-MM-DD in the path, else the modification time)."""
    notes: int
    """Notes in the range when applied; 0 otherwise."""
    fallback_reason: str | None = None
    """Why it was not applied: `explicit_filter` or `nothing_in_range`; None when applied."""


@dataclass(frozen=True, slots=True)
class SearchTimings:
    """Where one search's time went, in milliseconds (`timings_ms` in docs/api.md); a leg that did not run is None.

    The defaults are an empty record, for a searcher that measures nothing."""

    embed: float | None = None
    """Embedding the query; set exactly when the dense leg ran."""
    dense: float | None = None
    keyword: float | None = None
    fusion: float = 0.0
    total: float = 0.0
    """The whole search, embedding included (and a date-scope retry with it)."""

    def to_json(self) -> dict[str, float]:
        """The `timings_ms` object: embed, dense, keyword, fusion, total, in that order, without the legs that
        did not run."""
        stages = {"embed": self.embed, "dense": self.dense, "keyword": self.keyword}
        shaped = {stage: ms for stage, ms in stages.items() if ms is not None}
        return {**shaped, "fusion": self.fusion, "total": self.total}


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Everything one search produced, including what the inspector shows."""

    query: str
    mode: SearchMode
    hits: list[Hit]
    """Fused ranking, best first."""
    terms: list[TermStat]
    """Query terms the keyword leg used, with document frequency and IDF."""
    counts: dict[str, int]
    """How many chunks each method matched: {"dense": n, "keyword": n}."""
    timings: SearchTimings
    dense_available: bool = True
    """False when the dense leg could not run (no embedding model); results are keyword-only."""
    date_scope: DateScopeReport | None = None
    """The question's date phrase, when date scoping is on and one was found."""
