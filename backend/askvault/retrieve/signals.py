"""The one hook for the optional graph signals after fusion: link-graph bonus, then neighbour candidates."""

from __future__ import annotations

from askvault.config import RetrievalParams
from askvault.model import SearchFilters
from askvault.retrieve.fusion import Fused
from askvault.retrieve.graph import GraphCache, add_link_bonus, link_ranking
from askvault.retrieve.neighbours import add_neighbours
from askvault.store.catalog import ChunkCatalog
from askvault.store.links import NoteLinks


class GraphSignals:
    """Applies `RetrievalParams.link_hops` and `neighbours` to a fused ranking; with both off it is the identity."""

    def __init__(self, params: RetrievalParams, catalog: ChunkCatalog, links: NoteLinks | None) -> None:
        self._params = params
        self._catalog = catalog
        self._links = links
        self._graphs = GraphCache()

    @property
    def active(self) -> bool:
        return (self._params.link_hops and self._links is not None) or self._params.neighbours > 0

    def apply(self, ranking: list[Fused], filters: SearchFilters | None = None) -> list[Fused]:
        if not self.active or not ranking:
            return ranking
        params = self._params
        chunks = self._catalog.snapshot()
        by_note = self._catalog.by_note()
        # Candidates no leg returned must pass the same filters the legs applied (folder, tag, dates).
        allow = filters.accepts if filters is not None and not filters.is_empty() else None
        if params.link_hops and self._links is not None:
            graph = self._graphs.graph(self._links.snapshot(), by_note)
            link_ids = link_ranking(ranking, chunks, by_note, graph, params.link_seeds, allow)
            ranking = add_link_bonus(ranking, link_ids, params.rrf_k, params.link_weight)
        if params.neighbours > 0:
            ranking = add_neighbours(ranking, chunks, by_note, params.neighbour_anchors, params.neighbours, allow)
        return ranking
