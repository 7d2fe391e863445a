"""The link graph: Obsidian-style resolution among indexed notes, backlinks, the linked-notes list and its bonus."""

from __future__ import annotations

import pytest

from askvault.model import Chunk
from askvault.retrieve.fusion import Fused
from askvault.retrieve.graph import GraphCache, LinkGraph, add_link_bonus, link_ranking, resolve_graph

NOTES = (
    "Atomic notes.md",
    "Zettel/Atomic notes.md",
    "Zettel/Evergreen.md",
    "Homelab/Postgres.md",
    "Homelab/Services/Postgres.md",
    "Projects/Kitchen renovation.md",
    "Homelab/Services/Immich.md",
)


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("Projects/Kitchen renovation.md", "Atomic notes", "Atomic notes.md"),
        ("Projects/Kitchen renovation.md", "atomic NOTES", "Atomic notes.md"),
        ("Homelab/Services/Immich.md", "Postgres", "Homelab/Services/Postgres.md"),
        ("Projects/Kitchen renovation.md", "Zettel/Atomic notes", "Zettel/Atomic notes.md"),
        ("Projects/Kitchen renovation.md", "Postgres", "Homelab/Postgres.md"),
        ("Projects/Kitchen renovation.md", "Services/Postgres", "Homelab/Services/Postgres.md"),
        ("Zettel/Evergreen.md", "../Homelab/Postgres.md", "Homelab/Postgres.md"),
        ("Zettel/Evergreen.md", "Homelab/Services/Postgres.md", "Homelab/Services/Postgres.md"),
        ("Zettel/Evergreen.md", "Missing note", None),
        ("Zettel/Evergreen.md", "Evergreen", None),
        ("Zettel/Evergreen.md", "", None),
        ("Private/Excluded.md", "Atomic notes", None),
    ],
    ids=[
        "by-name",
        "case-insensitive",
        "same-folder-wins",
        "folder-and-name",
        "shortest-path-on-ties",
        "partial-folder",
        "relative-path",
        "full-path-with-extension",
        "unresolved",
        "self-link-ignored",
        "empty-target-is-self",
        "unindexed-source-ignored",
    ],
)
def test_resolution(source: str, target: str, expected: str | None) -> None:
    graph = resolve_graph({source: (target,)}, NOTES)
    assert graph.out.get(source, frozenset()) == (frozenset({expected}) if expected else frozenset())
    assert graph.back.get(expected or "", frozenset()) == (frozenset({source}) if expected else frozenset())


def test_backlinks_are_derived_and_hop_goes_both_ways() -> None:
    graph = resolve_graph(
        {"Zettel/Evergreen.md": ("Atomic notes", "Postgres"), "Atomic notes.md": ("Zettel/Evergreen",)}, NOTES
    )
    assert graph.back["Homelab/Postgres.md"] == {"Zettel/Evergreen.md"}
    assert graph.hop("Zettel/Evergreen.md") == {"Homelab/Postgres.md", "Atomic notes.md"}
    assert graph.hop("Homelab/Postgres.md") == {"Zettel/Evergreen.md"}
    assert graph.hop("Projects/Kitchen renovation.md") == frozenset()


def test_resolution_follows_the_set_of_notes() -> None:
    """A rename elsewhere changes what `[[Postgres]]` means, without the linking note changing."""
    cache = GraphCache()
    links = {"Zettel/Evergreen.md": ("Postgres",)}
    before = {path: () for path in NOTES}
    assert cache.graph(links, before).out["Zettel/Evergreen.md"] == {"Homelab/Postgres.md"}
    assert cache.graph(links, before) is cache.graph(links, before)  # unchanged snapshots: resolved once
    after = {path: () for path in NOTES if path != "Homelab/Postgres.md"}
    assert cache.graph(links, after).out["Zettel/Evergreen.md"] == {"Homelab/Services/Postgres.md"}
    # An edit: new snapshots, same notes (what is already resolved is reused, the new link is resolved).
    edited = {"Zettel/Evergreen.md": ("Postgres", "Atomic notes")}
    assert cache.graph(edited, dict(after)).out["Zettel/Evergreen.md"] == {
        "Homelab/Services/Postgres.md",
        "Atomic notes.md",
    }


def chunk(chunk_id: str, path: str, start: int) -> Chunk:
    return Chunk(chunk_id, path, path, (), start, start, "t", "t")


