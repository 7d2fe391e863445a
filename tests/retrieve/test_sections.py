"""The section order's pure parts: note-local IDF, a chunk's local score, and re-ordering within a note's places."""

from __future__ import annotations

import math
import random

import pytest

from askvault.retrieve.fusion import Fused
from askvault.retrieve.sections import local_score, note_idf, notes_to_order, reorder_within_notes


def _idf(n: int, df: int) -> float:
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


@pytest.mark.parametrize(
    ("held", "chunks", "terms", "expected"),
    [
        pytest.param({"a": {"js"}, "b": {"js"}, "c": {"js"}}, 3, ["js"], {"js": _idf(3, 3)}, id="in-every-chunk"),
        pytest.param(
            {"a": {"js", "upgrad"}, "b": {"js"}},
            4,
            ["js", "upgrad"],
            {"js": _idf(4, 2), "upgrad": _idf(4, 1)},
            id="rare-weighs-more",
        ),
        pytest.param({}, 5, ["x"], {"x": _idf(5, 0)}, id="held-by-none"),
        pytest.param({"a": {"other"}}, 2, ["x"], {"x": _idf(2, 0)}, id="terms-not-asked-are-ignored"),
        pytest.param({"a": {"x"}}, 1, [], {}, id="no-terms"),
    ],
)
def test_note_idf(held: dict[str, set[str]], chunks: int, terms: list[str], expected: dict[str, float]) -> None:
    assert note_idf(held, chunks, terms) == pytest.approx(expected)


def test_note_idf_orders_terms_by_how_few_sections_hold_them() -> None:
    held = {
        f"c{i}": {"everywhere"} | ({"half"} if i % 2 else set()) | ({"once"} if i == 3 else set()) for i in range(8)
    }
    idf = note_idf(held, 8, ["everywhere", "half", "once"])
    assert idf["everywhere"] < idf["half"] < idf["once"]


@pytest.mark.parametrize(
    ("held", "score"),
    [
        pytest.param(set(), 0.0, id="none"),
        pytest.param({"a"}, 1.0, id="one"),
        pytest.param({"a", "b", "zz"}, 3.0, id="unasked-terms-add-nothing"),
    ],
)
def test_local_score(held: set[str], score: float) -> None:
    assert local_score(held, {"a": 1.0, "b": 2.0}) == pytest.approx(score)


def _fused(scores: list[float]) -> list[Fused]:
    return [Fused(f"c{i}", score, {"dense": i + 1}) for i, score in enumerate(scores)]


@pytest.mark.parametrize(
    ("notes", "leaders", "expected"),
    [
        pytest.param(["A", "B", "A", "C", "A"], 10, {"A": [0, 2, 4]}, id="one-note-twice-or-more"),
        pytest.param(["A", "B", "A", "B"], 3, {"A": [0, 2]}, id="only-the-leaders"),
        pytest.param(["A", "B", "C"], 10, {}, id="every-note-once"),
        pytest.param(["A", None, "A"], 10, {"A": [0, 2]}, id="an-unknown-chunk-is-skipped"),
    ],
)
def test_notes_to_order(notes: list[str | None], leaders: int, expected: dict[str, list[int]]) -> None:
    fused = _fused([1.0 - i / 10 for i in range(len(notes))])
    note_of = {f.chunk_id: path for f, path in zip(fused, notes, strict=True) if path is not None}
    assert notes_to_order(fused, note_of, leaders) == expected


def test_a_sibling_with_the_distinguishing_words_takes_its_notes_best_place() -> None:
    fused = _fused([0.9, 0.8, 0.7, 0.1])  # c0 and c2 of note A, c1 and c3 of others
    places = {"A": [0, 2]}
    order, raised = reorder_within_notes(fused, places, {"c0": 0.0, "c2": 5.0}, weight=1.5, leaders=4)
    assert [f.chunk_id for f in order] == ["c2", "c1", "c0", "c3"]
    # A place keeps its score: the list still falls, and note B's chunk keeps its place and score.
    assert [f.score for f in order] == [0.9, 0.8, 0.7, 0.1]
    assert order[0].ranks == {"dense": 3}  # the legs' ranks travel with the chunk
    assert raised == ["c2"]


def test_a_small_local_edge_does_not_beat_a_large_fused_lead() -> None:
    # Spread 0.8 (0.9 − 0.1), weight 0.1: the local edge is worth 0.08 of score, less than c0's 0.2 lead.
    fused = _fused([0.9, 0.8, 0.7, 0.1])
    order, raised = reorder_within_notes(fused, {"A": [0, 2]}, {"c0": 0.0, "c2": 5.0}, weight=0.1, leaders=4)
    assert [f.chunk_id for f in order] == ["c0", "c1", "c2", "c3"]
    assert raised == []


@pytest.mark.parametrize(
    ("local", "weight", "scores"),
    [
        pytest.param({"c0": 2.0, "c2": 2.0}, 1.5, [0.9, 0.8, 0.7], id="equal-local-scores"),
        pytest.param({"c0": 0.0, "c2": 9.0}, 0.0, [0.9, 0.8, 0.7], id="weight-0"),
        pytest.param({"c0": 0.0, "c2": 9.0}, 1.5, [0.5, 0.5, 0.5], id="no-spread"),
        pytest.param({}, 1.5, [0.9, 0.8, 0.7], id="no-local-scores"),
    ],
)
def test_nothing_moves(local: dict[str, float], weight: float, scores: list[float]) -> None:
    fused = _fused(scores)
    order, raised = reorder_within_notes(fused, {"A": [0, 2]}, local, weight, leaders=3)
    assert order == fused
    assert raised == []


def test_no_note_ever_gains_or_loses_a_place() -> None:
    """On random leaders: the notes at each place, and the scores, are those of the fused order."""
    rng = random.Random(2026120202)
    for _ in range(300):
        size = rng.randint(1, 12)
        fused = _fused(sorted((rng.random() for _ in range(size)), reverse=True))
        note_of = {f.chunk_id: rng.choice("ABCD") for f in fused}
        leaders = rng.randint(1, 10)
        places = notes_to_order(fused, note_of, leaders)
        local = {f.chunk_id: rng.choice([0.0, 0.5, 1.0, 3.0]) for f in fused}
        order, raised = reorder_within_notes(fused, places, local, rng.choice([0.5, 1.5, 10.0]), leaders)
        assert [note_of[f.chunk_id] for f in order] == [note_of[f.chunk_id] for f in fused]
        assert [f.score for f in order] == [f.score for f in fused]
        assert sorted(f.chunk_id for f in order) == sorted(f.chunk_id for f in fused)
        assert order[leaders:] == fused[leaders:]
        assert set(raised) <= {f.chunk_id for f in order[:leaders]}
