"""The chunk catalog's per-note index: each note's chunks in line order, rebuilt after every swap."""

from __future__ import annotations

from pathlib import Path

from askvault.model import Chunk
from askvault.store.catalog import ChunkCatalog


def chunk(path: str, n: int, start: int) -> Chunk:
    return Chunk(f"{path}#{n}", path, Path(path).stem, (), start, start + 3, "text", "text")


def test_catalog_orders_each_notes_chunks_by_line_and_rebuilds_after_a_swap() -> None:
    catalog = ChunkCatalog()
    catalog.replace({c.id: c for c in [chunk("b.md", 0, 9), chunk("a.md", 1, 20), chunk("a.md", 0, 2)]})
    order = catalog.by_note()
    assert dict(order) == {"a.md": ("a.md#0", "a.md#1"), "b.md": ("b.md#0",)}
    assert catalog.by_note() is order
    catalog.replace({c.id: c for c in [chunk("a.md", 0, 2)]})
    assert dict(catalog.by_note()) == {"a.md": ("a.md#0",)}
