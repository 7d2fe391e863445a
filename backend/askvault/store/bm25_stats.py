"""BM25 statistics from per-chunk term counts kept across rebuilds: each text is tokenized once, postings by numpy."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np
import numpy.typing as npt

from askvault.store.multilingual import LanguageTokenizers
from askvault.store.tokenize import Tokenizer


def lucene_idf(n_docs: int, df: int) -> float:
    """log(1 + (N - df + 0.5) / (df + 0.5)): positive for every 1 ≤ df ≤ N and falling as df rises."""
    return math.log1p((n_docs - df + 0.5) / (df + 0.5))


NARROW: Final = np.dtype([("term", "<i4"), ("count", "<u2")])
"""One (term number, count) record of `ChunkTerms.packed`: 6 bytes, no padding."""
WIDE: Final = np.dtype([("term", "<i4"), ("count", "<u4")])
"""The same for a chunk holding one term more than 65,535 times (`ChunkTerms.wide`), so no count is clipped."""
MAX_NARROW: Final = 65_535


@dataclass(frozen=True, slots=True)
class ChunkTerms:
    """One chunk's distinct terms (as numbers in `TermCounts`' vocabulary) and how often each occurs.

    Kept for every chunk between rebuilds, so it is small: one `bytes` of records (`NARROW`, 6 bytes a term,
    or `WIDE`) instead of two numpy arrays (≈ 110 bytes of header each before any data).
    """

    digest: int
    """`text_digest` of the index text and language these counts were made from: a chunk whose text or language
    (its note's `lang`, or detection) changed is tokenized again. The text itself stays in the manifest."""
    packed: bytes
    """The (term, count) records, in `WIDE` when `wide` else `NARROW`."""
    length: int
    """Tokens in the chunk, repeats included (rank-bm25's document length)."""
    wide: bool = False

    @property
    def records(self) -> npt.NDArray[np.void]:
        return np.frombuffer(self.packed, dtype=WIDE if self.wide else NARROW)


@dataclass(frozen=True, slots=True)
class Postings:
    """BM25 postings grouped by term (CSR) over the chunks of one rebuild, numbered in the order given."""

    vocab: Mapping[str, int]
    """Term → term number. Shared with later rebuilds, which may add terms: a number past the end of `idf`, or
    a term whose postings are empty (df 0), is a term these chunks do not hold."""
    words: Sequence[str]
    """Term number → term (the inverse of `vocab`, shared with it the same way)."""
    idf: npt.NDArray[np.float64]
    indptr: npt.NDArray[np.int64]
    docs: npt.NDArray[np.int32]
    tf: npt.NDArray[np.uint16] | npt.NDArray[np.uint32]
    """Term frequency of each posting: uint16, or uint32 when some chunk holds a term more than 65,535 times."""
    norm: npt.NDArray[np.float64]
    """Per chunk, k1·(1 − b + b·dl/avgdl): a posting's BM25 factor is tf·(k1 + 1) / (tf + norm) (`bm25_weights`)."""


class TermCounts:
    """Term counts per chunk id, remembered between rebuilds so a rebuild tokenizes only new or changed text.

    Not thread-safe: one rebuild at a time uses it (Bm25Index holds its rebuild lock).
    """

    def __init__(self, tokenizer: Tokenizer | LanguageTokenizers) -> None:
        self._tokenizer = tokenizer if isinstance(tokenizer, LanguageTokenizers) else LanguageTokenizers(tokenizer)
        self._numbers: dict[str, int] = {}
        self._words: list[str] = []
        self._by_id: dict[str, ChunkTerms] = {}

    def __len__(self) -> int:
        return len(self._by_id)

    def of(self, chunk_id: str, text: str, language: str = "") -> ChunkTerms:
        digest = text_digest(text, language)
        cached = self._by_id.get(chunk_id)
        if cached is not None and cached.digest == digest:
            return cached
        counted = Counter(self._tokenizer.tokenize(text, language))
        numbers = self._numbers
        words = self._words
        wide = max(counted.values(), default=0) > MAX_NARROW
        records = np.empty(len(counted), dtype=WIDE if wide else NARROW)
        terms = records["term"]
        for position, word in enumerate(counted):
            number = numbers.get(word)
            if number is None:
                number = numbers[word] = len(words)
                words.append(word)
            terms[position] = number
        records["count"] = list(counted.values())
        length = sum(counted.values())
        entry = ChunkTerms(digest=digest, packed=records.tobytes(), length=length, wide=wide)
        self._by_id[chunk_id] = entry
        return entry

    def kept(self, chunk_id: str) -> ChunkTerms:
        """The counts of a chunk given without its text: unchanged since the last rebuild, which counted it."""
        cached = self._by_id.get(chunk_id)
        if cached is None:
            raise ValueError(f"chunk {chunk_id!r} comes without its text and was not in the last rebuild")
        return cached

    def keep_only(self, chunk_ids: Collection[str]) -> None:
        """Forgets every chunk not in `chunk_ids`."""
        self._by_id = {cid: entry for cid, entry in self._by_id.items() if cid in chunk_ids}

    def postings(self, chunks: Sequence[ChunkTerms], k1: float, b: float) -> Postings:
        """rank-bm25's Okapi statistics (df, document lengths, avgdl) with a Lucene IDF, as flat arrays.

        Postings keep tf, chunks their length norm; `bm25_weights` makes a posting's weight from them at query
        time with rank-bm25's formula in its operation order, so scores agree with its `get_scores` bit for bit
        (and with weights stored per posting, as they were: tests/store/test_bm25_weights_exact.py). Term numbers
        are the shared vocabulary's: the snapshot keeps a reference to it, and terms added later get numbers past
        the snapshot's arrays (see `Postings.vocab`).
        """
        n_docs = len(chunks)
        doc_len = np.fromiter((c.length for c in chunks), dtype=np.int64, count=n_docs)
        term_of, tf, sizes = _flat(chunks)
        df = np.bincount(term_of, minlength=len(self._words))
        # The stable sort keeps each term's chunks in ascending order; int32 makes it ~40% faster than int64.
        order = np.argsort(term_of, kind="stable")
        indptr = np.zeros(len(df) + 1, dtype=np.int64)
        np.cumsum(df, out=indptr[1:])
        doc_of = np.repeat(np.arange(n_docs, dtype=np.int32), sizes)
        posting_docs = doc_of[order]
        norm = np.zeros(n_docs, dtype=np.float64)
        if len(posting_docs):  # avgdl is 0 when every chunk is empty of terms, and then there is no posting
            avgdl = int(doc_len.sum()) / n_docs
            # The same float64 operations, in the same order, as the per-posting weights computed here before.
            norm = k1 * (1 - b + b * doc_len.astype(np.float64) / avgdl)
        # One IDF per distinct df (at most one per chunk), computed as LuceneIdfBM25 does, so the floats match.
        by_df = np.array([lucene_idf(n_docs, d) for d in range(int(df.max(initial=0)) + 1)], dtype=np.float64)
        postings = Postings(
            vocab=self._numbers,
            words=self._words,
            idf=by_df[df],
            indptr=indptr,
            docs=posting_docs,
            tf=tf[order],
            norm=norm,
        )
        self._compact(df)
        return postings

    def _compact(self, df: npt.NDArray[np.int64]) -> None:
        """Renumbers the vocabulary once most of it is unused (chunks removed or rewritten), for later rebuilds.

        The last snapshot keeps the old dict, which is no longer written to.
        """
        kept = np.flatnonzero(df)  # every chunk remembered was in this rebuild (`keep_only` ran first)
        if len(self._words) < 4096 or 2 * len(kept) > len(self._words):
            return
        renumber = np.full(len(self._words), -1, dtype=np.int32)
        renumber[kept] = np.arange(len(kept), dtype=np.int32)
        self._words = [self._words[number] for number in kept.tolist()]
        self._numbers = {word: number for number, word in enumerate(self._words)}
        self._by_id = {cid: _renumbered(entry, renumber) for cid, entry in self._by_id.items()}


def text_digest(text: str, language: str) -> int:
    """Tells a chunk's text (and language) from the one counted before without keeping it: Python's 64-bit hash,
    salted per process, which is all it must be (the counts live only in this process's memory)."""
    return hash((text, language))


def bm25_weights(
    tf: npt.NDArray[np.uint16] | npt.NDArray[np.uint32], norm: npt.NDArray[np.float64], k1: float
) -> npt.NDArray[np.float64]:
    """BM25's term-frequency factor tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl)) of postings, `norm` being the
    chunks' k1·(1 − b + b·dl/avgdl): rank-bm25's formula in its operation order, so scores agree with its
    `get_scores` bit for bit."""
    counts = tf.astype(np.float64)
    weights: npt.NDArray[np.float64] = counts * (k1 + 1) / (counts + norm)
    return weights


def _flat(
    chunks: Sequence[ChunkTerms],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16] | npt.NDArray[np.uint32], npt.NDArray[np.int64]]:
    """All chunks' term numbers and counts end to end, and how many terms each chunk has."""
    if not any(c.wide for c in chunks):
        records = np.frombuffer(b"".join(c.packed for c in chunks), dtype=NARROW)
        sizes = np.fromiter((len(c.packed) for c in chunks), dtype=np.int64, count=len(chunks)) // NARROW.itemsize
        # Contiguous copies: the records' fields are strided views, which argsort and bincount read slower.
        return np.ascontiguousarray(records["term"]), np.ascontiguousarray(records["count"]), sizes
    parts = [c.records for c in chunks]
    sizes = np.fromiter((len(p) for p in parts), dtype=np.int64, count=len(parts))
    terms = np.concatenate([p["term"] for p in parts]).astype(np.int32)
    counts = np.concatenate([p["count"].astype(np.uint32) for p in parts])
    return terms, counts, sizes


def _renumbered(entry: ChunkTerms, renumber: npt.NDArray[np.int32]) -> ChunkTerms:
    records = entry.records.copy()
    records["term"] = renumber[records["term"]]
    return replace(entry, packed=records.tobytes())
