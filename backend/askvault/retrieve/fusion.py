"""Fusion of per-method rankings (by normalised score, or by rank for one leg), keeping every method's rank."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askvault.errors import BadRequest
from askvault.model import TermStat


@dataclass(frozen=True, slots=True)
class Fused:
    """One fused result: Σ 1/(k + rank) over the methods that returned it, and each of those ranks (1-based)."""

    chunk_id: str
    score: float
    ranks: dict[str, int]
    """Method name → 1-based rank in that method's list; a method that missed the chunk is absent."""


def rrf(rankings: Mapping[str, Sequence[str]], k: int = 60, weights: Mapping[str, float] | None = None) -> list[Fused]:
    """Fuse rankings (method name → chunk ids, best first) by reciprocal rank fusion, best first.

    Scores only depend on ranks, never on the methods' own scores, so cosine similarities and BM25 scores need no
    common scale. No id is ever dropped: a chunk found by one method keeps 1/(k + rank). An id listed twice by
    one method counts once, at its better rank. Ties (equal scores) go to the better single rank, then to the
    method listed first in `rankings`, then to the smaller id, so the order never depends on set or hash order.
    `weights` (method → weight, 1 when absent) makes it weighted RRF: Σ weight / (k + rank).
    """
    if not k > 0:
        raise BadRequest(f"RRF k must be greater than 0, got {k}")
    weight = dict(weights or {})
    if any(not (w >= 0 and math.isfinite(w)) for w in weight.values()):
        raise BadRequest(f"RRF weights must be finite and ≥ 0, got {weight}")
    ranks: dict[str, dict[str, int]] = {}
    for method, ids in rankings.items():
        for position, chunk_id in enumerate(ids, start=1):
            ranks.setdefault(chunk_id, {}).setdefault(method, position)

    order = {method: number for number, method in enumerate(rankings)}

    def fused(chunk_id: str, by_method: dict[str, int]) -> Fused:
        # fsum is exactly rounded, so the same ranks give the same score whatever order the methods come in.
        return Fused(
            chunk_id=chunk_id,
            score=math.fsum(weight.get(m, 1.0) / (k + rank) for m, rank in by_method.items()),
            ranks=by_method,
        )

    def sort_key(item: Fused) -> tuple[float, int, int, str]:
        best_rank, best_method = min((rank, order[method]) for method, rank in item.ranks.items())
        return (-item.score, best_rank, best_method, item.chunk_id)

    return sorted((fused(chunk_id, by_method) for chunk_id, by_method in ranks.items()), key=sort_key)


def score_fusion(
    scored: Mapping[str, Sequence[tuple[str, float]]], weights: Mapping[str, float] | None = None
) -> list[Fused]:
    """Fuse scored lists (method → (chunk id, score), best first) by a convex combination of min-max normalised
    scores, best first: Σ w_m · (s − min_m) / (max_m − min_m), with w_m = weight_m / Σ weights.

    Each method's scores are normalised over its own list (the candidates it returned), so cosine similarities
    and BM25 scores share a 0..1 scale; a method that missed a chunk adds 0. Unlike rank fusion this keeps how
    far ahead a method's best hit is: a chunk the dense leg finds far above everything else is not overtaken by
    chunks both legs rank only middling. A list whose scores are all equal counts 1 for each of its chunks. Ties
    go to the better single rank, then the method listed first, then the smaller id, as in `rrf`.
    """
    weight = {method: (weights or {}).get(method, 1.0) for method in scored}
    if any(not (w >= 0 and math.isfinite(w)) for w in weight.values()):
        raise BadRequest(f"fusion weights must be finite and ≥ 0, got {weight}")
    total = math.fsum(weight.values()) or 1.0
    parts: dict[str, list[float]] = {}
    ranks: dict[str, dict[str, int]] = {}
    best: dict[str, tuple[int, int]] = {}
    """Each chunk's best (rank, method number): its tie-break after the score."""
    for number, (method, entries) in enumerate(scored.items()):
        values = [score for _, score in entries if math.isfinite(score)]
        low, high = (min(values), max(values)) if values else (0.0, 0.0)
        share = weight[method] / total
        for position, (chunk_id, score) in enumerate(entries, start=1):
            by_method = ranks.get(chunk_id)
            if by_method is None:
                by_method = ranks[chunk_id] = {}
                parts[chunk_id] = []
                best[chunk_id] = (position, number)
            elif method in by_method:
                continue  # listed twice: the better (first) place counts
            elif (position, number) < best[chunk_id]:
                best[chunk_id] = (position, number)
            by_method[method] = position
            norm = (score - low) / (high - low) if high > low and math.isfinite(score) else 1.0
            parts[chunk_id].append(share * norm)
    # Two addends: `+` rounds exactly as fsum does; more go through fsum, so the method order never matters.
    keyed = [
        (-(_total(parts[chunk_id])), *best[chunk_id], chunk_id, by_method) for chunk_id, by_method in ranks.items()
    ]
    keyed.sort(key=lambda item: item[:4])
    return [Fused(chunk_id, -negated, by_method) for negated, _, _, chunk_id, by_method in keyed]


def _total(values: Sequence[float]) -> float:
    """The exactly rounded sum (`math.fsum`), without its cost for one or two values, which `+` rounds the same."""
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return values[0] + values[1]
    return math.fsum(values)


def add_share(
    fused: Sequence[Fused],
    bonus: Mapping[str, float],
    weight: float,
    legs: Mapping[str, float],
    ranks: Mapping[str, Mapping[str, int]] | None = None,
) -> list[Fused]:
    """One more component of score fusion beside the legs' normalised scores (the identifier and phrase shares):
    each chunk's `bonus` (0..1; absent: 0) weighs `weight` against the legs' weights, score' = (score + s · bonus)
    / (1 + s) with s = weight / Σ legs, so a fused score stays within 0..1. `ranks` adds method ranks to some
    chunks (the identifier ranking's own). Ties keep the fused order."""
    share = weight / (sum(legs.values()) or 1.0)
    extra = ranks or {}
    # (−score, place) is unique, so the tuples sort in C without ever comparing two `Fused`.
    keyed = [
        (
            -(score := (f.score + share * bonus.get(f.chunk_id, 0.0)) / (1.0 + share)),
            place,
            Fused(f.chunk_id, score, {**f.ranks, **extra[f.chunk_id]} if f.chunk_id in extra else f.ranks),
        )
        for place, f in enumerate(fused)
    ]
    keyed.sort()
    return [item[2] for item in keyed]


def vocabulary_coverage(terms: Sequence[TermStat]) -> float:
    """The share of a query's keyword terms that occur in any chunk (df > 0); 1.0 for a query without terms, so
    a weight scaled by it is left alone when there is nothing to judge by."""
    if not terms:
        return 1.0
    return sum(term.df > 0 for term in terms) / len(terms)
