"""The manifest keeps each chunk's language (schema 3), and upgrades a schema-2 manifest in place."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from askvault.model import Chunk
from askvault.store.manifest.manifest import MANIFEST_FILE, SCHEMA_VERSION, Manifest, content_hash

CHUNKS = [
    Chunk("de1", "Rezepte/Suppe.md", "Suppe", (), 1, 3, "Kartoffeln", "Suppe\nKartoffeln", ("rezept",), 1.0, "de"),
    Chunk("de2", "Rezepte/Suppe.md", "Suppe", ("Zubereitung",), 4, 6, "Zwiebeln", "Suppe\nZwiebeln", (), 1.0, "de"),
]


@pytest.mark.parametrize("language", ["de", "zh", ""], ids=["german", "chinese", "unknown"])
def test_the_language_round_trips(tmp_path: Path, language: str) -> None:
    chunks = [replace(chunk, language=language) for chunk in CHUNKS]
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("Rezepte/Suppe.md", "fp", 1, 10, "Suppe", chunks)
    with Manifest.open(tmp_path) as manifest:
        assert list(manifest.iter_chunks()) == chunks
        assert manifest.get_chunks(["de2"]) == {"de2": chunks[1]}
        assert manifest.unembedded("c") == chunks


def test_a_new_language_alone_is_no_change_for_the_vectors(tmp_path: Path) -> None:
    """The vector belongs to the text: a note that only gains a language keeps its vectors."""
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("Rezepte/Suppe.md", "fp", 1, 10, "Suppe", [replace(c, language="") for c in CHUNKS])
        manifest.mark_embedded("c", [(c.id, content_hash(c)) for c in CHUNKS])
        delta = manifest.replace_note("Rezepte/Suppe.md", "fp2", 1, 10, "Suppe", CHUNKS)
        assert (delta.added, delta.removed, delta.changed, delta.restamped) == ([], [], [], [])
        assert manifest.unembedded("c") == []


def test_a_schema_2_manifest_gains_the_column_and_keeps_its_rows(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("Rezepte/Suppe.md", "fp", 1, 10, "Suppe", CHUNKS)
        manifest.mark_embedded("c", [(c.id, content_hash(c)) for c in CHUNKS])
    conn = sqlite3.connect(tmp_path / MANIFEST_FILE)
    with conn:
        conn.execute("ALTER TABLE chunks DROP COLUMN language")
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.close()

    with Manifest.open(tmp_path) as manifest:
        assert manifest.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert list(manifest.iter_chunks()) == [replace(c, language="") for c in CHUNKS]
        assert manifest.unembedded("c") == []  # the text, and so every vector, is as it was
        assert manifest.note_fingerprints() == {"Rezepte/Suppe.md": "fp"}
    with Manifest.open(tmp_path) as manifest:  # opening again changes nothing
        assert len(list(manifest.iter_chunks())) == 2
