"""A note-level chunk that ranks stands for its note: its place goes to the note's best other chunk."""

from __future__ import annotations

import pytest

from askvault.chunk import note_chunk_id
from askvault.model import Chunk
from askvault.retrieve.fusion import Fused
from askvault.retrieve.query_boosts import expand_note_hits


def chunk(chunk_id: str, path: str, start: int) -> Chunk:
    return Chunk(chunk_id, path, path, (), start, start, "t", "t")


NOTE_A = note_chunk_id("a.md")
CHUNKS = {
    c.id: c
    for c in [
        chunk(NOTE_A, "a.md", 1),
        chunk("a1", "a.md", 3),
        chunk("a2", "a.md", 9),
        chunk("b1", "b.md", 2),
    ]
}


def fused(*ids: str) -> list[Fused]:
    return [Fused(i, 1.0 / (n + 1), {"dense": n + 1}) for n, i in enumerate(ids)]


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        (fused("b1", "a1"), ["b1", "a1"]),
        (fused(NOTE_A, "b1", "a2"), ["a2", "b1"]),
        (fused(NOTE_A, "b1"), ["a1", "b1"]),
        (fused("a2", NOTE_A, "b1"), ["a2", "a1", "b1"]),
        (fused("a1", "a2", NOTE_A), ["a1", "a2"]),
    ],
    ids=[
        "no-note-chunk",
        "best-other-moves-up",
        "first-chunk-when-none-found",
        "next-best-after-one-shown",
        "none-left",
    ],
)
def testexpand_note_hits(ranking: list[Fused], expected: list[str]) -> None:
    assert [f.chunk_id for f in expand_note_hits(ranking, CHUNKS)] == expected
