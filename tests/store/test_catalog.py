"""The chunk catalog: each note's chunks in line order, rebuilt after every swap, and texts read back from the
manifest (in one read, leaving out removed chunks, while a writer holds a transaction open)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from askvault.model import Chunk
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.manifest.manifest import Manifest


def chunk(path: str, n: int, start: int) -> Chunk:
    return Chunk(f"{path}#{n}", path, Path(path).stem, (), start, start + 3, f"text {path} {n}", f"index {path} {n}")


def test_catalog_orders_each_notes_chunks_by_line_and_rebuilds_after_a_swap() -> None:
    catalog = ChunkCatalog(lambda ids: {})
    catalog.replace({c.id: c.info() for c in [chunk("b.md", 0, 9), chunk("a.md", 1, 20), chunk("a.md", 0, 2)]})
    order = catalog.by_note()
    assert dict(order) == {"a.md": ("a.md#0", "a.md#1"), "b.md": ("b.md#0",)}
    assert catalog.by_note() is order
    catalog.replace({c.id: c.info() for c in [chunk("a.md", 0, 2)]})
    assert dict(catalog.by_note()) == {"a.md": ("a.md#0",)}


def test_texts_come_back_from_the_manifest_in_the_callers_order_without_removed_chunks(tmp_path: Path) -> None:
    a = [chunk("a.md", 0, 1), chunk("a.md", 1, 5)]
    b = [chunk("b.md", 0, 1)]
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("a.md", "fa", 1, 10, "a", a)
        manifest.replace_note("b.md", "fb", 1, 10, "b", b)
        catalog = ChunkCatalog(manifest.chunk_texts)
        snapshot = {c.id: c.info() for c in [*a, *b]}
        catalog.replace(snapshot)
        wanted = [snapshot["b.md#0"], snapshot["a.md#1"], snapshot["a.md#0"]]
        assert list(catalog.with_text(wanted).items()) == [("b.md#0", b[0]), ("a.md#1", a[1]), ("a.md#0", a[0])]
        assert catalog.text_of("a.md#1") == (a[1].text, a[1].index_text, a[1].start_line, a[1].end_line)

        manifest.remove_note("b.md")  # after the caller took its snapshot
        assert list(catalog.with_text(wanted)) == ["a.md#1", "a.md#0"]
        assert catalog.text_of("b.md#0") is None
        assert catalog.with_text([]) == {}


def test_a_chunk_whose_note_was_re_indexed_onto_other_lines_since_the_snapshot_is_left_out(tmp_path: Path) -> None:
    """New text with the snapshot's old line range would send a citation to the wrong lines."""
    before = [chunk("a.md", 0, 1), chunk("a.md", 1, 5)]
    moved = [before[0], chunk("a.md", 1, 8)]  # a line added above the second chunk
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("a.md", "fa", 1, 10, "a", before)
        catalog = ChunkCatalog(manifest.chunk_texts)
        snapshot = {c.id: c.info() for c in before}
        catalog.replace(snapshot)
        manifest.replace_note("a.md", "fa2", 2, 11, "a", moved)  # committed before the catalog swaps
        assert list(catalog.with_text(snapshot.values())) == ["a.md#0"]
        catalog.replace({c.id: c.info() for c in moved})
        assert catalog.with_text(catalog.snapshot().values())["a.md#1"] == moved[1]


def test_texts_are_read_while_another_connection_holds_a_write_transaction(tmp_path: Path) -> None:
    notes = [chunk("a.md", 0, 1)]
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("a.md", "fa", 1, 10, "a", notes)
        writer = sqlite3.connect(manifest.file, isolation_level=None)
        try:
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("UPDATE chunks SET text = 'uncommitted'")
            # WAL: the last commit is read at once, neither blocked by the writer nor showing its change.
            assert manifest.chunk_texts(["a.md#0"]) == {"a.md#0": (notes[0].text, notes[0].index_text, 1, 4)}
            writer.execute("COMMIT")
        finally:
            writer.close()
        assert manifest.chunk_texts(["a.md#0"])["a.md#0"].text == "uncommitted"
