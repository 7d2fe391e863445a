"""Link targets beside the catalog: kept in the manifest with their note, and swapped whole in memory."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from askvault.model import Chunk
from askvault.store.catalog import ChunkCatalog
from askvault.store.links import NoteLinks
from askvault.store.manifest import MANIFEST_FILE, SCHEMA_VERSION, Manifest


def chunk(path: str, n: int, start: int) -> Chunk:
    return Chunk(f"{path}#{n}", path, Path(path).stem, (), start, start + 3, "text", "text")


def record(manifest: Manifest, path: str, links: tuple[str, ...], fingerprint: str = "fp1:v") -> None:
    manifest.replace_note(path, fingerprint, 1, 10, Path(path).stem, [chunk(path, 0, 1)], links=links)


def test_links_are_replaced_with_their_note_and_survive_reopen(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        record(manifest, "a.md", ("B", "Folder/C", "B"))
        record(manifest, "b.md", ("a",))
        record(manifest, "c.md", ())
        record(manifest, "a.md", ("Folder/C", "D"))
    with Manifest.open(tmp_path) as manifest:
        assert manifest.note_links() == {"a.md": ("Folder/C", "D"), "b.md": ("a",)}
        assert manifest.note_links(["b.md", "c.md", "gone.md"]) == {"b.md": ("a",)}


def test_removing_a_note_or_a_folder_removes_its_links(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        for path in ("a.md", "Dir/b.md", "Dir/Sub/c.md", "Dir_x/d.md"):
            record(manifest, path, ("a",))
        manifest.remove_note("a.md")
        manifest.remove_prefix("Dir")
        assert manifest.note_links() == {"Dir_x/d.md": ("a",)}


def test_a_schema_one_manifest_gains_the_table_and_reparses_every_note(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        record(manifest, "a.md", ("b",))
    conn = sqlite3.connect(tmp_path / MANIFEST_FILE)
    with conn:
        conn.execute("DROP TABLE note_links")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.close()
    with Manifest.open(tmp_path) as manifest:
        assert manifest.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert manifest.note_links() == {}
        # The fingerprint no longer ends with the indexer's version: the next run re-reads the note once.
        assert manifest.note_stats()["a.md"].fingerprint == "fp1:v:links"
        assert manifest.count_chunks() == 1


@pytest.mark.parametrize(
    ("touched", "fresh", "expected"),
    [
        ({"a.md"}, {"a.md": ("X",)}, {"a.md": ("X",), "b.md": ("a",)}),
        ({"a.md"}, {}, {"b.md": ("a",)}),
        ({"c.md"}, {"c.md": ("b",)}, {"a.md": ("b",), "b.md": ("a",), "c.md": ("b",)}),
        (set(), {"c.md": ("b",)}, {"a.md": ("b",), "b.md": ("a",)}),
    ],
    ids=["changed", "removed-or-no-links-left", "added", "untouched-fresh-ignored"],
)
def test_patch(touched: set[str], fresh: dict[str, tuple[str, ...]], expected: dict[str, tuple[str, ...]]) -> None:
    links = NoteLinks()
    links.replace({"a.md": ("b",), "b.md": ("a",)})
    before = links.snapshot()
    links.patch(touched, fresh)
    assert dict(links.snapshot()) == expected
    assert dict(before) == {"a.md": ("b",), "b.md": ("a",)}  # a reader's snapshot never changes under it


def test_catalog_orders_each_notes_chunks_by_line_and_rebuilds_after_a_swap() -> None:
    catalog = ChunkCatalog()
    catalog.replace({c.id: c for c in [chunk("b.md", 0, 9), chunk("a.md", 1, 20), chunk("a.md", 0, 2)]})
    order = catalog.by_note()
    assert dict(order) == {"a.md": ("a.md#0", "a.md#1"), "b.md": ("b.md#0",)}
    assert catalog.by_note() is order
    catalog.replace({c.id: c for c in [chunk("a.md", 0, 2)]})
    assert dict(catalog.by_note()) == {"a.md": ("a.md#0",)}
