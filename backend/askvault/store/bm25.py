"""The keyword index: BM25 (rank-bm25's Okapi statistics with a Lucene IDF) over chunk text, scoring only candidates."""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from askvault.errors import BadRequest
from askvault.model import Chunk, ChunkInfo, RankedId, TermStat
from askvault.store.bm25_stats import TermCounts, bm25_weights, lucene_idf

__all__ = ["Bm25Index", "lucene_idf"]
from askvault.store.multilingual import Detect, LanguageTokenizers, QueryTerms, main_languages
from askvault.store.protocol import KeywordResult
from askvault.store.tokenize import Tokenizer


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """One immutable index generation; searches hold a reference to one while a rebuild makes the next."""

    ids: tuple[str, ...]
    vocab: Mapping[str, int]
    """Term → term number; may hold terms with no postings here, or numbers past `idf` (see `Postings.vocab`)."""
    idf: npt.NDArray[np.float64]
    """IDF per term number."""
    indptr: npt.NDArray[np.int64]
    """The postings of term t are positions indptr[t] to indptr[t + 1] of `docs` and `tf`."""
    docs: npt.NDArray[np.int32]
    """Chunk number of each posting, ascending within a term."""
    tf: npt.NDArray[np.uint16] | npt.NDArray[np.uint32]
    """Term frequency of each posting (`Postings.tf`)."""
    norm: npt.NDArray[np.float64]
    """Per chunk number, k1·(1 − b + b·dl/avgdl). A posting's BM25 factor, tf·(k1 + 1) / (tf + norm), is computed
    when a query reads it (`weights`): 2 bytes a posting kept instead of 8, the same float64s."""
    k1: float = 0.0
    """BM25's k1, which `weights` needs too (`norm` holds it and b for the rest)."""
    languages: tuple[str, ...] = ()
    """The vault's main languages (`multilingual.main_languages`): every question is analysed in each."""
    present: frozenset[str] = frozenset()
    """Every language some chunk is in: a question's own language counts only if notes are written in it."""
    words: Sequence[str] = ()
    """Term number → term (`Postings.words`)."""
    numbers: Mapping[str, int] = field(default_factory=dict)
    """Chunk id → its number (position in `ids`)."""

    def weights(self, at: slice | npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """The BM25 term-frequency factors of the postings at `at`."""
        return bm25_weights(self.tf[at], self.norm[self.docs[at]], self.k1)


_EMPTY = _Snapshot(
    ids=(),
    vocab={},
    idf=np.zeros(0, dtype=np.float64),
    indptr=np.zeros(1, dtype=np.int64),
    docs=np.zeros(0, dtype=np.int32),
    tf=np.zeros(0, dtype=np.uint16),
    norm=np.zeros(0, dtype=np.float64),
)


def _build(
    counts: TermCounts,
    tokenizers: LanguageTokenizers,
    docs: Iterable[tuple[str, str] | ChunkInfo],
    k1: float,
    b: float,
) -> _Snapshot:
    texts: dict[str, tuple[str, str] | None] = {}
    """Chunk id → (index text, language) to count, or None: a `ChunkInfo`, counted by an earlier rebuild."""
    note_of: dict[str, str] = {}
    """Note (path) → language; a plain (id, text) pair is a note of its own in the default language."""
    for doc in docs:
        # A repeated id keeps its first place and its last text.
        if isinstance(doc, Chunk):
            texts[doc.id] = (doc.index_text, doc.language)
            note_of[doc.path] = doc.language
        elif isinstance(doc, ChunkInfo):
            texts[doc.id] = None
            note_of[doc.path] = doc.language
        else:
            texts[doc[0]] = (doc[1], "")
            note_of["\x00" + doc[0]] = ""  # no path starts with NUL
    counts.keep_only(texts.keys())
    if not texts:
        return _EMPTY
    chunks = [counts.kept(cid) if text is None else counts.of(cid, *text) for cid, text in texts.items()]
    postings = counts.postings(chunks, k1, b)
    notes: Counter[str] = Counter()
    for language, n in Counter(note_of.values()).items():
        notes[tokenizers.code(language)] += n
    return _Snapshot(
        ids=tuple(texts),
        vocab=postings.vocab,
        idf=postings.idf,
        indptr=postings.indptr,
        docs=postings.docs,
        tf=postings.tf,
        norm=postings.norm,
        k1=k1,
        languages=main_languages(notes),
        present=frozenset(tokenizers.code(language) for language in set(note_of.values())),
        words=postings.words,
        numbers={chunk_id: number for number, chunk_id in enumerate(texts)},
    )


class Bm25Index:
    """BM25 keyword search with OR semantics: every chunk holding any query term is a candidate, ranked by the sum
    of its terms' IDF-weighted scores, so one rare word outweighs several common ones.

    Scores equal rank-bm25's `get_scores` with a Lucene IDF (`tests/store/bm25_oracle.py`, the tests' oracle) on
    every chunk they cover, but only the chunks in the postings of the query's terms are touched, with numpy over
    those postings' term frequencies and their chunks' length norms, instead of a Python loop over every chunk.
    The statistics are counted by `bm25_stats` from term counts kept per chunk, so a rebuild after one note
    changed tokenizes only that note.
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
        self._snapshot = _EMPTY
        self._rebuilding = threading.Lock()
        self._counts = TermCounts(self._languages)
        """Each chunk's term counts from the last rebuild: the next one tokenizes only new or changed text."""

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

    def _analysis(self, snap: _Snapshot) -> QueryTerms:
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
            snapshot = _build(self._counts, self._languages, docs, self._k1, self._b)
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
        self, terms: Sequence[str], snap: _Snapshot, limit: int, allow: Callable[[str], bool] | None
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

    def terms_in(self, terms: Sequence[str], chunk_ids: Collection[str]) -> set[str]:
        """The terms (already analysed, as `search` reports them) that occur in at least one of `chunk_ids`, read
        from the same postings a search scores: what a chunk matches is exactly what ranked it."""
        snap = self._snapshot
        wanted = set(chunk_ids)
        numbers = np.fromiter((i for i, cid in enumerate(snap.ids) if cid in wanted), dtype=np.int32)
        held: set[str] = set()
        if not len(numbers):
            return held
        for term in terms:
            number = snap.vocab.get(term)
            if number is None or number >= len(snap.idf):
                continue
            docs = snap.docs[int(snap.indptr[number]) : int(snap.indptr[number + 1])]
            if np.isin(docs, numbers).any():
                held.add(term)
        return held
