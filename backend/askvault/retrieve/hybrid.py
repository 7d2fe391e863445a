"""Hybrid retrieval: dense and keyword legs over the same chunks, fused by reciprocal rank fusion."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping

from askvault.chunk import note_chunk_id
from askvault.config import RetrievalParams
from askvault.errors import BadRequest, ModelError
from askvault.model import Chunk, Hit, RankedId, SearchFilters, SearchMode, SearchResult, TermStat
from askvault.retrieve.dense import DenseIndex
from askvault.retrieve.fusion import Fused, protect_leaders, rrf
from askvault.retrieve.signals import GraphSignals
from askvault.store.catalog import ChunkCatalog
from askvault.store.links import NoteLinks
from askvault.store.protocol import KeywordIndex

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000


def expand_note_hits(ranking: list[Fused], chunks: Mapping[str, Chunk]) -> list[Fused]:
    """A note-level chunk stands for its note: at its place comes the note's best-fused other chunk (or, when no
    leg found one, the note's first chunk), so a match on a name or alias brings up text, not an outline."""
    by_note: dict[str, list[Fused]] = {}
    for fused in ranking:
        chunk = chunks.get(fused.chunk_id)
        if chunk is not None:
            by_note.setdefault(chunk.path, []).append(fused)
    out: list[Fused] = []
    used: set[str] = set()
    for fused in ranking:
        chunk = chunks.get(fused.chunk_id)
        if fused.chunk_id in used:
            continue
        used.add(fused.chunk_id)
        if chunk is None or fused.chunk_id != note_chunk_id(chunk.path):
            out.append(fused)
            continue
        other = next((f for f in by_note[chunk.path] if f.chunk_id not in used), None)
        if other is None:
            first = min(
                (c for c in chunks.values() if c.path == chunk.path and c.id not in used),
                key=lambda c: c.start_line,
                default=None,
            )
            other = Fused(first.id, fused.score, {}) if first is not None else None
        if other is not None:
            used.add(other.chunk_id)
            out.append(Fused(other.chunk_id, max(other.score, fused.score), other.ranks))
    return out


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


class HybridSearcher:
    """Implements `askvault.retrieve.protocol.Searcher` over the live catalog, BM25 index and dense index."""

    def __init__(
        self,
        catalog: ChunkCatalog,
        keywords: KeywordIndex,
        dense: DenseIndex,
        params: RetrievalParams,
        visible: Callable[[Chunk], bool] | None = None,
        links: NoteLinks | None = None,
    ) -> None:
        self._catalog = catalog
        self._keywords = keywords
        self._dense = dense
        self._params = params
        self._visible = visible
        """Re-checks the privacy rules on each hit (the index may predate them); None shows every hit."""
        self._signals = GraphSignals(params, catalog, links)

    async def search(
        self, query: str, k: int, mode: SearchMode = "hybrid", filters: SearchFilters | None = None
    ) -> SearchResult:
        query = query.strip()
        if not query:
            raise BadRequest("the query is empty")
        if len(query) > MAX_QUERY_CHARS:
            raise BadRequest(f"the query is longer than {MAX_QUERY_CHARS} characters")
        if k < 1:
            raise BadRequest("k must be at least 1")
        filters = filters or SearchFilters()
        started = time.perf_counter()
        timings: dict[str, float] = {}
        dense_ranked: list[RankedId] = []
        dense_available = self._dense.usable
        if mode in ("hybrid", "dense"):
            dense_ranked, dense_available = await self._dense_leg(query, filters, mode, timings)

        keyword_ranked: list[RankedId] = []
        terms: list[TermStat] = []
        keyword_matched = 0
        if mode in ("hybrid", "keyword"):
            t0 = time.perf_counter()
            result = self._keywords.search(query, self._params.keyword_k, self._allow(filters))
            keyword_ranked, terms, keyword_matched = result.ranked, result.terms, result.matched
            timings["keyword"] = _ms(t0)

        t0 = time.perf_counter()
        hits = self._fuse(dense_ranked, keyword_ranked, k, filters)
        timings["fusion"] = _ms(t0)
        # The whole search, embedding included (docs/api.md); the answer pipeline subtracts `embed` itself.
        timings["total"] = _ms(started)
        return SearchResult(
            query=query,
            mode=mode,
            hits=hits,
            terms=terms,
            counts={"dense": len(dense_ranked), "keyword": keyword_matched},
            timings_ms=timings,
            dense_available=dense_available,
        )

    async def _dense_leg(
        self, query: str, filters: SearchFilters, mode: SearchMode, timings: dict[str, float]
    ) -> tuple[list[RankedId], bool]:
        store = self._dense.store
        if not self._dense.usable or store is None:
            if mode == "dense":
                raise ModelError(self._dense.problem or "dense search is not available yet (index building)")
            return [], False
        t0 = time.perf_counter()
        try:
            vector = await self._dense.embedder.embed_query(query)
        except ModelError as exc:
            if mode == "dense":
                raise
            # Hybrid keeps answering from keywords when Ollama goes away mid-session.
            log.warning("dense leg skipped: %s", exc.message)
            return [], False
        timings["embed"] = _ms(t0)
        t0 = time.perf_counter()
        ranked = await store.search(vector, self._params.dense_k, filters)
        timings["dense"] = _ms(t0)
        return ranked, True

    def _allow(self, filters: SearchFilters) -> Callable[[str], bool] | None:
        if filters.is_empty():
            return None
        chunks = self._catalog.snapshot()

        def allow(chunk_id: str) -> bool:
            chunk = chunks.get(chunk_id)
            return chunk is not None and filters.accepts(chunk)

        return allow

    def _fuse(
        self, dense: list[RankedId], keyword: list[RankedId], k: int, filters: SearchFilters | None = None
    ) -> list[Hit]:
        chunks = self._catalog.snapshot()
        dense_scores = {r.chunk_id: r.score for r in dense}
        keyword_scores = {r.chunk_id: r.score for r in keyword}
        # Keyword first: on an exact RRF tie (ranks mirrored between the legs) the chunk holding the query's
        # literal words wins, so an exact ID or port beats a look-alike the embedder cannot tell apart.
        rankings = {"keyword": [r.chunk_id for r in keyword], "dense": [r.chunk_id for r in dense]}
        hits: list[Hit] = []
        weights = {"keyword": self._params.keyword_weight, "dense": self._params.dense_weight}
        fused_ranking = protect_leaders(
            rrf(rankings, k=self._params.rrf_k, weights=weights), rankings, self._params.protect_top
        )
        if self._params.expand_note_hits:
            fused_ranking = expand_note_hits(fused_ranking, chunks)
        fused_ranking = self._signals.apply(fused_ranking, filters)  # link graph, neighbours (off by default)
        for fused in fused_ranking:
            chunk: Chunk | None = chunks.get(fused.chunk_id)
            if chunk is None:
                # A vector whose chunk was just removed: the reconcile sweeps it; never show it.
                continue
            if self._visible is not None and not self._visible(chunk):
                continue  # excluded since it was indexed: never shown, never sent
            hits.append(
                Hit(
                    chunk=chunk,
                    dense_rank=fused.ranks.get("dense"),
                    keyword_rank=fused.ranks.get("keyword"),
                    fused_score=fused.score,
                    dense_score=dense_scores.get(fused.chunk_id),
                    keyword_score=keyword_scores.get(fused.chunk_id),
                    via=fused.via,
                )
            )
            if len(hits) >= k:
                break
        return hits
