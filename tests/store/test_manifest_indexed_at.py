"""When a note's current chunks were indexed (schema 4): set with new chunks, kept when they come back the same."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from askvault.model import Chunk
from askvault.store.manifest.manifest import MANIFEST_FILE, SCHEMA_VERSION, Manifest

PATH = "Homelab/Kodi.md"
CHUNKS = [
    Chunk("k1", PATH, "Kodi", (), 1, 3, "The box runs Kodi.", "Kodi\nThe box runs Kodi.", ("media",), 1.0),
    Chunk("k2", PATH, "Kodi", ("Maintenance",), 4, 6, "Clear the cache.", "Kodi › Maintenance\nClear.", (), 1.0),
]


def _forget_when(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / MANIFEST_FILE)
    with conn:
        conn.execute("UPDATE notes SET indexed_at = NULL")
    conn.close()


def test_a_new_note_is_stamped_now(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        before = datetime.now(UTC).replace(microsecond=0)
        manifest.replace_note(PATH, "fp", 1, 10, "Kodi", CHUNKS)
        stamp = manifest.indexed_at(PATH)
    assert stamp is not None
    assert stamp.endswith("+00:00")
    assert before <= datetime.fromisoformat(stamp) <= datetime.now(UTC) + timedelta(seconds=1)


def test_the_same_chunks_keep_their_time_and_changed_ones_get_a_new_one(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note(PATH, "fp", 1, 10, "Kodi", CHUNKS)
    _forget_when(tmp_path)  # an unknown time stays unknown until the chunks change: nothing is invented
    with Manifest.open(tmp_path) as manifest:
        # A touched file, a full run, new tags or mtime: the same ids with the same text.
        manifest.replace_note(PATH, "fp2", 2, 10, "Kodi", [replace(c, tags=("x",), mtime=2.0) for c in CHUNKS])
        assert manifest.indexed_at(PATH) is None
        manifest.replace_note(
            PATH,
            "fp3",
            3,
            10,
            "Kodi",
            [CHUNKS[0], replace(CHUNKS[1], text="Vacuum.", index_text="Kodi › Maintenance\nVacuum.")],
        )
        assert manifest.indexed_at(PATH) is not None
    _forget_when(tmp_path)
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note(PATH, "fp4", 4, 10, "Kodi", CHUNKS[:1])  # a chunk gone is a change too
        assert manifest.indexed_at(PATH) is not None
        assert manifest.indexed_at("Nope.md") is None
        manifest.remove_note(PATH)
        assert manifest.indexed_at(PATH) is None


def test_a_schema_3_manifest_gains_the_column_with_unknown_times(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note(PATH, "fp", 1, 10, "Kodi", CHUNKS)
    conn = sqlite3.connect(tmp_path / MANIFEST_FILE)
    with conn:
        conn.execute("ALTER TABLE notes DROP COLUMN indexed_at")
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.close()

    with Manifest.open(tmp_path) as manifest:
        assert manifest.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert manifest.indexed_at(PATH) is None
        assert list(manifest.iter_chunks()) == CHUNKS
        assert manifest.note_stats()[PATH].fingerprint == "fp"
