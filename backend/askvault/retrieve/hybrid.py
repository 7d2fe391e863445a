"""Hybrid retrieval: dense and keyword legs over the same chunks, fused by reciprocal rank fusion."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from askvault.config import RetrievalParams
from askvault.errors import BadRequest, ModelError
from askvault.model import Chunk, Hit, RankedId, SearchFilters, SearchMode, SearchResult, TermStat
from askvault.retrieve.dense import DenseIndex
from askvault.retrieve.fusion import rrf
from askvault.store.catalog import ChunkCatalog
from askvault.store.protocol import KeywordIndex

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


class HybridSearcher:
    """Implements `askvault.retrieve.protocol.Searcher` over the live catalog, BM25 index and dense index."""

    def __init__(
        self, catalog: ChunkCatalog, keywords: KeywordIndex, dense: DenseIndex, params: RetrievalParams
    ) -> None:
        self._catalog = catalog
        self._keywords = keywords
        self._dense = dense
        self._params = params

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
        hits = self._fuse(dense_ranked, keyword_ranked, k)
        timings["fusion"] = _ms(t0)
        timings["total"] = round(_ms(started) - timings.get("embed", 0.0), 3)
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

    def _fuse(self, dense: list[RankedId], keyword: list[RankedId], k: int) -> list[Hit]:
        chunks = self._catalog.snapshot()
        dense_scores = {r.chunk_id: r.score for r in dense}
        keyword_scores = {r.chunk_id: r.score for r in keyword}
        rankings = {"dense": [r.chunk_id for r in dense], "keyword": [r.chunk_id for r in keyword]}
        hits: list[Hit] = []
        for fused in rrf(rankings, k=self._params.rrf_k):
            chunk: Chunk | None = chunks.get(fused.chunk_id)
            if chunk is None:
                # A vector whose chunk was just removed: the reconcile sweeps it; never show it.
                continue
            hits.append(
                Hit(
                    chunk=chunk,
                    dense_rank=fused.ranks.get("dense"),
                    keyword_rank=fused.ranks.get("keyword"),
                    fused_score=fused.score,
                    dense_score=dense_scores.get(fused.chunk_id),
                    keyword_score=keyword_scores.get(fused.chunk_id),
                )
            )
            if len(hits) >= k:
                break
        return hits
