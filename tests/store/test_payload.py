"""Payload helpers shared by both Qdrant adapters: point ids, folder lists, filter terms, collection names."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from askvault.model import RankedId, SearchFilters
from askvault.store.vectors.payload import (
    CHUNK_ID,
    FilterTerms,
    collection_of,
    filter_terms,
    folders_of,
    point_id,
    ranked_ids,
    storage_name,
)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("root.md", []),
        ("Homelab/Postgres.md", ["Homelab"]),
        ("Homelab/Servers/Proxmox/Node 1.md", ["Homelab", "Homelab/Servers", "Homelab/Servers/Proxmox"]),
    ],
    ids=["root", "one-level", "nested"],
)
def test_folders_of(path: str, expected: list[str]) -> None:
    assert folders_of(path) == expected


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (SearchFilters(), FilterTerms()),
        (SearchFilters(folder="Homelab/"), FilterTerms(folder="Homelab")),
        (SearchFilters(folder="Homelab/Servers"), FilterTerms(folder="Homelab/Servers")),
        (SearchFilters(tag="#Postgres"), FilterTerms(tag="postgres")),
        (SearchFilters(modified_after=1.0, modified_before=2.0), FilterTerms(mtime_gte=1.0, mtime_lte=2.0)),
    ],
    ids=["empty", "folder-slash", "subfolder", "tag", "dates"],
)
def test_filter_terms(filters: SearchFilters, expected: FilterTerms) -> None:
    assert filter_terms(filters) == expected


@pytest.mark.parametrize(
    ("collection", "name"),
    [
        ("nomic-embed-text@768", "nomic-embed-text@768"),
        ("hf.co/org/model:Q4_K_M@1024", "hf.co%2Forg%2Fmodel%3AQ4_K_M@1024"),
        ("..", "%2E."),
        (".hidden", "%2Ehidden"),
        ("a b", "a%20b"),
    ],
    ids=["plain", "namespace-and-tag", "dotdot", "leading-dot", "space"],
)
def test_storage_name_is_safe_and_reversible(collection: str, name: str) -> None:
    assert storage_name(collection) == name
    assert collection_of(name) == collection


def test_empty_collection_name_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        storage_name("")


def test_point_id_is_a_stable_uuid() -> None:
    assert point_id("Homelab/Postgres.md#0") == point_id("Homelab/Postgres.md#0")
    assert point_id("a") != point_id("b")
    assert uuid.UUID(point_id("a")).version == 5


@dataclass(frozen=True)
class Point:
    payload: dict[str, object] | None
    score: float


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        pytest.param([], [], id="none"),
        pytest.param([("b", 0.9), ("a", 0.5)], [("b", 0.9), ("a", 0.5)], id="best-first-kept"),
        pytest.param([("a", 0.5), ("b", 0.9)], [("b", 0.9), ("a", 0.5)], id="best-first-made"),
        pytest.param(
            [("c", 0.7), ("a", 0.7), ("z", 0.8), ("b", 0.7)],
            [("z", 0.8), ("a", 0.7), ("b", 0.7), ("c", 0.7)],
            id="ties-by-chunk-id",
        ),
    ],
)
def test_ranked_ids(points: list[tuple[str, float]], expected: list[tuple[str, float]]) -> None:
    answer = [Point({CHUNK_ID: chunk_id, "path": "x.md"}, score) for chunk_id, score in points]
    assert ranked_ids(answer) == [RankedId(chunk_id, score) for chunk_id, score in expected]
