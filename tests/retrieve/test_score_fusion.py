"""Score fusion: min-max normalisation per leg, the convex combination, a confident leg's lead kept, ties."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

import pytest

from askvault.errors import BadRequest
from askvault.model import TermStat
from askvault.retrieve.fusion import Fused, add_share, rrf, score_fusion, vocabulary_coverage

Scored = Mapping[str, Sequence[tuple[str, float]]]


def test_hand_arithmetic() -> None:
    # dense 0.9 / 0.5 / 0.1 → 1, 0.5, 0; keyword 20 / 10 → 1, 0; equal weights: each leg counts half.
    fused = score_fusion({"dense": [("a", 0.9), ("b", 0.5), ("c", 0.1)], "keyword": [("b", 20.0), ("d", 10.0)]})
    scores = {f.chunk_id: f.score for f in fused}
    assert scores == pytest.approx({"a": 0.5, "b": 0.75, "c": 0.0, "d": 0.0})
    assert [f.chunk_id for f in fused] == ["b", "a", "d", "c"]  # d and c tie at 0: keyword rank 2 beats dense rank 3
    assert fused[0].ranks == {"dense": 2, "keyword": 1}
    assert isinstance(fused[0], Fused)


def test_a_confident_leg_keeps_its_lead() -> None:
    """The loss rank fusion makes: dense finds `answer` far above the rest, the keyword leg misses it, and two
    chunks both legs rank only middling overtake it under RRF; normalised scores keep it on top."""
    dense = [("answer", 0.82), ("x", 0.41), ("y", 0.40), *((f"d{i}", 0.39 - 0.001 * i) for i in range(20))]
    keyword = [*((f"k{i}", 30.0 - i) for i in range(3)), ("x", 20.0), ("y", 19.5), *((f"e{i}", 10.0) for i in range(5))]
    by_rank = rrf({"keyword": [c for c, _ in keyword], "dense": [c for c, _ in dense]})
    by_score = score_fusion({"keyword": keyword, "dense": dense})
    ranked, scored = [f.chunk_id for f in by_rank], [f.chunk_id for f in by_score]
    assert ranked.index("answer") > max(ranked.index("x"), ranked.index("y"))
    assert scored.index("answer") < min(scored.index("x"), scored.index("y"))
    assert scored.index("answer") <= 1  # level with the keyword leg's own leader


@pytest.mark.parametrize(
    ("weights", "leader"),
    [
        ({"dense": 1.0, "keyword": 1.0}, "both"),
        ({"dense": 4.0, "keyword": 1.0}, "dense-top"),
        ({"dense": 0.0}, "kw-top"),
    ],
    ids=["equal", "dense-heavy", "keyword-only"],
)
def test_weights_are_the_legs_shares(weights: Mapping[str, float], leader: str) -> None:
    scored = {
        "dense": [("dense-top", 0.9), ("both", 0.7), ("z", 0.1)],
        "keyword": [("kw-top", 12.0), ("both", 10.0), ("w", 1.0)],
    }
    assert score_fusion(scored, weights)[0].chunk_id == leader


@pytest.mark.parametrize(
    ("scored", "expected"),
    [
        ({"dense": [("a", 0.5), ("b", 0.5)]}, [("a", 1.0), ("b", 1.0)]),
        ({"dense": [], "keyword": [("k", 3.0)]}, [("k", 0.5)]),
        ({"dense": [("a", 0.9), ("a", 0.1)], "keyword": []}, [("a", 0.5)]),
    ],
    ids=["equal-scores-count-one", "one-empty-leg", "repeated-id-first-place"],
)
def test_edge_cases(scored: Scored, expected: list[tuple[str, float]]) -> None:
    fused = score_fusion(scored)
    assert [f.chunk_id for f in fused] == [c for c, _ in expected]
    assert [f.score for f in fused] == pytest.approx([s for _, s in expected])


def test_nothing_to_fuse() -> None:
    assert score_fusion({"dense": [], "keyword": []}) == []


@pytest.mark.parametrize("weight", [-1.0, float("nan"), float("inf")], ids=["negative", "nan", "inf"])
def test_bad_weights_are_refused(weight: float) -> None:
    with pytest.raises(BadRequest, match="fusion weights"):
        score_fusion({"dense": [("a", 1.0)]}, {"dense": weight})


def _terms(*dfs: int) -> list[TermStat]:
    return [TermStat(term=f"t{i}", df=df, idf=1.0 if df else 0.0) for i, df in enumerate(dfs)]


@pytest.mark.parametrize(
    ("terms", "expected"),
    [
        ([], 1.0),
        (_terms(3, 1), 1.0),
        (_terms(0, 0), 0.0),
        (_terms(5, 0, 0, 0), 0.25),
        (_terms(0, 2, 7), 2 / 3),
    ],
    ids=["no-terms", "all-known", "none-known", "one-of-four", "two-of-three"],
)
def test_vocabulary_coverage(terms: list[TermStat], expected: float) -> None:
    assert vocabulary_coverage(terms) == pytest.approx(expected)


def spelled_out(scored: Scored, weights: Mapping[str, float]) -> list[tuple[str, float, dict[str, int]]]:
    """The definition, written plainly: each chunk's normalised shares summed with fsum, sorted by (−score, best
    single rank, method listed first, id)."""
    total = math.fsum(weights.values())
    ranks: dict[str, dict[str, int]] = {}
    parts: dict[str, list[float]] = {}
    for method, entries in scored.items():
        values = [score for _, score in entries if math.isfinite(score)]
        low, high = (min(values), max(values)) if values else (0.0, 0.0)
        for position, (chunk_id, score) in enumerate(entries, start=1):
            if method in ranks.setdefault(chunk_id, {}):
                continue
            ranks[chunk_id][method] = position
            norm = (score - low) / (high - low) if high > low and math.isfinite(score) else 1.0
            parts.setdefault(chunk_id, []).append(weights[method] / total * norm)
    order = {method: number for number, method in enumerate(scored)}
    rows = [(chunk_id, math.fsum(parts[chunk_id]), by_method) for chunk_id, by_method in ranks.items()]
    return sorted(rows, key=lambda r: (-r[1], *min((rank, order[m]) for m, rank in r[2].items()), r[0]))


@pytest.mark.parametrize("seed", range(40))
def test_equals_the_definition_bit_for_bit(seed: int) -> None:
    draw = random.Random(seed)
    pool = [f"c{i}" for i in range(draw.randint(1, 60))]
    methods = ["keyword", "dense", "exact"][: draw.randint(1, 3)]
    # Scores drawn from a few values, so ties and repeats across legs are common; a chunk may be listed twice.
    scored = {
        method: [
            (draw.choice(pool), draw.choice([0.0, 0.1, 0.3, 0.3, 0.7, 1.0, 12.5])) for _ in range(draw.randint(0, 50))
        ]
        for method in methods
    }
    weights = {method: draw.choice([0.0, 0.35, 1.0, 1.0, 2.0]) for method in methods}
    if not math.fsum(weights.values()):
        weights[methods[0]] = 1.0
    fused = score_fusion(scored, weights)
    assert [(f.chunk_id, f.score, f.ranks) for f in fused] == spelled_out(scored, weights)


@pytest.mark.parametrize("seed", range(20))
def test_add_share_equals_its_definition(seed: int) -> None:
    draw = random.Random(seed)
    fused = [
        Fused(f"c{i}", draw.choice([0.0, 0.2, 0.5, 0.5, 0.9]), {"dense": i + 1}) for i in range(draw.randint(0, 40))
    ]
    bonus = {f.chunk_id: draw.choice([0.0, 0.5, 1.0]) for f in fused if draw.random() < 0.4}
    ranks = {chunk_id: {"exact": n} for n, chunk_id in enumerate(bonus, start=1)}
    legs = {"dense": 1.0, "keyword": draw.choice([0.0, 1.0])}
    share = 0.1 / sum(legs.values())
    rescored = [
        Fused(
            f.chunk_id,
            (f.score + share * bonus.get(f.chunk_id, 0.0)) / (1.0 + share),
            {**f.ranks, **ranks.get(f.chunk_id, {})},
        )
        for f in fused
    ]
    place = {f.chunk_id: i for i, f in enumerate(fused)}
    expected = sorted(rescored, key=lambda f: (-f.score, place[f.chunk_id]))
    assert add_share(fused, bonus, 0.1, legs, ranks) == expected
