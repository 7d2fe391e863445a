"""Weighted reciprocal rank fusion (the single-leg modes' ranking): weights, score arithmetic, bad weights."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from askvault.errors import BadRequest
from askvault.retrieve.fusion import rrf


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
