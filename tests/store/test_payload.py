"""Payload helpers shared by both Qdrant adapters: point ids, folder lists, filter terms, collection names."""

from __future__ import annotations

import uuid

import pytest

from askvault.model import SearchFilters
from askvault.store.vectors.payload import FilterTerms, collection_of, filter_terms, folders_of, point_id, storage_name


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
