"""Neighbour candidates: next then previous chunk of a top hit, right after it, only within its note's places."""

from __future__ import annotations

import pytest

from askvault.model import Chunk
from askvault.retrieve.fusion import Fused
from askvault.retrieve.neighbours import add_neighbours


def chunk(chunk_id: str, path: str, start: int) -> Chunk:
    return Chunk(chunk_id, path, path, (), start, start + 5, "t", "t")


CHUNKS = {
    c.id: c
    for c in [
        chunk("a1", "a.md", 1),
        chunk("a2", "a.md", 10),
        chunk("a3", "a.md", 20),
        chunk("a4", "a.md", 30),
        chunk("a5", "a.md", 40),
        chunk("b1", "b.md", 1),
        chunk("b2", "b.md", 10),
        chunk("c1", "c.md", 1),
    ]
}
BY_NOTE = {"a.md": ("a1", "a2", "a3", "a4", "a5"), "b.md": ("b1", "b2"), "c.md": ("c1",)}


def fused(*ids: str) -> list[Fused]:
    return [Fused(i, 1.0 / (n + 1), {"dense": n + 1}) for n, i in enumerate(ids)]


def ids(ranking: list[Fused]) -> list[str]:
    return [f.chunk_id for f in ranking]


@pytest.mark.parametrize(
    ("ranking", "anchors", "span", "expected"),
    [
        (fused("a3", "b1", "a1"), 3, 0, ["a3", "b1", "a1"]),
        (fused("a3", "b1", "c1", "a1", "a5"), 3, 1, ["a3", "b1", "c1", "a4", "a2", "a1", "a5"]),
        (fused("a2", "a1", "b1", "a3"), 3, 1, ["a2", "a3", "b1", "a1"]),
        (fused("b1", "a3", "a2"), 1, 1, ["b1", "a3", "a2"]),
        (fused("a3", "b1"), 3, 2, ["a3", "b1"]),
        (fused("a3", "b1", "a1"), 3, 2, ["a3", "b1", "a4", "a1"]),
        (fused("a1", "a2", "a3"), 3, 1, ["a1", "a2", "a3"]),
        (fused("a5", "a1", "a4"), 2, 1, ["a5", "a4", "a1"]),
        (fused("gone", "a2", "a1"), 3, 1, ["gone", "a2", "a3", "a1"]),
    ],
    ids=[
        "off",
        "next-then-previous-in-the-notes-own-places",
        "found-neighbour-moves-up-past-a-lower-anchor",
        "only-the-top-anchors",
        "no-place-for-an-unfound-neighbour",
        "span-two-takes-the-notes-lower-place",
        "already-in-document-order",
        "found-neighbour-right-after-anchor",
        "unknown-chunk-keeps-its-place",
    ],
)
def test_add_neighbours(ranking: list[Fused], anchors: int, span: int, expected: list[str]) -> None:
    assert ids(add_neighbours(ranking, CHUNKS, BY_NOTE, anchors, span)) == expected


def test_scores_stay_in_order_and_moved_chunks_say_so() -> None:
    ranking = fused("a3", "b1", "c1", "a1", "a5")
    out = add_neighbours(ranking, CHUNKS, BY_NOTE, 3, 1)
    head = out[:5]
    assert [f.score for f in head] == [f.score for f in ranking]  # each place keeps its score
    assert {f.chunk_id: f.via for f in head} == {
        "a3": None,
        "b1": None,
        "c1": None,
        "a4": "neighbour",
        "a2": "neighbour",
    }
    assert out[3].ranks == {}  # no leg found a4


def test_a_filter_keeps_a_neighbour_out() -> None:
    ranking = fused("a3", "b1", "a1")
    out = add_neighbours(ranking, CHUNKS, BY_NOTE, 3, 1, allow=lambda c: c.id != "a4")
    assert ids(out) == ["a3", "b1", "a2", "a1"]
