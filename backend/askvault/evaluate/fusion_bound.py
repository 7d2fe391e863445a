"""The most any fusion of two ranked legs could find: an upper bound on Evidence Recall@k from the legs alone (pure).

A fusion that ranks by a function of each leg's score, increasing in both (RRF, weighted RRF, min-max or any other
score fusion, at any weights), must put a chunk that both legs rank at least as high as another one, and one leg
higher, above that one. So an evidence chunk that `k` or more listed chunks dominate in this way cannot reach the
top `k`, whatever the rule and its weights. A question counts towards the bound when some evidence chunk is
dominated by fewer than `k` chunks. A chunk missing from a leg ranks below every chunk that leg lists.

The bound is per question: one rule need not reach it on every question at once. Signals outside the two legs (the
phrase and identifier shares, a reranker) can pass it, which is what makes them worth measuring.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

_ABSENT = 1 << 30


def dominated_by(dense: Sequence[str], keyword: Sequence[str], chunk: str) -> int:
    """How many chunks of the two lists rank at least as high as `chunk` in both legs and higher in one."""
    dense_rank = {cid: rank for rank, cid in enumerate(dense)}
    keyword_rank = {cid: rank for rank, cid in enumerate(keyword)}
    own_dense = dense_rank.get(chunk, _ABSENT)
    own_keyword = keyword_rank.get(chunk, _ABSENT)
    # Ranks are distinct within a leg, so another chunk that ties in both is impossible: it is listed by one leg.
    return sum(
        1
        for cid in {*dense, *keyword}
        if cid != chunk and dense_rank.get(cid, _ABSENT) <= own_dense and keyword_rank.get(cid, _ABSENT) <= own_keyword
    )


def reachable(dense: Sequence[str], keyword: Sequence[str], evidence: Collection[str], k: int) -> bool:
    """True when some evidence chunk listed by a leg could be in the top `k` of a fusion monotone in both legs."""
    listed = {*dense, *keyword}
    return any(dominated_by(dense, keyword, chunk) < k for chunk in evidence if chunk in listed)
