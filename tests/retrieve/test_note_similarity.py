"""Note-level similarity from chunk cosines: the aggregations, the closest passage, ties, the search shortlist."""

from __future__ import annotations

import numpy as np
import pytest

from askvault.retrieve.note_similarity import (
    Aggregation,
    NoteMatch,
    aggregate,
    closest_chunk,
    query_rows,
    rank,
    score_notes,
    shortlist,
    unit_rows,
)


def m(rows: list[list[float]]) -> np.ndarray[tuple[int, int], np.dtype[np.float32]]:
    return np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)


# sims[i][j]: source chunk i against candidate chunk j.
SIMS = [[0.9, 0.1, 0.2], [0.3, 0.5, 0.4]]


@pytest.mark.parametrize(
    ("sims", "how", "expected"),
    [
        (SIMS, "max", 0.9),
        (SIMS, "mean", (0.9 + 0.1 + 0.2 + 0.3 + 0.5 + 0.4) / 6),
        (SIMS, "best_mean", (0.9 + 0.5) / 2),
        ([[0.7]], "max", 0.7),
        ([[0.7]], "mean", 0.7),
        ([[0.7]], "best_mean", 0.7),
        ([[-0.2, -0.6]], "max", -0.2),
        ([[-0.2, -0.6]], "mean", -0.4),
        ([[0.4], [0.8]], "best_mean", 0.6),
    ],
    ids=[
        "max-best-pair",
        "mean-every-pair",
        "best-mean-per-source-chunk",
        "one-pair-max",
        "one-pair-mean",
        "one-pair-best-mean",
        "negative-max",
        "negative-mean",
        "one-candidate-chunk",
    ],
)
def test_aggregate(sims: list[list[float]], how: Aggregation, expected: float) -> None:
    assert aggregate(m(sims), how) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("sims", "how", "expected"),
    [
        (SIMS, "max", 0),
        (SIMS, "mean", 0),
        ([[0.9, 0.1], [0.0, 0.95]], "max", 1),
        ([[0.9, 0.6], [0.0, 0.5]], "max", 0),
        ([[0.9, 0.6], [0.0, 0.5]], "best_mean", 1),
        ([[0.5, 0.5]], "max", 0),
    ],
    ids=["max-column", "mean-column", "best-pair-wins", "max-ignores-other-rows", "mean-prefers-even", "tie-first"],
)
def test_closest_chunk(sims: list[list[float]], how: Aggregation, expected: int) -> None:
    assert closest_chunk(m(sims), how) == expected


def test_aggregate_refuses_nothing_and_unknown() -> None:
    with pytest.raises(ValueError, match="no chunk pairs"):
        aggregate(np.zeros((0, 3), dtype=np.float32), "max")
    with pytest.raises(ValueError, match="unknown aggregation"):
        aggregate(m(SIMS), "median")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("matches", "expected"),
    [
        ([NoteMatch("b.md", 0.5, 0), NoteMatch("a.md", 0.9, 0)], ["a.md", "b.md"]),
        ([NoteMatch("b.md", 0.5, 0), NoteMatch("a.md", 0.5, 1), NoteMatch("c.md", 0.5, 0)], ["a.md", "b.md", "c.md"]),
        ([NoteMatch("z.md", -0.1, 0), NoteMatch("y.md", 0.0, 0)], ["y.md", "z.md"]),
        ([], []),
    ],
    ids=["by-score", "ties-by-path", "negative-last", "empty"],
)
def test_rank(matches: list[NoteMatch], expected: list[str]) -> None:
    assert [match.path for match in rank(matches)] == expected


def test_unit_rows_normalises_and_keeps_zero_rows() -> None:
    rows = unit_rows([[3.0, 4.0], [0.0, 0.0]], 2)
    np.testing.assert_allclose(rows, [[0.6, 0.8], [0.0, 0.0]], atol=1e-6)
    assert unit_rows([], 3).shape == (0, 3)


def test_score_notes_scores_ranks_and_picks_the_passage() -> None:
    source = unit_rows([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 3)
    candidates = {
        "b.md": unit_rows([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]], 3),  # its second chunk equals source chunk 0
        "a.md": unit_rows([[1.0, 0.0, 0.0]], 3),  # the same best pair: a tie with b.md
        "c.md": unit_rows([[1.0, 1.0, 0.0]], 3),
        "empty.md": unit_rows([], 3),
    }
    found = score_notes(source, candidates, "max")
    assert found == [NoteMatch("a.md", 1.0, 0), NoteMatch("b.md", 1.0, 1), NoteMatch("c.md", 0.7071, 0)]
    by_mean = score_notes(source, candidates, "best_mean")
    assert [(match.path, match.score) for match in by_mean] == [("c.md", 0.7071), ("a.md", 0.5), ("b.md", 0.5)]
    assert score_notes(source, {}, "max") == []
    assert score_notes(unit_rows([], 3), candidates, "max") == []


@pytest.mark.parametrize(
    ("rows", "cap", "expected"),
    [
        ([[1.0, 0.0], [0.0, 1.0]], 4, [[1.0, 0.0], [0.0, 1.0]]),
        ([[1.0, 0.0], [0.0, 1.0]], 1, [[0.7071, 0.7071]]),
        ([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], 2, [[1.0, 0.0], [0.0, 1.0]]),
    ],
    ids=["under-the-cap", "one-centroid", "runs-in-order"],
)
def test_query_rows(rows: list[list[float]], cap: int, expected: list[list[float]]) -> None:
    np.testing.assert_allclose(query_rows(unit_rows(rows, 2), cap), expected, atol=1e-4)


@pytest.mark.parametrize(
    ("found", "floors", "how", "expected"),
    [
        ([{"a.md": 0.9, "b.md": 0.5}], [0.4], "max", ["a.md", "b.md"]),
        # b.md was reached by both queries; a.md by one only and counts the other's floor (0.3) there.
        ([{"a.md": 0.9, "b.md": 0.6}, {"b.md": 0.7}], [0.5, 0.3], "best_mean", ["b.md", "a.md"]),
        ([{"a.md": 0.9, "b.md": 0.6}, {"b.md": 0.7}], [0.5, 0.3], "max", ["a.md", "b.md"]),
        ([{"b.md": 0.5, "a.md": 0.5}], [0.1], "mean", ["a.md", "b.md"]),
        ([{}, {}], [-1.0, -1.0], "max", []),
    ],
    ids=["one-query", "means-average-queries", "max-takes-best", "ties-by-path", "nothing-reached"],
)
def test_shortlist(found: list[dict[str, float]], floors: list[float], how: Aggregation, expected: list[str]) -> None:
    assert shortlist(found, floors, how) == expected
