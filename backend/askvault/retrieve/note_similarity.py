"""Note-level similarity from chunk similarities: how one note's chunks compare with another note's (pure, NumPy)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

Aggregation = Literal["max", "mean", "best_mean"]
"""How a candidate note's score comes from the cosines of (source chunk, candidate chunk) pairs:
`max` the best pair; `mean` the mean of every pair; `best_mean` each source chunk's best match in the candidate,
averaged over the source's chunks. Measured in docs/decisions.md ("Related notes")."""
AGGREGATIONS: tuple[Aggregation, ...] = get_args(Aggregation)
SCORE_DIGITS = 4
"""Scores are compared and reported at this precision, so equal-looking scores are ties (broken by path)."""

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class NoteMatch:
    path: str
    score: float
    """In the cosine scale, -1..1, rounded to SCORE_DIGITS."""
    chunk: int
    """Index of the candidate's chunk closest to the source note (its row in the candidate's matrix)."""


def unit_rows(vectors: Iterable[Iterable[float]], dim: int) -> Matrix:
    """Vectors as float32 rows of length 1 (a zero row stays zero), so dot products are cosines."""
    matrix = np.asarray([list(v) for v in vectors], dtype=np.float32).reshape(-1, dim)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: Matrix = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return unit


def aggregate(sims: Matrix, how: Aggregation) -> float:
    """`sims[i, j]`: cosine of the source's chunk i with the candidate's chunk j (neither side empty)."""
    if sims.size == 0:
        raise ValueError("no chunk pairs to aggregate")
    if how == "max":
        return float(sims.max())
    if how == "mean":
        return float(sims.mean())
    if how == "best_mean":
        return float(sims.max(axis=1).mean())
    raise ValueError(f"unknown aggregation {how!r}; one of {', '.join(AGGREGATIONS)}")


def closest_chunk(sims: Matrix, how: Aggregation) -> int:
    """The candidate chunk closest to the source note: the one that scores highest on its own under `how` (for
    `max` the chunk of the best pair, for the means the best mean cosine over the source's chunks); the first in
    document order on a tie."""
    per_chunk = sims.max(axis=0) if how == "max" else sims.mean(axis=0)
    return int(np.argmax(np.round(per_chunk, SCORE_DIGITS)))


def score_notes(source: Matrix, candidates: Mapping[str, Matrix], how: Aggregation) -> list[NoteMatch]:
    """Every candidate note scored against the source's chunks, best first, ties by path."""
    if not candidates or source.shape[0] == 0:
        return []
    paths = [path for path, rows in candidates.items() if rows.shape[0]]
    if not paths:
        return []
    stacked = np.concatenate([candidates[path] for path in paths])
    sims = source @ stacked.T  # one product for all candidates, then a slice per note
    matches: list[NoteMatch] = []
    start = 0
    for path in paths:
        end = start + candidates[path].shape[0]
        block = sims[:, start:end]
        matches.append(NoteMatch(path, round(aggregate(block, how), SCORE_DIGITS), closest_chunk(block, how)))
        start = end
    return rank(matches)


def rank(matches: Iterable[NoteMatch]) -> list[NoteMatch]:
    """Best score first; equal scores in path order."""
    return sorted(matches, key=lambda m: (-m.score, m.path))


def query_rows(source: Matrix, cap: int) -> Matrix:
    """The vectors to search with: the source's chunks, or for a note of more than `cap` chunks the unit centroids
    of `cap` runs of consecutive chunks (a long note costs `cap` searches, not one per chunk)."""
    if source.shape[0] <= cap:
        return source
    centroids = np.stack([run.mean(axis=0) for run in np.array_split(source, cap)])
    return unit_rows(centroids, source.shape[1])


def shortlist(found: Sequence[Mapping[str, float]], floors: Sequence[float], how: Aggregation) -> list[str]:
    """Candidate notes in the order of an optimistic estimate of their score, ties by path.

    `found[q]` maps each note that query q reached to its best cosine; a note q did not reach counts `floors[q]`
    (the score of q's farthest hit: the most it could have). `max` takes the best entry; the means average over
    the queries (the best pair per query is all a search tells, so `mean` is estimated as `best_mean`).
    """
    notes = sorted(set().union(*found))
    if not notes:
        return []
    table = np.array([[row.get(note, floor) for note in notes] for row, floor in zip(found, floors, strict=True)])
    estimate = table.max(axis=0) if how == "max" else table.mean(axis=0)
    return [notes[i] for i in np.lexsort((np.arange(len(notes)), -np.round(estimate, SCORE_DIGITS))).tolist()]
