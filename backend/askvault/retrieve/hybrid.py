"""Hybrid retrieval: dense and keyword legs over the same chunks, fused by their normalised scores."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from askvault.config import RetrievalParams
from askvault.embed.protocol import Embedder
from askvault.errors import BadRequest, ModelError
from askvault.model import ChunkInfo, Hit, RankedId, SearchFilters, SearchMode, SearchResult, SearchTimings, TermStat
from askvault.query.analyse import AnalysedQuery, analyse_query
from askvault.query.dates import current_now
from askvault.retrieve.boosts.step import NoteNamesCache, SearchContext
from askvault.retrieve.boosts.steps import apply_boosts
from askvault.retrieve.date_filter import NO_PLAN, DatePlan, plan_date_scope, scoped_dense_search, without_scope
from askvault.retrieve.fusion import rrf, score_fusion, vocabulary_coverage
from askvault.retrieve.hit_texts import HitTexts
from askvault.retrieve.timing import STAGE_DIGITS, elapsed_ms
from askvault.retrieve.trace import SearchTrace
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.protocol import KeywordIndex
from askvault.store.vectors.dense_index import DenseIndex

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000


@dataclass(slots=True)
class _QueryVector:
    """The question's embedding, asked for at most once per search: the date-scope retry reuses it."""

    vector: list[float] | None = None
    embed_ms: float = 0.0
    failed: ModelError | None = None