CHUNKS = {
    c.id: c
    for c in [
        chunk("a1", "a.md", 1),
        chunk("a2", "a.md", 9),
        chunk("b1", "b.md", 1),
        chunk("b2", "b.md", 9),
        chunk("c1", "c.md", 1),
        chunk("d1", "d.md", 1),
        chunk("e1", "e.md", 1),
        chunk("e2", "e.md", 9),
    ]
}
BY_NOTE = {"a.md": ("a1", "a2"), "b.md": ("b1", "b2"), "c.md": ("c1",), "d.md": ("d1",), "e.md": ("e1", "e2")}
# a → c, b → c, d → a; e is linked from nothing among the seeds.
GRAPH = LinkGraph(
    out={"a.md": frozenset({"c.md"}), "b.md": frozenset({"c.md", "e.md"}), "d.md": frozenset({"a.md"})},
    back={"c.md": frozenset({"a.md", "b.md"}), "a.md": frozenset({"d.md"}), "e.md": frozenset({"b.md"})},
)


def fused(*ids: str) -> list[Fused]:
    return [Fused(i, 1.0 / (60 + n + 1), {"dense": n + 1}) for n, i in enumerate(ids)]


@pytest.mark.parametrize(
    ("ranking", "seeds", "expected"),
    [
        (fused("a1", "a2", "b1"), 1, ["c1", "d1"]),
        (fused("a1", "e2", "c1", "b1"), 1, ["c1", "d1"]),
        (fused("a1", "b2", "e2"), 2, ["e2", "c1", "d1"]),
        (fused("a2", "b1", "c1", "d1"), 2, ["c1", "d1", "e1"]),
        (fused("e2", "b1"), 1, ["b1"]),
        (fused("c1"), 3, ["a1", "b1"]),
        (fused("x1", "a1"), 1, ["c1", "d1"]),
    ],
    ids=[
        "unfound-by-seed-count-then-path",
        "found-in-fused-order-first",
        "a-note-linked-by-both-seeds",
        "seeds-may-link-each-other",
        "backlink-counts",
        "fewer-seeds-than-asked",
        "unknown-chunk-is-no-seed",
    ],
)
def test_link_ranking(ranking: list[Fused], seeds: int, expected: list[str]) -> None:
    assert link_ranking(ranking, CHUNKS, BY_NOTE, GRAPH, seeds) == expected


def test_link_ranking_applies_the_filters() -> None:
    assert link_ranking(fused("a1"), CHUNKS, BY_NOTE, GRAPH, 1, allow=lambda c: c.path != "c.md") == ["d1"]


def scored(*pairs: tuple[str, float]) -> list[Fused]:
    return [Fused(chunk_id, score, {"dense": n + 1}) for n, (chunk_id, score) in enumerate(pairs)]


# Fused scores as both legs give them near the top (rank 1 in both: 2/61 ≈ 0.0328).
TOP = scored(("a1", 0.0325), ("b1", 0.0310), ("c1", 0.0300), ("e1", 0.0290))


@pytest.mark.parametrize(
    ("ranking", "link_ids", "weight", "expected"),
    [
        (TOP, [], 0.1, ["a1", "b1", "c1", "e1"]),
        (TOP, ["c1"], 0.0, ["a1", "b1", "c1", "e1"]),
        (TOP, ["c1"], 0.1, ["a1", "c1", "b1", "e1"]),
        (TOP, ["e1"], 0.1, ["a1", "b1", "e1", "c1"]),
        (TOP, ["b1", "c1"], 0.1, ["b1", "a1", "c1", "e1"]),
        (TOP, ["d1"], 0.1, ["a1", "b1", "c1", "e1", "d1"]),
        (fused(*[f"x{i}" for i in range(50)]), ["d1"], 0.5, [f"x{i}" for i in range(50)] + ["d1"]),
    ],
    ids=[
        "no-links",
        "zero-weight",
        "passes-a-close-one",
        "moves-a-little-not-to-the-top",
        "bonus-by-link-rank",
        "unfound-linked-chunk-comes-last",
        "never-a-guaranteed-place",
    ],
)
def test_add_link_bonus(ranking: list[Fused], link_ids: list[str], weight: float, expected: list[str]) -> None:
    assert [f.chunk_id for f in add_link_bonus(ranking, link_ids, 60, weight)] == expected


def test_link_bonus_is_rrf_of_a_third_list() -> None:
    out = {f.chunk_id: f for f in add_link_bonus(fused("a1", "b1"), ["b1", "d1"], 60, 0.5)}
    assert out["b1"].score == pytest.approx(1 / 62 + 0.5 / 61)
    assert out["b1"].ranks == {"dense": 2, "link": 1}
    assert out["b1"].via == "link"
    assert out["d1"].score == pytest.approx(0.5 / 62)
    assert out["a1"].via is None
