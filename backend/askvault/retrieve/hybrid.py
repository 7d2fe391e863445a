"""Hybrid retrieval: dense and keyword legs over the same chunks, fused by reciprocal rank fusion."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping

from askvault.chunk import note_chunk_id
from askvault.config import RetrievalParams
from askvault.errors import BadRequest, ModelError
from askvault.model import Chunk, Hit, RankedId, SearchFilters, SearchMode, SearchResult, TermStat
from askvault.parse.links import LinkResolver
from askvault.retrieve.date_filter import NO_PLAN, DatePlan, plan_date_scope, scoped_dense_search, without_scope
from askvault.retrieve.dates import current_now
from askvault.retrieve.dense import DenseIndex
from askvault.retrieve.fusion import Fused, protect_leaders, rrf
from askvault.retrieve.identifiers import exact_ranking
from askvault.retrieve.mentions import Mention, best_of, has_tag, heading_matches, parse_mentions, promote, resolve_note
from askvault.retrieve.signals import GraphSignals
from askvault.store.catalog import ChunkCatalog
from askvault.store.links import NoteLinks
from askvault.store.protocol import KeywordIndex
from askvault.store.tokenize import identifiers

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
        self._resolver: tuple[Mapping[str, Chunk], LinkResolver, dict[str, str]] | None = None
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
        plan = NO_PLAN
        if self._params.query_dates:
            plan = plan_date_scope(query, filters, self._catalog.snapshot(), current_now())
        result = await self._search(query, k, mode, filters, plan, started)
        if plan.accept is not None and not result.hits:
            # Scoped to a range that held nothing for this query: search everything and say so.
            result = await self._search(query, k, mode, filters, without_scope(plan), started)
        return result

    async def _search(
        self, query: str, k: int, mode: SearchMode, filters: SearchFilters, plan: DatePlan, started: float
    ) -> SearchResult:
        timings: dict[str, float] = {}
        dense_ranked: list[RankedId] = []
        dense_available = self._dense.usable
        if mode in ("hybrid", "dense"):
            dense_ranked, dense_available = await self._dense_leg(query, filters, mode, timings, plan)

        keyword_ranked: list[RankedId] = []
        terms: list[TermStat] = []
        keyword_matched = 0
        if mode in ("hybrid", "keyword"):
            t0 = time.perf_counter()
            result = self._keywords.search(query, self._params.keyword_k, self._allow(filters, plan))
            keyword_ranked, terms, keyword_matched = result.ranked, result.terms, result.matched
            timings["keyword"] = _ms(t0)

        t0 = time.perf_counter()
        hits = self._fuse(query, mode, filters, dense_ranked, keyword_ranked, k)
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
            date_scope=plan.report,
        )

    async def _dense_leg(
        self, query: str, filters: SearchFilters, mode: SearchMode, timings: dict[str, float], plan: DatePlan
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
        if plan.accept is None:
            ranked = await store.search(vector, self._params.dense_k, filters)
        else:
            chunks = self._catalog.snapshot()
            ranked = await scoped_dense_search(store, vector, self._params.dense_k, filters, chunks, plan.accept)
        timings["dense"] = _ms(t0)
        return ranked, True

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
        query: str,
        mode: SearchMode,
        filters: SearchFilters,
        dense: list[RankedId],
        keyword: list[RankedId],
        k: int,
    ) -> list[Hit]:
        chunks = self._catalog.snapshot()
        dense_scores = {r.chunk_id: r.score for r in dense}
        keyword_scores = {r.chunk_id: r.score for r in keyword}
        # Keyword first: on an exact RRF tie (ranks mirrored between the legs) the chunk holding the query's
        # literal words wins, so an exact ID or port beats a look-alike the embedder cannot tell apart.
        rankings = {"keyword": [r.chunk_id for r in keyword], "dense": [r.chunk_id for r in dense]}
        hits: list[Hit] = []
        weights = {"keyword": self._params.keyword_weight, "dense": self._params.dense_weight}
        fused_ranking = rrf(rankings, k=self._params.rrf_k, weights=weights)
        boosts: dict[str, list[str]] = {}
        if mode == "hybrid" and self._params.identifier_weight > 0:
            fused_ranking = self._exact_identifiers(query, fused_ranking, rankings, weights, chunks, boosts)
        fused_ranking = protect_leaders(fused_ranking, rankings, self._params.protect_top)
        if self._params.expand_note_hits:
            fused_ranking = expand_note_hits(fused_ranking, chunks)
        fused_ranking = self._signals.apply(fused_ranking, filters)  # link graph, neighbours (off by default)
        if mode == "hybrid" and self._params.mention_top > 0:
            fused_ranking = self._promote_mentions(query, filters, fused_ranking, chunks, boosts)
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
                    boosts=tuple(boosts.get(fused.chunk_id, ())),
                    via=fused.via,
                )
            )
            if len(hits) >= k:
                break
        return hits

    def _exact_identifiers(
        self,
        query: str,
        fused: list[Fused],
        rankings: dict[str, list[str]],
        weights: dict[str, float],
        chunks: Mapping[str, Chunk],
        boosts: dict[str, list[str]],
    ) -> list[Fused]:
        """Fuses a third ranking in: the candidates that hold one of the query's identifiers literally, in fused
        order (more identifiers first), so `kodi-livingroom` lifts the rows that name it over chunks that only
        share its parts."""
        names = identifiers(query)
        exact, held_by = exact_ranking([f.chunk_id for f in fused], chunks, names)
        if not exact:
            return fused
        for chunk_id, held in held_by.items():
            boosts.setdefault(chunk_id, []).extend(f"identifier:{name}" for name in held)
        return rrf(
            {**rankings, "exact": exact},
            k=self._params.rrf_k,
            weights={**weights, "exact": self._params.identifier_weight},
        )

    def _promote_mentions(
        self,
        query: str,
        filters: SearchFilters,
        fused: list[Fused],
        chunks: Mapping[str, Chunk],
        boosts: dict[str, list[str]],
    ) -> list[Fused]:
        """Each `[[Note]]` / `#tag` the query names gets its best chunk within the first `mention_top` places."""
        mentions = parse_mentions(query)
        if not mentions:
            return fused
        resolver, titles = self._notes(chunks)
        wanted: list[Fused] = []
        labels: dict[str, str] = {}
        for mention in mentions:
            path = resolve_note(mention.target, resolver, titles) if mention.kind == "note" else None
            if mention.kind == "note" and path is None:
                continue
            best = best_of(fused, chunks, mention, path) or self._best_outside(query, filters, chunks, mention, path)
            if best is not None and best.chunk_id not in labels:
                wanted.append(best)
                labels[best.chunk_id] = mention.label
        promoted, moved = promote(fused, wanted, self._params.mention_top)
        for chunk_id in moved:
            boosts.setdefault(chunk_id, []).append(labels[chunk_id])
        return promoted

    def _notes(self, chunks: Mapping[str, Chunk]) -> tuple[LinkResolver, dict[str, str]]:
        """A link resolver and path → title over the catalog snapshot, built once per snapshot (it is swapped
        whole on every index change)."""
        cached = self._resolver
        if cached is not None and cached[0] is chunks:
            return cached[1], cached[2]
        titles = {chunk.path: chunk.title for chunk in chunks.values()}
        resolver = LinkResolver(titles)
        self._resolver = (chunks, resolver, titles)
        return resolver, titles

    def _best_outside(
        self, query: str, filters: SearchFilters, chunks: Mapping[str, Chunk], mention: Mention, path: str | None
    ) -> Fused | None:
        """When no chunk of the mention ranks: its best keyword match for the query (the keyword leg restricted to
        it), else, for a note, the linked heading's chunk or its first chunk. No leg placed it, so its score is 0."""

        def in_scope(chunk: Chunk | None) -> bool:
            if chunk is None or not filters.accepts(chunk):
                return False
            return chunk.path == path if mention.kind == "note" else has_tag(chunk, mention.target)

        found = self._keywords.search(query, 1, lambda chunk_id: in_scope(chunks.get(chunk_id))).ranked
        if found:
            return Fused(found[0].chunk_id, 0.0, {})
        if mention.kind == "tag":
            return None
        first = min(
            (c for c in chunks.values() if in_scope(c)),
            key=lambda c: (not heading_matches(c, mention.heading), c.start_line),
            default=None,
        )
        return Fused(first.id, 0.0, {}) if first is not None else None
