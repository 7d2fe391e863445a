"""The keyword index: BM25 (rank-bm25's Okapi statistics with a Lucene IDF) over chunk text, scoring only candidates."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np

from askvault.errors import BadRequest
from askvault.model import ChunkInfo, RankedId, TermStat
from askvault.store.keyword.build import Snapshot, build, empty
from askvault.store.keyword.stats import lucene_idf
from askvault.store.protocol import KeywordResult
from askvault.store.text.multilingual import Detect, LanguageTokenizers, QueryTerms
from askvault.store.text.tokenize import Tokenizer

__all__ = ["Bm25Index", "lucene_idf"]


class Bm25Index:
    """BM25 keyword search with OR semantics: every chunk holding any query term is a candidate, ranked by the sum
    of its terms' IDF-weighted scores, so one rare word outweighs several common ones.

    Scores equal rank-bm25's `get_scores` with a Lucene IDF (`tests/store/bm25_oracle.py`, the tests' oracle) on
    every chunk they cover, but only the chunks in the postings of the query's terms are touched, with numpy over
    those postings' term frequencies and their chunks' length norms, instead of a Python loop over every chunk.
    A rebuild (`build`) tokenizes only new or changed text and takes every other chunk's terms from the
    last snapshot's postings, so a rebuild after one note changed tokenizes only that note, and nothing but the
    postings and a few numbers a chunk is kept between rebuilds.
    """

    def __init__(
        self,
        tokenizer: Tokenizer,
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
        detect: Detect | None = None,
    ) -> None:
        """`tokenizer` serves notes of unknown language (and every note of a one-language index); `detect` finds a
        question's own language (None: questions are analysed in the vault's main languages only)."""
        if not (k1 >= 0 and math.isfinite(k1)):
            raise ValueError(f"k1 must be a finite number ≥ 0, got {k1}")
        if not 0 <= b <= 1:
            raise ValueError(f"b must be between 0 and 1, got {b}")
        self._tokenizer = tokenizer
        self._languages = LanguageTokenizers(tokenizer)
        self._detect = detect
        self._k1 = k1
        self._b = b
        self._epsilon = epsilon
        self._snapshot = empty()
        self._rebuilding = threading.Lock()

    @property
    def tokenizer(self) -> Tokenizer:
        """The default language's tokenizer (see `query_terms` for what a question becomes)."""
        return self._tokenizer

    @property
    def languages(self) -> tuple[str, ...]:
        """The main languages of the indexed notes (codes, most notes first): questions are analysed in each."""
        return self._snapshot.languages or (self._languages.default_code,)

    def query_terms(self, query: str) -> list[str]:
        """The terms a search for `query` looks up: its stems in its own language, when it is detected and some
        note is written in it, and in each of the vault's main languages (`multilingual.LanguageTokenizers`).
        An index of one language analyses every question in that language alone, detecting nothing."""
        analysis = self.query_analysis()
        return analysis.terms(query, analysis.language(query))

    def query_analysis(self) -> QueryTerms:
        """How questions are analysed at the current snapshot (`query_terms`), to analyse one once."""
        return self._analysis(self._snapshot)

    def _analysis(self, snap: Snapshot) -> QueryTerms:
        main = snap.languages or (self._languages.default_code,)
        return QueryTerms(self._languages, main, snap.present, self._detect)

    def rebuild(self, docs: Iterable[tuple[str, str] | ChunkInfo]) -> None:
        """Builds a whole new snapshot from chunks (or plain (chunk_id, index_text) pairs, in the default
        language), then swaps one reference; searches that started earlier finish on the old snapshot. Rebuilds
        run one at a time. Each chunk is tokenized in its note's language (`Chunk.language`).

        Only chunks that are new or whose text changed since the last rebuild are tokenized; the statistics
        (document frequencies, lengths, average length) are recounted over all of them, so the result is the
        same as a first rebuild of the same pairs. A `ChunkInfo` (a chunk without its text) stands for a chunk
        unchanged since the last rebuild, which must have held it (ValueError otherwise): a watcher patch
        passes the notes it did not touch so. `docs` is read once, one at a time, and no text is kept.
        """
        with self._rebuilding:
            snapshot = build(self._snapshot, self._languages, docs, self._k1, self._b)
            self._snapshot = snapshot

    def __len__(self) -> int:
        return len(self._snapshot.ids)

    def search(self, query: str, limit: int, allow: Callable[[str], bool] | None = None) -> KeywordResult:
        """Top `limit` chunks, best first, by exact BM25: every chunk holding a query term is scored in full (no
        candidate pruning), so the list is rank-bm25's `get_scores` order at any size (tests/store/
        test_bm25_exact_large.py). Ties (equal float64 scores: the same terms as often in chunks as long) go
        to the chunk that came first in the rebuild; the indexer rebuilds in manifest order, note path then
        position in the note, after a watcher patch as after a full rebuild (docs/decisions.md, "Keyword
        results at any size"). `allow(chunk_id)` is applied to every candidate before truncation, and `matched`
        counts the candidates it let through."""
        snap = self._snapshot
        analysis = self._analysis(snap)
        return self._search(analysis.terms(query, analysis.language(query)), snap, limit, allow)

    def search_terms(
        self, terms: Sequence[str], limit: int, allow: Callable[[str], bool] | None = None
    ) -> KeywordResult:
        """`search` for terms already analysed (as `query_terms` or `distinctive_terms` give them)."""
        return self._search(terms, self._snapshot, limit, allow)

    def distinctive_terms(self, chunk_ids: Collection[str], limit: int) -> list[str]:
        """The `limit` terms of these chunks with the highest tf·idf, summed over them (tf saturated and length
        normalised as BM25 does: each term's score in each chunk), best first, ties by term."""
        snap = self._snapshot
        numbers = [snap.numbers[c] for c in chunk_ids if c in snap.numbers]
        if not numbers or limit < 1:
            return []
        at = np.flatnonzero(np.isin(snap.docs, np.asarray(numbers, dtype=np.int32)))
        term_of = np.searchsorted(snap.indptr, at, side="right") - 1
        weight = np.bincount(term_of, weights=snap.idf[term_of] * snap.weights(at))
        held = np.flatnonzero(weight)
        order = sorted(held.tolist(), key=lambda t: (-float(weight[t]), snap.words[t]))
        return [snap.words[t] for t in order[:limit]]

    def _search(
        self, terms: Sequence[str], snap: Snapshot, limit: int, allow: Callable[[str], bool] | None
    ) -> KeywordResult:
        if limit < 1:
            raise BadRequest(f"limit must be at least 1, got {limit}")
        stats: list[TermStat] = []
        spans: list[tuple[int, int, float]] = []
        for term in terms:
            number = snap.vocab.get(term)
            # The vocabulary is shared with later rebuilds: a term they added numbers past this snapshot's arrays.
            if number is None or number >= len(snap.idf) or snap.indptr[number] == snap.indptr[number + 1]:
                stats.append(TermStat(term=term, df=0, idf=0.0))
                continue
            start, end = int(snap.indptr[number]), int(snap.indptr[number + 1])
            idf = float(snap.idf[number])
            stats.append(TermStat(term=term, df=end - start, idf=idf))
            spans.append((start, end, idf))
        if not spans:
            return KeywordResult(ranked=[], terms=stats, matched=0)

        scores = np.zeros(len(snap.ids), dtype=np.float64)
        for start, end, idf in spans:
            # A chunk appears at most once in a term's postings, so fancy-index += adds each contribution once.
            scores[snap.docs[start:end]] += idf * snap.weights(slice(start, end))
        # Every posting adds a positive amount (idf > 0, tf ≥ 1), so the candidates are exactly the non-zero scores.
        candidates = np.flatnonzero(scores)
        if allow is not None:
            ids = snap.ids
            keep = np.fromiter((allow(ids[i]) for i in candidates.tolist()), dtype=np.bool_, count=len(candidates))
            candidates = candidates[keep]
        matched = len(candidates)
        picked = scores[candidates]
        if matched > limit:
            # Keep everything tied with the limit-th score so the tie-break below, not argpartition, decides.
            threshold = np.partition(picked, matched - limit)[matched - limit]
            inside = picked >= threshold
            candidates, picked = candidates[inside], picked[inside]
        order = np.lexsort((candidates, -picked))[:limit]
        ranked = [RankedId(chunk_id=snap.ids[i], score=float(scores[i])) for i in candidates[order].tolist()]
        return KeywordResult(ranked=ranked, terms=stats, matched=matched)

    def tokenize(self, text: str, language: str = "") -> list[str]:
        return self._languages.tokenize(text, language)

    def terms_in(self, terms: Sequence[str], chunk_ids: Collection[str]) -> set[str]:
        """The terms (already analysed, as `search` reports them) that occur in at least one of `chunk_ids`, read
        from the same postings a search scores: what a chunk matches is exactly what ranked it."""
        held: set[str] = set()
        for terms_of_chunk in self.held_terms(terms, chunk_ids).values():
            held |= terms_of_chunk
        return held

    def held_terms(self, terms: Sequence[str], chunk_ids: Collection[str]) -> dict[str, frozenset[str]]:
        """For each of `chunk_ids` in this snapshot, which of `terms` (analysed) its postings hold; a chunk the
        snapshot lacks is left out. One binary search per term over its postings (chunks ascend within a term),
        so the cost grows with the terms and chunks asked about, not with the vault."""
        snap = self._snapshot
        numbers = {cid: snap.numbers[cid] for cid in chunk_ids if cid in snap.numbers}
        if not numbers:
            return {}
        order = sorted(set(numbers.values()))
        wanted = np.asarray(order, dtype=np.int32)
        held: dict[int, set[str]] = {number: set() for number in order}
        indptr, size = snap.indptr, len(snap.idf)
        for term in dict.fromkeys(terms):
            number = snap.vocab.get(term)
            if number is None or number >= size:
                continue
            start, end = int(indptr[number]), int(indptr[number + 1])
            if start == end:
                continue
            docs = snap.docs[start:end]
            # Where each wanted chunk would sit; clipped, so one past the end compares with the last posting.
            found = np.take(docs, docs.searchsorted(wanted), mode="clip") == wanted
            for chunk, holds in zip(order, found.tolist(), strict=True):
                if holds:
                    held[chunk].add(term)
        return {cid: frozenset(held[number]) for cid, number in numbers.items()}
