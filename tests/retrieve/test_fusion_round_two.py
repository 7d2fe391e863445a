"""Weighted reciprocal rank fusion and leader protection (round two of retrieval quality)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from askvault.errors import BadRequest
from askvault.retrieve.fusion import protect_leaders, rrf


@pytest.mark.parametrize(
    ("weights", "order"),
    [
        (None, ["both", "solo"]),
        ({"dense": 1.0, "keyword": 1.0}, ["both", "solo"]),
        ({"dense": 3.0, "keyword": 1.0}, ["both", "solo"]),
        ({"dense": 1.0, "keyword": 0.01}, ["solo", "both"]),
        ({"dense": 1.0, "keyword": 0.0}, ["solo", "both"]),
    ],
    ids=["unweighted", "unit-weights", "dense-heavy-still-agreement", "keyword-light", "keyword-off"],
)
def test_weighted_rrf(weights: Mapping[str, float] | None, order: list[str]) -> None:
    # both: 1/62 (dense) + 1/63 (keyword); solo: 1/61 (dense only).
    fused = rrf({"keyword": ["x", "y", "both"], "dense": ["solo", "both"]}, weights=weights)
    assert [f.chunk_id for f in fused if f.chunk_id in ("both", "solo")] == order


def test_weighted_score_arithmetic() -> None:
    (fused,) = rrf({"dense": ["a"], "keyword": ["a"]}, weights={"dense": 2.0, "keyword": 0.5})
    assert fused.score == pytest.approx(2 / 61 + 0.5 / 61)


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")], ids=["negative", "nan", "inf"])
def test_bad_weights_are_refused(bad: float) -> None:
    with pytest.raises(BadRequest):
        rrf({"dense": ["a"]}, weights={"dense": bad})


PROTECT: list[tuple[str, Mapping[str, Sequence[str]], int, list[str]]] = [
    # Fused: b (2+2), c (3+3), ... d1 only dense rank 1 loses to the agreeing chunks.
    (
        "dense-leader-pulled-up",
        {"keyword": ["k1", "b", "c"], "dense": ["d1", "b", "c"]},
        1,
        ["k1", "d1", "b", "c"],
    ),
    ("off", {"keyword": ["b", "c", "k1"], "dense": ["d1", "b", "c"]}, 0, ["b", "c", "d1", "k1"]),
    ("already-inside", {"keyword": ["a", "b"], "dense": ["a", "b"]}, 1, ["a", "b"]),
    ("one-method", {"dense": ["a", "b", "c"]}, 1, ["a", "b", "c"]),
    ("fewer-than-room", {"dense": ["a"], "keyword": []}, 2, ["a"]),
]


@pytest.mark.parametrize(("rankings", "top", "order"), [p[1:] for p in PROTECT], ids=[p[0] for p in PROTECT])
def test_protect_leaders(rankings: Mapping[str, Sequence[str]], top: int, order: list[str]) -> None:
    fused = rrf(rankings)
    protected = protect_leaders(fused, rankings, top)
    assert [f.chunk_id for f in protected] == order
    assert sorted(f.chunk_id for f in protected) == sorted(f.chunk_id for f in fused)


def test_leaders_within_room() -> None:
    keyword = ["k1", "k2"] + [f"s{i}" for i in range(6)]
    dense = ["d1", "d2"] + [f"s{i}" for i in range(6)]
    rankings = {"keyword": keyword, "dense": dense}
    protected = [f.chunk_id for f in protect_leaders(rrf(rankings), rankings, 2)]
    assert set(protected[:4]) == {"k1", "k2", "d1", "d2"}
