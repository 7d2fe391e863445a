"""The test oracle of the keyword index: rank-bm25's BM25Okapi with a Lucene IDF, which `Bm25Index` must equal."""

from __future__ import annotations

import math
from collections.abc import Mapping

from rank_bm25 import BM25Okapi

from askvault.store.keyword.stats import lucene_idf


class LuceneIdfBM25(BM25Okapi):  # type: ignore[misc]  # rank-bm25 ships no type information
    """rank-bm25's BM25Okapi with the IDF of Lucene (and BM25+), everything else unchanged.

    BM25Okapi's own IDF, log((N - df + 0.5) / (df + 0.5)), is zero or negative for a term in half the chunks or
    more; it replaces those with epsilon × the average IDF, which is itself zero or negative in a 1- or 2-chunk
    vault (one chunk: idf = log(0.5/1.5) < 0 for every term). Then the chunk that holds the term scores ≤ 0 and
    ranks with, or below, the chunks that do not. The Lucene form never reaches zero, keeps the order of terms by
    rarity, and needs no floor, so `epsilon` has no effect here (it is kept so the constructor matches rank-bm25's).
    """

    def _calc_idf(self, nd: Mapping[str, int]) -> None:
        self.idf = {word: lucene_idf(self.corpus_size, df) for word, df in nd.items()}
        self.average_idf = math.fsum(self.idf.values()) / len(self.idf) if self.idf else 0.0
