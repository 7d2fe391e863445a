"""What every boost step shares: one search's context, the step's signature, and what a step gives back."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from askvault.config import RetrievalParams
from askvault.model import ChunkInfo, SearchFilters, SearchMode
from askvault.parse.links import LinkResolver
from askvault.query.analyse import AnalysedQuery
from askvault.retrieve.fusion import Fused
from askvault.retrieve.hit_texts import HitTexts
from askvault.retrieve.mentions import alias_index
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.protocol import KeywordIndex


@dataclass(frozen=True, slots=True)
class NoteNames:
    """How a question's `[[Note]]` finds its note in one catalog snapshot: Obsidian's link resolver over the paths,
    path → title, and casefolded alias → path (`retrieve.mentions.resolve_note`)."""

    resolver: LinkResolver
    titles: Mapping[str, str]
    aliases: Mapping[str, str]

    @classmethod
    def of(cls, chunks: Mapping[str, ChunkInfo]) -> NoteNames:
        titles = {chunk.path: chunk.title for chunk in chunks.values()}
        return cls(LinkResolver(titles), titles, alias_index(chunks))


class NoteNamesCache:
    """`NoteNames` of the latest snapshot, kept by one searcher across its searches: a pass over the whole catalog,
    so built on the first mention after each swap (the catalog swaps its snapshot whole on every index change)."""

    def __init__(self) -> None:
        self._cached: tuple[Mapping[str, ChunkInfo], NoteNames] | None = None

    def get(self, chunks: Mapping[str, ChunkInfo]) -> NoteNames:
        cached = self._cached
        if cached is not None and cached[0] is chunks:
            return cached[1]
        names = NoteNames.of(chunks)
        self._cached = (chunks, names)
        return names


@dataclass(frozen=True, slots=True)
class SearchContext:
    """One search as its boosts see it, built once after fusion (again only for a date-scope retry, which reads
    a fresh snapshot and ranks anew). Frozen but for `texts`, which reads the candidates' texts as steps ask."""

    query: AnalysedQuery
    mode: SearchMode
    filters: SearchFilters
    k: int
    """The hits wanted: a step that reads texts reads at least these, which are shown anyway."""
    weights: Mapping[str, float]
    """The legs' weights as score fusion used them: a share added beside the legs (identifiers, phrases) weighs
    against these."""
    chunks: Mapping[str, ChunkInfo]
    """The catalog snapshot the search read."""
    catalog: ChunkCatalog
    keywords: KeywordIndex
    params: RetrievalParams
    texts: HitTexts
    notes: NoteNamesCache

    def note_names(self) -> NoteNames:
        return self.notes.get(self.chunks)


@dataclass(frozen=True, slots=True)
class BoostResult:
    """A step's ranking, and the labels it gives the chunks it moved (chunk id → labels, in the order given), which
    the inspector shows as the hit's boosts."""

    ranking: list[Fused]
    labels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


class Boost(Protocol):
    """One boost: whether its switch (a `RetrievalParams` field) is on for a mode, and the ranking it makes of the
    ranking the step before it left."""

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool: ...

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult: ...


def labels_of(pairs: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Chunk id → its labels from (chunk id, label) pairs, in their order; a chunk labelled twice keeps both."""
    found: dict[str, list[str]] = {}
    for chunk_id, label in pairs:
        found.setdefault(chunk_id, []).append(label)
    return {chunk_id: tuple(labels) for chunk_id, labels in found.items()}
