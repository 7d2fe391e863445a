"""Schema 5: a manifest written while the link graph existed loses its `note_links` table, and nothing else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from askvault.model import Chunk
from askvault.store.manifest.manifest import MANIFEST_FILE, SCHEMA_VERSION, Manifest

LINKS_TABLE = (
    "CREATE TABLE note_links (path TEXT NOT NULL, ordinal INTEGER NOT NULL, target TEXT NOT NULL,"
    " PRIMARY KEY (path, ordinal))"
)


def tables(file: Path) -> set[str]:
    conn = sqlite3.connect(file)
    try:
        return {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


@pytest.mark.parametrize("old_version", ["1", "4"], ids=["schema-1", "schema-4"])
def test_the_link_table_goes_and_every_note_stays_indexed(tmp_path: Path, old_version: str) -> None:
    chunk = Chunk("a#0", "a.md", "a", (), 1, 3, "text", "text")
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("a.md", "fp1:v", 1, 10, "a", [chunk])
    file = tmp_path / MANIFEST_FILE
    conn = sqlite3.connect(file)
    with conn:  # what an older Ask Vault left: the link table, with the note's targets in it
        conn.execute(LINKS_TABLE)
        conn.execute("INSERT INTO note_links VALUES ('a.md', 0, 'Secret plans')")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (old_version,))
    conn.close()

    with Manifest.open(tmp_path) as manifest:
        assert manifest.get_meta("schema_version") == str(SCHEMA_VERSION) == "6"
        # The fingerprint is untouched: the next run re-reads no note for the upgrade.
        assert manifest.note_stats()["a.md"].fingerprint == "fp1:v"
        assert manifest.get_chunk("a#0") == chunk
    assert "note_links" not in tables(file)
