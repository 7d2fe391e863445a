"""Reciprocal rank fusion: the arithmetic, agreement, single-method survival, ties and k validation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from askvault.errors import BadRequest
from askvault.retrieve.fusion import Fused, rrf


def test_hand_arithmetic_with_the_default_k() -> None:
    fused = rrf({"dense": ["a", "b", "c"], "keyword": ["c", "a", "d"]})
    assert [f.chunk_id for f in fused] == ["a", "c", "b", "d"]
    scores = {f.chunk_id: f.score for f in fused}
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert scores["b"] == pytest.approx(1 / 62)
    assert scores["d"] == pytest.approx(1 / 63)
    assert fused[0] == Fused("a", 1 / 61 + 1 / 62, {"dense": 1, "keyword": 2})
    assert fused[1].ranks == {"dense": 3, "keyword": 1}
    assert fused[3].ranks == {"keyword": 3}


def test_agreement_beats_a_single_top_rank() -> None:
    # 1/61 + 1/63 ≈ 0.03227 beats 1/61 ≈ 0.01639 alone: found by both methods wins.
    fused = rrf({"dense": ["solo", "both"], "keyword": ["x", "y", "both"]})
    assert fused[0].chunk_id == "both"
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 63)


def test_a_chunk_found_by_one_method_survives() -> None:
    fused = rrf({"dense": [], "keyword": ["k1", "k2"]})
    assert [(f.chunk_id, f.ranks) for f in fused] == [("k1", {"keyword": 1}), ("k2", {"keyword": 2})]
    assert fused[1].score == pytest.approx(1 / 62)


def test_no_id_is_ever_dropped() -> None:
    dense = [f"d{i}" for i in range(50)]
    keyword = [f"k{i}" for i in range(30)] + dense[:20]
    fused = rrf({"dense": dense, "keyword": keyword})
    assert {f.chunk_id for f in fused} == set(dense) | set(keyword)
    assert len(fused) == 80


def test_a_repeated_id_counts_once_at_its_better_rank() -> None:
    fused = rrf({"keyword": ["a", "b", "a"]})
    assert [(f.chunk_id, f.ranks) for f in fused] == [("a", {"keyword": 1}), ("b", {"keyword": 2})]
    assert fused[0].score == pytest.approx(1 / 61)


TIES: list[tuple[str, Mapping[str, Sequence[str]], int, list[str]]] = [
    # Same score 1/61 each: best rank ties at 1, so the method listed first wins.
    ("method-order", {"dense": ["x"], "keyword": ["y"]}, 60, ["x", "y"]),
    ("method-order-follows-mapping", {"keyword": ["y"], "dense": ["x"]}, 60, ["y", "x"]),
    # k = 1: d1 and x score 1/(1+1) = 0.5; y scores 1/(1+3) + 1/(1+3) = 0.5, exactly. d1 and x have the better
    # single rank (1, ahead of y's 3); between them the method listed first wins.
    ("best-single-rank", {"dense": ["d1", "d2", "y"], "keyword": ["x", "k2", "y"]}, 1, ["d1", "x", "y"]),
    # Swapping which method holds which rank gives the same exact score (fsum), then method order decides.
    ("commuted-ranks", {"a": ["p", "q"], "b": ["q", "p"]}, 60, ["p", "q"]),
]


@pytest.mark.parametrize(("rankings", "k", "leaders"), [t[1:] for t in TIES], ids=[t[0] for t in TIES])
def test_ties_are_broken_deterministically(rankings: Mapping[str, Sequence[str]], k: int, leaders: list[str]) -> None:
    fused = rrf(rankings, k=k)
    assert [f.chunk_id for f in fused[: len(leaders)]] == leaders
    assert len({f.score for f in fused[: len(leaders)]}) == 1


def test_three_methods_sum_exactly_whatever_their_order() -> None:
    forward = rrf({"a": ["x", "y"], "b": ["y", "x"], "c": ["x"]}, k=7)
    backward = rrf({"c": ["x"], "b": ["y", "x"], "a": ["x", "y"]}, k=7)
    assert {f.chunk_id: f.score for f in forward} == {f.chunk_id: f.score for f in backward}


def test_k_sets_how_much_agreement_outweighs_a_top_rank() -> None:
    rankings = {"dense": ["top", "d2", "d3", "both"], "keyword": ["k1", "k2", "k3", "both"]}
    # k = 1: top 1/2 = 0.5 beats both 1/5 + 1/5 = 0.4. k = 60: both 2/64 ≈ 0.031 beats top 1/61 ≈ 0.016.
    assert rrf(rankings, k=1)[0].chunk_id == "top"
    assert rrf(rankings, k=60)[0].chunk_id == "both"


@pytest.mark.parametrize("rankings", [{}, {"dense": [], "keyword": []}], ids=["no-methods", "empty-lists"])
def test_nothing_to_fuse(rankings: Mapping[str, Sequence[str]]) -> None:
    assert rrf(rankings) == []


@pytest.mark.parametrize("k", [0, -1, -60], ids=["zero", "minus-one", "minus-sixty"])
def test_k_must_be_positive(k: int) -> None:
    with pytest.raises(BadRequest, match="k must be greater than 0"):
        rrf({"dense": ["a"]}, k=k)
