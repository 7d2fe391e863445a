"""Explicit mentions: resolving notes like Obsidian, and the guaranteed places of their best chunks."""

from __future__ import annotations

import pytest

from askvault.model import Chunk
from askvault.parse.links import LinkResolver
from askvault.query.mentions import Mention
from askvault.retrieve.fusion import Fused
from askvault.retrieve.mentions import alias_index, best_of, promote, resolve_note

TITLES = {
    "Homelab/Services/Postgres.md": "Postgres",
    "Archive/Postgres.md": "Postgres",
    "Postgres upgrade.md": "Postgres upgrade",
    "Rezepte/Käsespätzle.md": "Käsespätzle",
    "Work/ADR-007.md": "Event bus: why not Kafka",
    "Home.md": "Home",
    "Attachments/Plex.png": "",
}
RESOLVER = LinkResolver(TITLES)

RESOLVE: list[tuple[str, str, str | None]] = [
    ("full-path", "Homelab/Services/Postgres", "Homelab/Services/Postgres.md"),
    ("full-path-with-extension", "Archive/Postgres.md", "Archive/Postgres.md"),
    ("path-suffix", "Services/Postgres", "Homelab/Services/Postgres.md"),
    ("basename-shortest-path-wins", "postgres", "Archive/Postgres.md"),
    ("case-insensitive", "HOME", "Home.md"),
    ("non-ascii-any-normal-form", "Ka\u0308sespa\u0308tzle", "Rezepte/Käsespätzle.md"),
    ("frontmatter-title", "event bus: why not kafka", "Work/ADR-007.md"),
    ("unknown", "Jellyfin", None),
    ("attachment-is-not-a-note", "Plex.png", None),
    ("empty", " ", None),
    ("prefix-is-not-a-match", "Postgres up", None),
    ("alias", "pg-main", "Homelab/Services/Postgres.md"),
    ("alias-any-case", "PG-MAIN", "Homelab/Services/Postgres.md"),
    ("a-name-beats-an-alias", "Home", "Home.md"),
]
ALIASES = {"pg-main": "Homelab/Services/Postgres.md", "home": "Homelab/Services/Postgres.md"}


@pytest.mark.parametrize(("target", "expected"), [(t, e) for _, t, e in RESOLVE], ids=[i for i, _, _ in RESOLVE])
def test_resolve_note(target: str, expected: str | None) -> None:
    assert resolve_note(target, RESOLVER, TITLES, ALIASES) == expected


def fused(*ids: str) -> list[Fused]:
    return [Fused(i, 1.0 / (n + 1), {"dense": n + 1}) for n, i in enumerate(ids)]


def entry(chunk_id: str) -> Fused:
    return Fused(chunk_id, 0.0, {})


PROMOTE: list[tuple[str, list[str], list[str], int, list[str], set[str]]] = [
    ("already-inside", ["a", "b", "c", "d"], ["b"], 3, ["a", "b", "c", "d"], set()),
    ("moves-to-last-place", ["a", "b", "c", "d", "e"], ["e"], 3, ["a", "b", "e", "c", "d"], {"e"}),
    ("from-outside-the-ranking", ["a", "b", "c"], ["x"], 2, ["a", "x", "b", "c"], {"x"}),
    ("keeps-a-wanted-one-inside", ["a", "b", "w1", "d", "w2"], ["w1", "w2"], 3, ["a", "w1", "w2", "b", "d"], {"w2"}),
    ("window-grows-with-mentions", ["a", "b", "w1", "w2"], ["w1", "w2"], 1, ["w1", "w2", "a", "b"], {"w1", "w2"}),
    ("short-ranking", ["a"], ["x"], 3, ["a", "x"], {"x"}),
    ("off", ["a", "b", "c"], ["c"], 0, ["a", "b", "c"], set()),
    ("nothing-wanted", ["a", "b"], [], 3, ["a", "b"], set()),
]


@pytest.mark.parametrize(
    ("ranking", "wanted", "top", "expected", "moved"),
    [(r, w, t, e, m) for _, r, w, t, e, m in PROMOTE],
    ids=[i for i, *_ in PROMOTE],
)
def test_promote(ranking: list[str], wanted: list[str], top: int, expected: list[str], moved: set[str]) -> None:
    current = fused(*ranking)
    by_id = {f.chunk_id: f for f in current}
    result, actually_moved = promote(current, [by_id.get(w) or entry(w) for w in wanted], top)
    assert [f.chunk_id for f in result] == expected
    assert actually_moved == moved


def chunk(chunk_id: str, path: str, heading: tuple[str, ...], tags: tuple[str, ...] = ()) -> Chunk:
    return Chunk(chunk_id, path, path, heading, 1, 1, "t", "t", tags)


CHUNKS = {
    c.id: c
    for c in [
        chunk("k-goals", "Kitchen.md", ("Kitchen", "Goals")),
        chunk("k-risks", "Kitchen.md", ("Kitchen", "Risks")),
        chunk("net", "Network.md", ("Network",), ("homelab/network",)),
        chunk("lab", "Lab.md", ("Lab",), ("homelab",)),
        chunk("other", "Other.md", ("Other",), ("homelabs",)),
    ]
}

BEST: list[tuple[str, list[str], Mention, str | None, str | None]] = [
    ("first-of-the-note", ["other", "k-goals", "k-risks"], Mention("note", "Kitchen"), "Kitchen.md", "k-goals"),
    ("linked-heading-first", ["k-goals", "k-risks"], Mention("note", "Kitchen", "risks"), "Kitchen.md", "k-risks"),
    ("heading-not-ranked", ["k-goals"], Mention("note", "Kitchen", "Risks"), "Kitchen.md", "k-goals"),
    ("note-not-ranked", ["other", "lab"], Mention("note", "Kitchen"), "Kitchen.md", None),
    ("nested-tag-counts", ["other", "net", "lab"], Mention("tag", "homelab"), None, "net"),
    ("tag-prefix-is-not-nesting", ["other"], Mention("tag", "homelab"), None, None),
]


@pytest.mark.parametrize(
    ("ranking", "mention", "path", "expected"), [(r, m, p, e) for _, r, m, p, e in BEST], ids=[i for i, *_ in BEST]
)
def test_best_of(ranking: list[str], mention: Mention, path: str | None, expected: str | None) -> None:
    best = best_of(fused(*ranking), CHUNKS, mention, path)
    assert (best.chunk_id if best is not None else None) == expected


def test_labels_name_what_the_query_said() -> None:
    assert Mention("note", "Home Assistant").label == "mention:[[Home Assistant]]"
    assert Mention("tag", "homelab/network").label == "tag:#homelab/network"


def _chunk(path: str, aliases: tuple[str, ...] = ()) -> Chunk:
    return Chunk(path, path, path.rsplit("/", 1)[-1], (), 1, 2, "text", "text", aliases=aliases)


def test_the_alias_index_reads_the_chunks_aliases_and_prefers_the_shorter_path() -> None:
    chunks = {
        c.id: c
        for c in (
            _chunk("Homelab/Services/Home Assistant.md", ("HA", "hass")),
            _chunk("HA.md", ("ha",)),
            _chunk("Plain.md"),
        )
    }

    assert alias_index(chunks) == {"ha": "HA.md", "hass": "Homelab/Services/Home Assistant.md"}
