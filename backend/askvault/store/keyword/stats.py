"""BM25's numbers as numpy arrays: Lucene IDF, the term-frequency factor, and postings grouped by term (CSR)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, cast

import numpy as np
import numpy.typing as npt

MAX_NARROW: Final = 65_535
"""The largest term frequency a uint16 posting holds; a chunk holding a term more often makes them uint32."""
COMPACT_FROM: Final = 4096
"""A vocabulary this big, mostly unused by the chunks of a rebuild, is renumbered (`csr`)."""

Tf = npt.NDArray[np.uint16] | npt.NDArray[np.uint32]


def lucene_idf(n_docs: int, df: int) -> float:
    """log(1 + (N - df + 0.5) / (df + 0.5)): positive for every 1 ≤ df ≤ N and falling as df rises."""
    return math.log1p((n_docs - df + 0.5) / (df + 0.5))


def text_digest(text: str, language: str) -> int:
    """Tells a chunk's index text (and language) from the one counted before without keeping it: Python's 64-bit
    hash, salted per process, which is all it must be (the index lives only in this process's memory)."""
    return hash((text, language))


def bm25_weights(tf: Tf, norm: npt.NDArray[np.float64], k1: float) -> npt.NDArray[np.float64]:
    """BM25's term-frequency factor tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl)) of postings, `norm` being the
    chunks' k1·(1 − b + b·dl/avgdl): rank-bm25's formula in its operation order, so scores agree with its
    `get_scores` bit for bit."""
    counts = tf.astype(np.float64)
    weights: npt.NDArray[np.float64] = counts * (k1 + 1) / (counts + norm)
    return weights


@dataclass(frozen=True, slots=True)
class Postings:
    """Postings as (term number, chunk number, term frequency) triples, sorted by term, then chunk."""

    term: npt.NDArray[np.int32]
    doc: npt.NDArray[np.int32]
    tf: Tf

    @staticmethod
    def of(term: npt.NDArray[np.int32], doc: npt.NDArray[np.int32], tf: Tf, n_docs: int) -> Postings:
        """Sorts triples given in any order (each (term, chunk) pair at most once)."""
        order = np.argsort(_key(term, doc, n_docs))
        return Postings(term[order], doc[order], tf[order])

    def merged(self, other: Postings, n_docs: int) -> Postings:
        """Both sets of sorted triples (no (term, chunk) pair in both), sorted: `other` is inserted into this one."""
        if not len(other.term):
            return self
        if not len(self.term):
            return other
        at = np.searchsorted(_key(self.term, self.doc, n_docs), _key(other.term, other.doc, n_docs))
        # np.insert takes the first array's type: uint32 when either holds counts past uint16.
        first = self.tf.astype(np.uint32, copy=False) if other.tf.dtype == np.uint32 else self.tf
        tf = cast("Tf", np.insert(first, at, other.tf))
        return Postings(np.insert(self.term, at, other.term), np.insert(self.doc, at, other.doc), tf)


def _key(term: npt.NDArray[np.int32], doc: npt.NDArray[np.int32], n_docs: int) -> npt.NDArray[np.int64]:
    key: npt.NDArray[np.int64] = term.astype(np.int64) * n_docs + doc
    return key


@dataclass(frozen=True, slots=True)
class Csr:
    """BM25's statistics over one rebuild's chunks: rank-bm25's Okapi df, lengths and avgdl with a Lucene IDF."""

    words: list[str]
    """Term number → term: the vocabulary given, or a renumbered copy when most of it went unused."""
    idf: npt.NDArray[np.float64]
    indptr: npt.NDArray[np.int64]
    """The postings of term t are positions indptr[t] to indptr[t + 1] of `docs` and `tf`."""
    docs: npt.NDArray[np.int32]
    tf: Tf
    norm: npt.NDArray[np.float64]
    """Per chunk, k1·(1 − b + b·dl/avgdl): a posting's BM25 factor is tf·(k1 + 1) / (tf + norm) (`bm25_weights`)."""


def csr(postings: Postings, lengths: npt.NDArray[np.int64], words: list[str], k1: float, b: float) -> Csr:
    """Postings grouped by term, chunks ascending within a term, the IDF of each term and each chunk's norm.

    Postings keep tf, chunks their length norm; `bm25_weights` makes a posting's weight from them at query
    time with rank-bm25's formula in its operation order, so scores agree with its `get_scores` bit for bit
    (and with weights stored per posting, as they were: tests/store/test_bm25_weights_exact.py). A vocabulary
    of at least `COMPACT_FROM` words, less than half of which these chunks hold, comes back renumbered.
    """
    n_docs = len(lengths)
    term = postings.term
    df = np.bincount(term, minlength=len(words))
    used = np.flatnonzero(df)
    if len(words) >= COMPACT_FROM and 2 * len(used) < len(words):
        renumber = np.full(len(words), -1, dtype=np.int32)
        renumber[used] = np.arange(len(used), dtype=np.int32)
        words, term, df = [words[number] for number in used.tolist()], renumber[term], df[used]
    indptr = np.zeros(len(df) + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    norm = np.zeros(n_docs, dtype=np.float64)
    if len(term):  # avgdl is 0 when every chunk is empty of terms, and then there is no posting
        avgdl = int(lengths.sum()) / n_docs
        # The same float64 operations, in the same order, as the per-posting weights computed here before.
        norm = k1 * (1 - b + b * lengths.astype(np.float64) / avgdl)
    # One IDF per distinct df (at most one per chunk), computed as LuceneIdfBM25 does, so the floats match.
    by_df = np.array([lucene_idf(n_docs, d) for d in range(int(df.max(initial=0)) + 1)], dtype=np.float64)
    tf: Tf = postings.tf.astype(np.uint16, copy=False)
    if len(postings.tf) and int(postings.tf.max()) > MAX_NARROW:
        tf = postings.tf.astype(np.uint32, copy=False)
    return Csr(words=words, idf=by_df[df], indptr=indptr, docs=postings.doc, tf=tf, norm=norm)