class HybridSearcher:
    """Implements `askvault.retrieve.protocol.Searcher` over the live catalog, BM25 index and dense index."""

    def __init__(
        self,
        catalog: ChunkCatalog,
        keywords: KeywordIndex,
        dense: DenseIndex[Embedder],
        params: RetrievalParams,
        visible: Callable[[ChunkInfo], bool] | None = None,
    ) -> None:
        self._catalog = catalog
        self._keywords = keywords
        self._dense = dense
        self._params = params
        self._visible = visible
        """Re-checks the privacy rules on each hit (the index may predate them); None shows every hit."""
        self._notes = NoteNamesCache()
        """How a `[[Note]]` finds its note, kept across searches until the catalog swaps its snapshot."""

    async def search(
        self,
        query: str,
        k: int,
        mode: SearchMode = "hybrid",
        filters: SearchFilters | None = None,
        trace: SearchTrace | None = None,
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
        now = current_now() if self._params.query_dates else None
        analysed = analyse_query(query, self._keywords.query_analysis(), now)
        plan = NO_PLAN
        if now is not None:
            plan = plan_date_scope(analysed.date_scope, filters, self._first_chunks(), now)
        embedded = _QueryVector()
        result = await self._search(analysed, k, mode, filters, plan, started, embedded, trace)
        if plan.accept is not None and not result.hits:
            # Scoped to a range that held nothing for this query: search everything and say so.
            result = await self._search(analysed, k, mode, filters, without_scope(plan), started, embedded, trace)
            if trace is not None:
                trace.retried = True
        return result

    def _first_chunks(self) -> Iterator[ChunkInfo]:
        """One chunk of each note, from the catalog's per-note index (built once per snapshot); lazy, so a query
        without a date phrase never touches it."""
        chunks = self._catalog.snapshot()
        for ids in self._catalog.by_note().values():
            chunk = chunks.get(ids[0])
            if chunk is not None:  # a swap between the two reads: that note is simply not in the plan
                yield chunk

    async def _search(
        self,
        query: AnalysedQuery,
        k: int,
        mode: SearchMode,
        filters: SearchFilters,
        plan: DatePlan,
        started: float,
        embedded: _QueryVector,
        trace: SearchTrace | None = None,
    ) -> SearchResult:
        dense_ranked: list[RankedId] = []
        dense_available = self._dense.usable
        dense_ms: float | None = None
        keyword_ms: float | None = None
        if mode in ("hybrid", "dense"):
            dense_ranked, dense_available, dense_ms = await self._dense_leg(query.text, filters, mode, plan, embedded)

        keyword_ranked: list[RankedId] = []
        terms: list[TermStat] = []
        keyword_matched = 0
        if mode in ("hybrid", "keyword"):
            t0 = time.perf_counter()
            result = self._keywords.search_terms(query.terms, self._params.keyword_k, self._allow(filters, plan))
            keyword_ranked, terms, keyword_matched = result.ranked, result.terms, result.matched
            keyword_ms = elapsed_ms(t0, STAGE_DIGITS)

        t0 = time.perf_counter()
        hits = self._fuse(query, mode, filters, dense_ranked, keyword_ranked, k, terms, trace)
        fusion_ms = elapsed_ms(t0, STAGE_DIGITS)
        if trace is not None:
            self._record(trace, filters, plan, dense_ranked, keyword_ranked, terms, dense_available)
        # The query was embedded when the dense leg ran, once even across a retry; `total` includes it (docs/api.md).
        embed_ms = embedded.embed_ms if dense_ms is not None else None
        timings = SearchTimings(embed_ms, dense_ms, keyword_ms, fusion_ms, elapsed_ms(started, STAGE_DIGITS))
        return SearchResult(
            query=query.text,
            mode=mode,
            hits=hits,
            terms=terms,
            counts={"dense": len(dense_ranked), "keyword": keyword_matched},
            timings=timings,
            dense_available=dense_available,
            date_scope=plan.report,
        )

    async def _dense_leg(
        self,
        query: str,
        filters: SearchFilters,
        mode: SearchMode,
        plan: DatePlan,
        embedded: _QueryVector,
    ) -> tuple[list[RankedId], bool, float | None]:
        """The dense ranking, whether the leg could run, and how long its search took (None when it did not)."""
        store = self._dense.store
        if not self._dense.usable or store is None:
            if mode == "dense":
                raise ModelError(self._dense.problem or "dense search is not available yet (index building)")
            return [], False, None
        if embedded.vector is None and embedded.failed is None:
            t0 = time.perf_counter()
            try:
                embedded.vector = await self._dense.embedder.embed_query(query)
            except ModelError as exc:
                embedded.failed = exc
                if mode != "dense":
                    log.warning("dense leg skipped: %s", exc.message)
            embedded.embed_ms = elapsed_ms(t0, STAGE_DIGITS)
        vector = embedded.vector
        if vector is None:
            if mode == "dense" and embedded.failed is not None:
                raise embedded.failed
            # Hybrid keeps answering from keywords when Ollama goes away mid-session.
            return [], False, None
        t0 = time.perf_counter()
        if plan.accept is None:
            ranked = await store.search(vector, self._params.dense_k, filters)
        else:
            chunks = self._catalog.snapshot()
            ranked = await scoped_dense_search(store, vector, self._params.dense_k, filters, chunks, plan.accept)
        return ranked, True, elapsed_ms(t0, STAGE_DIGITS)

    def _allow(self, filters: SearchFilters, plan: DatePlan = NO_PLAN) -> Callable[[str], bool] | None:
        accept = plan.accept
        if filters.is_empty() and accept is None:
            return None
        chunks = self._catalog.snapshot()

        def allow(chunk_id: str) -> bool:
            chunk = chunks.get(chunk_id)
            return chunk is not None and filters.accepts(chunk) and (accept is None or accept(chunk))

        return allow

    def _fuse(
        self,
        query: AnalysedQuery,
        mode: SearchMode,
        filters: SearchFilters,
        dense: list[RankedId],
        keyword: list[RankedId],
        k: int,
        terms: Sequence[TermStat] = (),
        trace: SearchTrace | None = None,
    ) -> list[Hit]:
        chunks = self._catalog.snapshot()
        if trace is not None:
            trace.reset()
            trace.chunks = chunks
        dense_scores = {r.chunk_id: r.score for r in dense}
        keyword_scores = {r.chunk_id: r.score for r in keyword}
        hits: list[Hit] = []
        # A collection still being filled weighs what share of the chunks it covers (1 once complete).
        weights = {"keyword": self._params.keyword_weight, "dense": self._params.dense_weight * self._dense.coverage}
        if mode == "hybrid":
            if self._params.keyword_coverage:
                weights["keyword"] *= vocabulary_coverage(terms)
            # Keyword first: on an exact tie the chunk holding the query's literal words wins, so an exact ID or
            # port beats a look-alike the embedder cannot tell apart.
            scored = {
                "keyword": [(r.chunk_id, r.score) for r in keyword],
                "dense": [(r.chunk_id, r.score) for r in dense],
            }
            fused_ranking = score_fusion(scored, weights)
        else:
            # One leg alone keeps rank scores: its order is its own, and 1/(k + rank) never reads as "no match".
            rankings = {"keyword": [r.chunk_id for r in keyword], "dense": [r.chunk_id for r in dense]}
            fused_ranking = rrf(rankings, k=self._params.rrf_k, weights=weights)
        texts = HitTexts(self._catalog, chunks)
        ctx = SearchContext(
            query, mode, filters, k, weights, chunks, self._catalog, self._keywords, self._params, texts, self._notes
        )
        fused_ranking, labels = apply_boosts(ctx, fused_ranking)
        ids = [fused.chunk_id for fused in fused_ranking]
        for position, fused in enumerate(fused_ranking):
            if fused.chunk_id not in chunks:
                # A vector whose chunk was just removed: the reconcile sweeps it; never show it.
                continue
            # The texts of this hit and the next ones it may take to fill k (all of them when tracing).
            chunk = texts.get(fused.chunk_id, ids[position : None if trace is not None else position + k - len(hits)])
            if chunk is None:
                continue  # removed since the snapshot was taken
            if self._visible is not None and not self._visible(chunk):
                continue  # excluded since it was indexed: never shown, never sent
            hit = Hit(
                chunk=chunk,
                dense_rank=fused.ranks.get("dense"),
                keyword_rank=fused.ranks.get("keyword"),
                fused_score=fused.score,
                dense_score=dense_scores.get(fused.chunk_id),
                keyword_score=keyword_scores.get(fused.chunk_id),
                boosts=labels.get(fused.chunk_id, ()),
            )
            if len(hits) < k:
                hits.append(hit)
            if trace is not None:
                trace.fused.append(hit)  # a trace records the whole ranking, past the cut
            elif len(hits) >= k:
                break
        return hits

    def _record(
        self,
        trace: SearchTrace,
        filters: SearchFilters,
        plan: DatePlan,
        dense: list[RankedId],
        keyword: list[RankedId],
        terms: list[TermStat],
        dense_available: bool,
    ) -> None:
        """Fills the trace after fusion: the legs' lists, what may not be shown, and the traced note's terms."""
        chunks = trace.chunks
        trace.dense, trace.keyword, trace.filters, trace.plan = list(dense), list(keyword), filters, plan
        trace.dense_available = dense_available
        for entry in (*dense, *keyword):
            chunk = chunks.get(entry.chunk_id)
            if chunk is None or (self._visible is not None and not self._visible(chunk)):
                trace.hidden.add(entry.chunk_id)
        if trace.note is None:
            return
        ids = [cid for cid in self._catalog.by_note().get(trace.note, ()) if cid in chunks]
        trace.note_chunks = tuple(cid for cid in ids if self._visible is None or self._visible(chunks[cid]))
        if terms:
            trace.note_terms = frozenset(self._keywords.terms_in([t.term for t in terms], trace.note_chunks))
