"""Related notes: the notes closest to one note, from its chunk vectors, or its most distinctive terms."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from askvault.embed.protocol import Embedder
from askvault.errors import BadRequest, NotFound
from askvault.model import Chunk, ChunkInfo, SearchFilters
from askvault.retrieve.informative import LOW_INFORMATION
from askvault.retrieve.note_paths import not_found_message
from askvault.retrieve.note_similarity import (
    SCORE_DIGITS,
    Aggregation,
    Matrix,
    query_rows,
    score_notes,
    shortlist,
    unit_rows,
)
from askvault.retrieve.timing import STAGE_DIGITS, elapsed_ms
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.protocol import KeywordIndex, VectorStore
from askvault.store.vectors.dense_index import DenseIndex

RelatedMethod = Literal["dense", "keyword"]
NO_NOTE = "no indexed note at this path"
"""The one answer for a note that is missing, not indexed or excluded: it never says which."""
AGGREGATION: Aggregation = "max"
"""Measured against `max` and `mean` on the sample vault (docs/decisions.md, "Related notes")."""
NEIGHBOURS = 40
"""Nearest chunks fetched per source chunk (beyond the source's own, which come back first)."""
MAX_QUERIES = 8
"""A note of more chunks searches with the centroids of this many runs of them (one batched search either way).
On the sample vault 8 queries of 40 neighbours find exactly the exhaustive top 10 of every note."""
SHORTLIST_EXTRA = 5
"""Notes rescored exactly beyond the k asked for (the estimate from the searches alone is optimistic); on the
sample vault 5 give the exhaustive top 10 of every note, 0 lose 2 notes in 1,000."""
KEYWORD_TERMS = 24
KEYWORD_CHUNKS = 200
INFORMATIVE_FLOOR = LOW_INFORMATION
"""A passage with less of its own prose than this (percent; the rest template, link or query lines,
`chunk.boilerplate`) neither finds related notes nor is found: two notes are never related through a shared
footer. A note with no such passage at all is represented by all of its passages (eval/README.md, "Passages that
say nothing")."""


def informative(chunks: list[ChunkInfo], floor: int = INFORMATIVE_FLOOR, candidate: bool = False) -> list[ChunkInfo]:
    """The chunks with at least `floor` percent of their own prose. When none has: all of them for the note asked
    about (a stub still has related notes), and for a candidate its link lists only (a MOC is what it links to; a
    note of nothing but template lines is related to nothing through them)."""
    kept = [chunk for chunk in chunks if chunk.noise.informative >= floor]
    if kept or not candidate:
        return kept or chunks
    return [chunk for chunk in chunks if chunk.noise.links > chunk.noise.template + chunk.noise.query]


@dataclass(frozen=True, slots=True)
class RelatedHit:
    path: str
    title: str
    score: float
    """Dense: the aggregated cosine (-1..1); keyword: BM25 over the top result's (0..1)."""
    passage: Chunk
    """The candidate's chunk closest to the source note."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A `RelatedHit` before its passage's text is read."""

    path: str
    title: str
    score: float
    passage: ChunkInfo


@dataclass(frozen=True, slots=True)
class RelatedResult:
    path: str
    method: RelatedMethod
    hits: list[RelatedHit]
    timings_ms: dict[str, float] = field(default_factory=dict)
    terms: tuple[str, ...] = ()
    """The keyword method's query: the note's most distinctive terms (empty for dense)."""


class RelatedNotes:
    """Ranks other notes by similarity to one indexed note. Never the note itself, never a hidden chunk."""

    def __init__(
        self,
        catalog: ChunkCatalog,
        keywords: KeywordIndex,
        dense: DenseIndex[Embedder],
        visible: Callable[[ChunkInfo], bool] | None = None,
        *,
        aggregation: Aggregation = AGGREGATION,
        floor: int = INFORMATIVE_FLOOR,
    ) -> None:
        self._catalog = catalog
        self._keywords = keywords
        self._dense = dense
        self._visible = visible
        """Re-checks the privacy rules on each chunk (the index may predate them); None shows every chunk."""
        self.aggregation = aggregation
        self.floor = floor

    def _shown(self, chunk: ChunkInfo) -> bool:
        return self._visible is None or self._visible(chunk)

    async def related(self, path: str, k: int = 10, method: RelatedMethod | None = None) -> RelatedResult:
        """The `k` notes closest to `path`, best first, ties by path. Dense when the vectors are ready (and
        `method` is not "keyword"), else keyword. NotFound when `path` has no chunk that may be shown."""
        if k < 1:
            raise BadRequest("k must be at least 1")
        started = time.perf_counter()
        chunks = self._catalog.snapshot()
        order = self._catalog.by_note()

        def shown(note: str) -> list[ChunkInfo]:
            found = (chunks.get(cid) for cid in order.get(note, ()))
            return [chunk for chunk in found if chunk is not None and self._shown(chunk)]

        source: list[ChunkInfo] = []
        for candidate in (path, path + ".md"):  # `.md` is often left out
            if source := shown(candidate):
                path = candidate
                break
        if not source:
            visible = [note for note in order if shown(note)]  # only on a miss: an excluded note is never suggested
            raise NotFound(not_found_message(path, visible))
        source = informative(source, self.floor)
        store = self._dense.store
        if method != "keyword" and self._dense.usable and store is not None:
            hits = await self._dense_related(store, path, source, k, chunks, order)
            if hits is not None:
                return RelatedResult(
                    path, "dense", self._with_passages(hits), {"total": elapsed_ms(started, STAGE_DIGITS)}
                )
        terms = tuple(self._keywords.distinctive_terms([c.id for c in source], KEYWORD_TERMS))
        hits = self._keyword_related(path, terms, k, chunks, order)
        return RelatedResult(
            path, "keyword", self._with_passages(hits), {"total": elapsed_ms(started, STAGE_DIGITS)}, terms
        )

    def _with_passages(self, hits: list[_Candidate]) -> list[RelatedHit]:
        """The hits with their passages' texts, read in one go (the catalog keeps none); a passage removed
        meanwhile takes its hit with it."""
        full = self._catalog.with_text([hit.passage for hit in hits])
        return [
            RelatedHit(hit.path, hit.title, hit.score, passage)
            for hit in hits
            if (passage := full.get(hit.passage.id)) is not None
        ]

    async def _dense_related(
        self,
        store: VectorStore,
        path: str,
        source: Sequence[ChunkInfo],
        k: int,
        chunks: Mapping[str, ChunkInfo],
        order: Mapping[str, tuple[str, ...]],
    ) -> list[_Candidate] | None:
        stored = await store.vectors([c.id for c in source])
        rows = [stored[c.id] for c in source if c.id in stored]
        if not rows:
            return None  # not embedded yet (dense search still building for this note): keyword
        dim = len(rows[0])
        own = unit_rows(rows, dim)
        limit = NEIGHBOURS + len(order.get(path, ()))
        answers = await store.search_batch(query_rows(own, MAX_QUERIES).tolist(), limit, SearchFilters())
        found: list[dict[str, float]] = []
        floors: list[float] = []
        for answer in answers:
            best: dict[str, float] = {}
            for ranked in answer:
                chunk = chunks.get(ranked.chunk_id)
                if chunk is not None and chunk.path != path and ranked.score > best.get(chunk.path, -2.0):
                    best[chunk.path] = ranked.score
            found.append(best)
            # Fewer hits than asked for means every vector was seen: a note not reached has none.
            floors.append(answer[-1].score if len(answer) >= limit else -1.0)
        candidates: dict[str, list[ChunkInfo]] = {}
        for note in shortlist(found, floors, self.aggregation):
            shown = [c for cid in order.get(note, ()) if (c := chunks.get(cid)) is not None and self._shown(c)]
            if kept := informative(shown, self.floor, candidate=True):
                candidates[note] = kept
                if len(candidates) >= k + SHORTLIST_EXTRA:
                    break
        vectors = await store.vectors([c.id for members in candidates.values() for c in members])
        with_vectors = {
            note: kept for note, members in candidates.items() if (kept := [c for c in members if c.id in vectors])
        }
        # One conversion for every candidate vector; each note's matrix is a view of its rows.
        stacked = unit_rows([vectors[c.id] for kept in with_vectors.values() for c in kept], dim)
        matrices: dict[str, Matrix] = {}
        start = 0
        for note, kept in with_vectors.items():
            matrices[note] = stacked[start : start + len(kept)]
            start += len(kept)
        matches = score_notes(own, matrices, self.aggregation)[:k]
        return [
            _Candidate(m.path, with_vectors[m.path][m.chunk].title, m.score, with_vectors[m.path][m.chunk])
            for m in matches
        ]

    def _keyword_related(
        self,
        path: str,
        terms: Sequence[str],
        k: int,
        chunks: Mapping[str, ChunkInfo],
        order: Mapping[str, tuple[str, ...]],
    ) -> list[_Candidate]:
        if not terms:
            return []
        kept: dict[str, frozenset[str]] = {}

        def allow(chunk_id: str) -> bool:
            chunk = chunks.get(chunk_id)
            if chunk is None or chunk.path == path:
                return False
            if chunk.noise.informative >= self.floor:
                return True
            if chunk.path not in kept:  # only for notes with a noisy passage among the matches: a few chunks each
                members = [c for cid in order.get(chunk.path, ()) if (c := chunks.get(cid)) is not None]
                kept[chunk.path] = frozenset(c.id for c in informative(members, self.floor, candidate=True))
            return chunk_id in kept[chunk.path]

        best: dict[str, tuple[float, ChunkInfo]] = {}
        for ranked in self._keywords.search_terms(terms, KEYWORD_CHUNKS, allow).ranked:
            chunk = chunks.get(ranked.chunk_id)
            # Ranked best first: a note's first shown chunk is its best one and its passage.
            if chunk is not None and chunk.path not in best and self._shown(chunk):
                best[chunk.path] = (ranked.score, chunk)
        if not best:
            return []
        top = max(score for score, _ in best.values())
        scored = sorted(
            ((round(score / top, SCORE_DIGITS), note, chunk) for note, (score, chunk) in best.items()),
            key=lambda entry: (-entry[0], entry[1]),
        )
        return [_Candidate(note, chunk.title, score, chunk) for score, note, chunk in scored[:k]]
