"""The phrase share of score fusion: how many of a question's adjacent word pairs a chunk holds adjacent too (pure).

BM25 scores words one by one, so "sunday morning job" matches a chunk with "Sunday" in one paragraph and "morning"
in another as well as one that says "Sunday morning". A chunk holding the question's word pairs side by side
(after stop words are dropped and words stemmed, so "callouts with titles" meets "callout title") gets a small
third share beside the legs, over the fused leaders only (`phrase_candidates`): it reorders sections the legs
already found, it does not find new ones (eval/README.md, round four, "Phrases").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from askvault.retrieve.fusion import Fused, add_share

Pair = tuple[str, str]


def term_pairs(terms: Sequence[str]) -> frozenset[Pair]:
    """Each two consecutive terms (a term repeated in place, as in "step by step", pairs with itself)."""
    return frozenset(pairwise(terms))


def pair_share(wanted: frozenset[Pair], terms: Sequence[str], possible: frozenset[Pair] | None = None) -> float:
    """The share of `wanted` pairs that occur side by side in `terms`; 0.0 when there is nothing to look for.
    `possible` (a subset of `wanted`: `pairs_held`) is what to look for in `terms`, the share still of `wanted`."""
    if not wanted:
        return 0.0
    looked_for = wanted if possible is None else possible
    return len(looked_for & term_pairs(terms)) / len(wanted)


def pairs_held(wanted: frozenset[Pair], held: frozenset[str] | None) -> frozenset[Pair]:
    """The `wanted` pairs whose two terms a chunk holds (`held`, from the keyword index's postings); all of them
    when the index does not know the chunk (None). Only these can occur side by side, so a chunk left with none
    needs no tokenizing: its share is 0."""
    if held is None:
        return wanted
    return frozenset(pair for pair in wanted if pair[0] in held and pair[1] in held)


def with_phrase_scores(
    fused: Sequence[Fused], shares: Mapping[str, float], weights: Mapping[str, float], phrase_weight: float
) -> list[Fused]:
    """Adds the phrase share to each fused score (`fusion.add_share`, as the identifier share): the chunks in
    `shares` are min-max normalised among themselves (the best holds 1, the fewest 0), and the share weighs
    `phrase_weight` against the legs' weights. Equal shares (none holds a pair, or all the same) change nothing,
    and neither does a weight of 0. Ties keep the fused order."""
    values = list(shares.values())
    low, high = (min(values), max(values)) if values else (0.0, 0.0)
    if not high > low or phrase_weight <= 0:
        return list(fused)
    bonus = {chunk_id: (value - low) / (high - low) for chunk_id, value in shares.items()}
    return add_share(fused, bonus, phrase_weight, weights)
