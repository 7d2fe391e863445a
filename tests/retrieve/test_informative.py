"""A fused ranking weighed by how much of each chunk is its own prose (pure)."""

from __future__ import annotations

import pytest

from askvault.model import ChunkInfo, noise_of
from askvault.retrieve.fusion import Fused
from askvault.retrieve.informative import LOW_INFORMATION, weigh_noise


def chunk(cid: str, template: int = 0, links: int = 0, query: int = 0) -> ChunkInfo:
    return ChunkInfo(cid, f"{cid}.md", cid, (), 1, 1, noise=noise_of(template, links, query))


CHUNKS = {
    c.id: c
    for c in (
        chunk("links", links=100),
        chunk("footer", template=100),
        chunk("query", query=80),
        chunk("prose"),
        chunk("cites", links=45),  # prose that cites a link: more than half its own, never weighed down
        chunk("half", template=30, links=21),
    )
}


def ranking(*entries: tuple[str, float]) -> list[Fused]:
    return [Fused(cid, score, {"dense": n}) for n, (cid, score) in enumerate(entries, start=1)]


@pytest.mark.parametrize(
    ("entries", "order"),
    [
        # A link list first by a little: an informative chunk close behind overtakes it.
        ([("links", 1.0), ("prose", 0.9)], ["prose", "links"]),
        # Far behind, it does not: a MOC asked for by name keeps its place.
        ([("links", 1.0), ("prose", 0.5)], ["links", "prose"]),
        # All there is: nothing moves.
        ([("footer", 0.8), ("links", 0.6)], ["footer", "links"]),
        ([("query", 1.0), ("prose", 0.85)], ["prose", "query"]),
        ([("cites", 1.0), ("prose", 0.99)], ["cites", "prose"]),
        # Just past half noise, it loses almost nothing (the penalty rises from 0 at the line to 1 at all noise).
        ([("half", 1.0), ("prose", 0.9)], ["half", "prose"]),
        ([("half", 1.0), ("prose", 0.995)], ["prose", "half"]),
        ([("gone", 1.0), ("prose", 0.9)], ["gone", "prose"]),  # a chunk removed meanwhile is left to the caller
    ],
)
def test_mostly_noise_chunks_drop_below_informative_ones_within_their_share(
    entries: list[tuple[str, float]], order: list[str]
) -> None:
    assert [f.chunk_id for f in weigh_noise(ranking(*entries), CHUNKS, 0.3)[0]] == order


def test_scores_of_prose_are_untouched_and_the_lowered_ones_are_labelled() -> None:
    weighed, lowered = weigh_noise(ranking(("links", 1.0), ("cites", 0.7), ("prose", 0.5)), CHUNKS, 0.3)
    out = {f.chunk_id: f for f in weighed}
    assert out["links"].score == pytest.approx(0.7)
    assert (out["cites"].score, out["prose"].score) == (0.7, 0.5)
    assert lowered == ["links"]
    assert out["links"].ranks == {"dense": 1}


def test_a_penalty_of_zero_changes_nothing() -> None:
    fused = ranking(("links", 1.0), ("prose", 0.9))
    assert weigh_noise(fused, CHUNKS, 0.0) == (fused, [])


@pytest.mark.parametrize(
    ("noisy", "factor"),
    [(0, 1.0), (45, 1.0), (50, 1.0), (60, 0.94), (75, 0.85), (100, 0.7)],
)
def test_the_penalty_starts_at_half_and_grows_with_the_noise(noisy: int, factor: float) -> None:
    assert LOW_INFORMATION == 50
    chunks = {"c": chunk("c", template=noisy)}
    (out,), _ = weigh_noise(ranking(("c", 1.0)), chunks, 0.3)
    assert out.score == pytest.approx(factor)
