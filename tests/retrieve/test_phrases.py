"""The phrase share's pure parts: word pairs, the share a chunk holds, and how it moves fused scores."""

from __future__ import annotations

import pytest

from askvault.retrieve.fusion import Fused
from askvault.retrieve.phrases import pair_share, pairs_held, term_pairs, with_phrase_scores


@pytest.mark.parametrize(
    ("terms", "pairs"),
    [
        pytest.param([], set(), id="none"),
        pytest.param(["sunday"], set(), id="one-term"),
        pytest.param(["sunday", "morn", "job"], {("sunday", "morn"), ("morn", "job")}, id="three"),
        pytest.param(["step", "step"], {("step", "step")}, id="repeated-in-place"),
        pytest.param(["a", "b", "a", "b"], {("a", "b"), ("b", "a")}, id="repeats-count-once"),
    ],
)
def test_term_pairs(terms: list[str], pairs: set[tuple[str, str]]) -> None:
    assert term_pairs(terms) == pairs


@pytest.mark.parametrize(
    ("query", "chunk", "share"),
    [
        pytest.param(["sunday", "morn", "job"], ["every", "sunday", "morn", "job", "run"], 1.0, id="all-adjacent"),
        pytest.param(["sunday", "morn", "job"], ["every", "morn", "job", "run", "sunday"], 0.5, id="one-of-two"),
        pytest.param(["sunday", "morn"], ["morn", "sunday"], 0.0, id="reversed-is-not-a-pair"),
        pytest.param(["sunday", "morn"], [], 0.0, id="empty-chunk"),
        pytest.param(["sunday"], ["sunday"], 0.0, id="one-word-question"),
    ],
)
def test_pair_share(query: list[str], chunk: list[str], share: float) -> None:
    assert pair_share(term_pairs(query), chunk) == share


WANTED = frozenset({("sunday", "morn"), ("morn", "job")})


@pytest.mark.parametrize(
    ("held", "possible"),
    [
        pytest.param(None, WANTED, id="not-indexed-every-pair"),
        pytest.param(frozenset(), frozenset(), id="holds-nothing"),
        pytest.param(frozenset({"morn"}), frozenset(), id="one-term-of-each-pair"),
        pytest.param(frozenset({"sunday", "job"}), frozenset(), id="the-ends-without-the-middle"),
        pytest.param(frozenset({"morn", "job", "cron"}), frozenset({("morn", "job")}), id="one-pair"),
        pytest.param(frozenset({"sunday", "morn", "job"}), WANTED, id="every-term"),
    ],
)
def test_pairs_held(held: frozenset[str] | None, possible: frozenset[tuple[str, str]]) -> None:
    assert pairs_held(WANTED, held) == possible


@pytest.mark.parametrize(
    ("possible", "share"),
    [
        pytest.param(None, 0.5, id="all-looked-for"),
        pytest.param(frozenset({("morn", "job")}), 0.5, id="the-one-it-holds"),
        pytest.param(frozenset({("sunday", "morn")}), 0.0, id="a-subset-without-it"),
    ],
)
def test_pair_share_of_the_possible_pairs_counts_against_all(
    possible: frozenset[tuple[str, str]] | None, share: float
) -> None:
    assert pair_share(WANTED, ["every", "morn", "job", "run", "sunday"], possible) == share


FUSED = [Fused("a", 0.9, {"dense": 1}), Fused("b", 0.87, {"keyword": 1}), Fused("c", 0.5, {"dense": 2})]
LEGS = {"dense": 1.0, "keyword": 1.0}


@pytest.mark.parametrize(
    ("shares", "weight", "order"),
    [
        pytest.param({"a": 0.0, "b": 1.0, "c": 0.0}, 0.1, ["b", "a", "c"], id="a-pair-lifts-a-close-second"),
        pytest.param({"a": 0.0, "b": 0.0, "c": 1.0}, 0.1, ["a", "b", "c"], id="not-past-a-clear-leader"),
        pytest.param({"a": 0.5, "b": 0.5, "c": 0.5}, 0.1, ["a", "b", "c"], id="equal-shares-change-nothing"),
        pytest.param({}, 0.1, ["a", "b", "c"], id="no-candidates"),
        pytest.param({"a": 0.0, "b": 1.0}, 0.0, ["a", "b", "c"], id="weight-zero-is-off"),
        pytest.param({"a": 0.0, "b": 1.0}, 0.1, ["b", "a", "c"], id="outside-the-window-counts-as-the-fewest"),
    ],
)
def test_with_phrase_scores_order(shares: dict[str, float], weight: float, order: list[str]) -> None:
    assert [f.chunk_id for f in with_phrase_scores(FUSED, shares, LEGS, weight)] == order


def test_the_share_is_a_weighted_part_of_the_score_and_ranks_are_kept() -> None:
    rescored = {f.chunk_id: f for f in with_phrase_scores(FUSED, {"a": 0.0, "b": 1.0, "c": 0.25}, LEGS, 0.1)}
    share = 0.1 / 2.0
    assert rescored["a"].score == pytest.approx(0.9 / (1 + share))
    assert rescored["b"].score == pytest.approx((0.87 + share) / (1 + share))
    assert rescored["c"].score == pytest.approx((0.5 + share * 0.25) / (1 + share))
    assert all(rescored[f.chunk_id].ranks == f.ranks for f in FUSED)
    assert all(0.0 <= f.score <= 1.0 for f in rescored.values())
