"""The bench's exact BM25 reference: the top k by full-precision BM25 over the same tokens, ties by position.

bm25s (float32 scores, ties left to `argpartition`) finds every chunk whose score could reach the keyword leg's
k-th; each of those is scored again from its own tokens in float64, with rank-bm25's formula and operation order
(Okapi tf factor, Lucene IDF), and sorted best first with ties by place in the corpus, the order the keyword leg
documents (`Bm25Index.search`). The leg is exact when its ids and scores are that list. bm25s's own top 10 is
compared too, as sets (the figure earlier reports gave) and up to ties (the same multiset of exact scores).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import bm25s
import numpy as np

from askvault.model import RankedId

SLACK = 1e-4
"""Relative room below the k-th score for bm25s's float32 sums: every chunk within it is re-scored exactly."""


@dataclass
class ExactReference:
    corpus: Sequence[list[str]]
    """Each chunk's tokens, in the keyword index's rebuild order."""
    retriever: bm25s.BM25
    """bm25s indexed over `corpus` with method `lucene` (its tf factor lacks BM25's constant k1 + 1)."""
    k1: float = 1.5
    b: float = 0.75
    avgdl: float = field(init=False)

    def __post_init__(self) -> None:
        self.avgdl = sum(len(tokens) for tokens in self.corpus) / max(1, len(self.corpus))

    def idf(self, terms: Sequence[str]) -> dict[str, float]:
        """Lucene IDF of each term bm25s knows, its document frequency counted from bm25s's scores."""
        n = len(self.corpus)
        out: dict[str, float] = {}
        for term in dict.fromkeys(t for t in terms if t in self.retriever.vocab_dict):
            df = int(np.count_nonzero(self.retriever.get_scores([term])))
            out[term] = math.log1p((n - df + 0.5) / (df + 0.5))
        return out

    def score(self, doc: int, terms: Sequence[str], idf: Mapping[str, float]) -> float:
        tokens = self.corpus[doc]
        norm = self.k1 * (1 - self.b + self.b * len(tokens) / self.avgdl)
        total = 0.0
        for term in terms:  # as rank-bm25's get_scores: one term after the other, from 0.0
            tf = tokens.count(term)
            total += idf.get(term, 0.0) * (tf * (self.k1 + 1) / (tf + norm))
        return total

    def top(self, terms: Sequence[str], idf: Mapping[str, float], k: int, floor: float) -> list[tuple[int, float]]:
        """The exact top k as (position, score), given a `floor` no member of it lies below (0: none known)."""
        known = [t for t in terms if t in idf]
        if not known:
            return []
        rough = self.retriever.get_scores(known)  # ≈ exact / (k1 + 1), in float32
        bar = floor / (self.k1 + 1) * (1 - SLACK)
        challengers = np.flatnonzero(rough >= bar) if bar > 0 else np.flatnonzero(rough > 0)
        scored = [(d, self.score(d, terms, idf)) for d in challengers.tolist()]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return [pair for pair in scored[:k] if pair[1] > 0]

    def bm25s_top(self, terms: Sequence[str], k: int) -> list[int]:
        known = [t for t in terms if t in self.retriever.vocab_dict]
        if not known:
            return []
        docs, scores = self.retriever.retrieve([known], k=min(k, len(self.corpus)), show_progress=False, n_threads=1)
        return [int(d) for d, s in zip(docs[0].tolist(), scores[0].tolist(), strict=True) if s > 0]

    def compare(
        self, terms: Sequence[str], ours: Sequence[RankedId], positions: Mapping[str, int], k: int
    ) -> dict[str, bool]:
        """`exact`: our top k is the exact list (ids, order, scores bit for bit); `bm25s_set`: bm25s's top 10
        is our top 10 as a set; `bm25s_ties`: the same up to ties (equal multisets of exact scores)."""
        idf = self.idf(terms)
        mine = [(positions[r.chunk_id], r.score) for r in ours[:k]]
        floor = mine[-1][1] if len(mine) == k else 0.0
        exact = self.top(terms, idf, k, floor)
        theirs = self.bm25s_top(terms, 10)
        return {
            "exact": mine == exact,
            "bm25s_set": {d for d, _ in mine[:10]} == set(theirs),
            "bm25s_ties": sorted(self.score(d, terms, idf) for d in theirs) == sorted(s for _, s in mine[:10]),
        }
