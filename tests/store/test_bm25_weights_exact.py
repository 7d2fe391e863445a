"""Weights computed per query from tf and a per-chunk length norm score bit for bit like per-posting weights did."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.keyword.stats import lucene_idf
from askvault.store.text.tokenize import Tokenizer

VAULT = Path(__file__).resolve().parents[2] / "eval" / "sample-vault"
QUERIES = [
    "postgres backup retention",
    "kodi libreelec remote",
    "sourdough starter hydration",
    "Kartoffeln Rezept",
    "the and of",  # common words: long postings, many ties broken by chunk order
    "wireguard port 51820 mtu",
    "unheardofword",
]


def _sample_chunks() -> list[tuple[str, str]]:
    notes = {p.relative_to(VAULT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(VAULT.rglob("*.md"))}
    resolver = LinkResolver(notes)
    return [
        (chunk.id, chunk.index_text)
        for path, text in notes.items()
        for chunk in chunk_note(parse_note(path, text, resolver), ChunkParams())
    ]


class _PerPostingWeights:
    """The keyword index as it was: each chunk's BM25 factor of each term precomputed, in the same numpy
    operations (tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl)) over float64 arrays), summed in query term order."""

    def __init__(self, docs: list[tuple[str, str]], tokenizer: Tokenizer, k1: float, b: float) -> None:
        counted = [Counter(tokenizer.tokenize(text)) for _, text in docs]
        lengths = np.array([sum(c.values()) for c in counted], dtype=np.int64)
        avgdl = int(lengths.sum()) / len(docs)
        self.n = len(docs)
        self.postings: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], float]] = {}
        for term in {t for c in counted for t in c}:
            holders = np.array([i for i, c in enumerate(counted) if term in c], dtype=np.int64)
            tf = np.array([counted[i][term] for i in holders.tolist()], dtype=np.float64)
            dl = lengths.astype(np.float64)[holders]
            weights = tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
            self.postings[term] = (holders, weights, lucene_idf(len(docs), len(holders)))

    def scores(self, terms: list[str]) -> npt.NDArray[np.float64]:
        scores = np.zeros(self.n, dtype=np.float64)
        for term in terms:
            if term in self.postings:
                holders, weights, idf = self.postings[term]
                scores[holders] += idf * weights
        return scores


@pytest.fixture(scope="module")
def sample_chunks() -> list[tuple[str, str]]:
    return _sample_chunks()


@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (1.2, 0.0), (0.9, 1.0)])
def test_scores_equal_the_per_posting_weights_bit_for_bit(
    sample_chunks: list[tuple[str, str]], k1: float, b: float
) -> None:
    tokenizer = Tokenizer()
    index = Bm25Index(tokenizer, k1=k1, b=b)
    index.rebuild(sample_chunks)
    before = _PerPostingWeights(sample_chunks, tokenizer, k1, b)
    ids = [chunk_id for chunk_id, _ in sample_chunks]
    assert len(ids) == len(set(ids)) > 300

    for query in QUERIES:
        terms = index.query_terms(query)
        full = before.scores(terms)
        held = np.flatnonzero(full)
        order = held[np.lexsort((held, -full[held]))]  # best first, ties to the chunk that came first
        expected = [(ids[i], float(full[i])) for i in order.tolist()]
        result = index.search(query, limit=len(ids))
        assert [(r.chunk_id, r.score) for r in result.ranked] == expected  # == on floats: the same bits
        assert result.matched == len(held)


def test_a_term_repeated_past_uint16_keeps_its_exact_count() -> None:
    """A chunk holding one term 70,000 times (no chunker makes one; a plain pair can) is not clipped at 65,535."""
    tokenizer = Tokenizer()
    docs = [("huge", "spam " * 70_000 + "egg"), ("small", "spam egg egg"), ("other", "egg bacon")]
    index = Bm25Index(tokenizer)
    index.rebuild(docs)
    for query in ["spam", "egg", "spam bacon"]:
        expected = _PerPostingWeights(docs, tokenizer, 1.5, 0.75).scores(index.query_terms(query))
        got = {r.chunk_id: r.score for r in index.search(query, limit=3).ranked}
        # Clipped at 65,535, "huge"'s factor for spam would differ from the 6th significant digit on.
        assert got == {cid: float(s) for (cid, _), s in zip(docs, expected, strict=True) if s}
