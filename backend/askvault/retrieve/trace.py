"""What one search saw before its cut, recorded on request: the legs' full lists, the whole fused ranking."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from askvault.model import ChunkInfo, Hit, RankedId, SearchFilters
from askvault.retrieve.date_filter import NO_PLAN, DatePlan


@dataclass
class SearchTrace:
    """Pass one to `Searcher.search(..., trace=)` and the searcher fills it in; the search itself is unchanged.

    When a date-scoped search found nothing and ran again without the scope, the trace holds the second run
    (the one whose hits came back), and `retried` says so.
    """

    note: str | None = None
    """A vault path whose query-term coverage to record in `note_terms` (set by the caller); None: none."""
    dense: list[RankedId] = field(default_factory=list)
    """The dense leg's whole candidate list (`dense_k` long at most), best first, with cosine scores."""
    keyword: list[RankedId] = field(default_factory=list)
    """The keyword leg's whole candidate list (`keyword_k`), best first, with BM25 scores."""
    fused: list[Hit] = field(default_factory=list)
    """The fused ranking before the cut: every candidate that may be shown, best first (the hits are its first k)."""
    hidden: set[str] = field(default_factory=set)
    """Candidates of either leg that the privacy re-check (or a removal) kept out: never shown, never sent."""
    chunks: Mapping[str, ChunkInfo] = field(default_factory=lambda: MappingProxyType({}))
    """The catalog snapshot the search read."""
    filters: SearchFilters = field(default_factory=SearchFilters)
    plan: DatePlan = NO_PLAN
    """The question's date scope as the recorded run used it (`plan.accept` set when it narrowed both legs)."""
    retried: bool = False
    """The scoped search found nothing, so the search ran again without the scope."""
    dense_available: bool = True
    note_chunks: tuple[str, ...] = ()
    """The ids of `note`'s chunks that may be shown, in document order (empty without `note`)."""
    note_terms: frozenset[str] = frozenset()
    """The query's analysed terms that some of `note_chunks` holds, by the keyword index's own analysis."""

    def reset(self) -> None:
        """Forgets a previous run (a retry records afresh); `note` stays."""
        self.dense, self.keyword, self.fused, self.hidden = [], [], [], set()
        self.note_chunks, self.note_terms = (), frozenset()
