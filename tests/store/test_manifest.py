"""The SQLite manifest: notes, chunks, per-collection vector bookkeeping, schema and failure handling."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from askvault.errors import StoreError
from askvault.model import Chunk
from askvault.store.manifest.manifest import MANIFEST_FILE, SCHEMA_VERSION, Manifest, NoteDelta, NoteStat, content_hash


def chunk(path: str, n: int, text: str | None = None, tags: tuple[str, ...] = ("homelab",)) -> Chunk:
    body = text if text is not None else f"Section {n} of {path}: the server listens on port 5433."
    return Chunk(
        id=f"{path}#{n}",
        path=path,
        title=Path(path).stem,
        heading_path=("Home Server", f"Part {n}"),
        start_line=n * 10 + 1,
        end_line=n * 10 + 9,
        text=body,
        index_text=f"{Path(path).stem} › Home Server › Part {n}\n{body}",
        tags=tags,
        mtime=1_700_000_000.0,
    )


def record(manifest: Manifest, path: str, chunks: list[Chunk], fingerprint: str = "fp1") -> NoteDelta:
    return manifest.replace_note(path, fingerprint, 1_700_000_000.0, 1234, Path(path).stem, chunks)


@pytest.fixture
def manifest(tmp_path: Path) -> Iterator[Manifest]:
    with Manifest.open(tmp_path / "data") as opened:
        yield opened


def test_open_creates_one_wal_file_in_the_data_dir(tmp_path: Path) -> None:
    with Manifest.open(tmp_path / "data") as manifest:
        assert manifest.file == tmp_path / "data" / MANIFEST_FILE
        assert manifest.get_meta("schema_version") == str(SCHEMA_VERSION)
    conn = sqlite3.connect(tmp_path / "data" / MANIFEST_FILE)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()


def test_chunks_round_trip_and_survive_reopen(tmp_path: Path) -> None:
    chunks = [chunk("Homelab/Postgres.md", n) for n in range(3)]
    with Manifest.open(tmp_path) as manifest:
        record(manifest, "Homelab/Postgres.md", chunks)
    with Manifest.open(tmp_path) as manifest:
        assert manifest.get_chunk(chunks[1].id) == chunks[1]
        assert manifest.get_chunks([c.id for c in chunks] + ["missing"]) == {c.id: c for c in chunks}
        assert manifest.get_chunk("missing") is None
        assert manifest.note_fingerprints() == {"Homelab/Postgres.md": "fp1"}
        assert (manifest.count_notes(), manifest.count_chunks()) == (1, 3)


def test_replace_note_reports_the_delta(manifest: Manifest) -> None:
    path = "Homelab/Postgres.md"
    first = [chunk(path, n) for n in range(4)]
    assert record(manifest, path, first) == NoteDelta(added=[c.id for c in first], removed=[], changed=[])

    second = [
        first[0],  # unchanged
        replace(first[1], text="new", index_text="Postgres › new"),  # new text
        replace(first[2], tags=("homelab", "db")),  # same text, new tag
        chunk(path, 9),  # new chunk; first[3] is gone
    ]
    delta = record(manifest, path, second, fingerprint="fp2")

    assert delta == NoteDelta(
        added=[second[3].id], removed=[first[3].id], changed=[first[1].id], restamped=[first[2].id]
    )
    assert manifest.note_fingerprints() == {path: "fp2"}
    assert [c.id for c in manifest.iter_chunks()] == [c.id for c in second]


def test_failed_replace_leaves_old_rows(manifest: Manifest) -> None:
    path = "Notes/Kodi.md"
    old = [chunk(path, n) for n in range(2)]
    record(manifest, path, old)

    duplicate_ids = [chunk(path, 0, "one"), chunk(path, 0, "two")]
    with pytest.raises(StoreError, match=r"manifest .*manifest\.sqlite failed \(record Notes/Kodi\.md\)"):
        record(manifest, path, duplicate_ids, fingerprint="fp2")
    unencodable = [chunk(path, 0, "lone surrogate \ud800 here")]
    with pytest.raises(StoreError):
        record(manifest, path, unencodable, fingerprint="fp3")

    assert manifest.note_fingerprints() == {path: "fp1"}
    assert list(manifest.iter_chunks()) == old


def test_chunks_must_belong_to_the_note(manifest: Manifest) -> None:
    with pytest.raises(ValueError, match="belongs to"):
        record(manifest, "a.md", [chunk("b.md", 0)])


def test_remove_note_and_prefix(manifest: Manifest) -> None:
    for path in ["Home_lab/a.md", "Home_lab/Sub/b.md", "HomeXlab/c.md", "Home_lab2/d.md", "root.md"]:
        record(manifest, path, [chunk(path, 0), chunk(path, 1)])

    assert manifest.remove_note("root.md") == ["root.md#0", "root.md#1"]
    assert manifest.remove_note("root.md") == []
    removed = manifest.remove_prefix("Home_lab/")

    assert removed == ["Home_lab/Sub/b.md#0", "Home_lab/Sub/b.md#1", "Home_lab/a.md#0", "Home_lab/a.md#1"]
    assert sorted(manifest.note_fingerprints()) == ["HomeXlab/c.md", "Home_lab2/d.md"]
    assert manifest.count_chunks() == 4
    with pytest.raises(ValueError, match="whole vault"):
        manifest.remove_prefix("/")


def test_iteration_and_lookup_page_through_many_chunks(manifest: Manifest) -> None:
    for note in range(3):
        path = f"Daily/{note}.md"
        record(manifest, path, [chunk(path, n) for n in range(400)])

    listed = list(manifest.iter_chunks())
    ids = [c.id for c in listed]

    assert len(ids) == 1200
    assert ids == [f"Daily/{note}.md#{n}" for note in range(3) for n in range(400)]
    assert len(manifest.get_chunks(ids)) == 1200


def test_vector_bookkeeping(manifest: Manifest) -> None:
    path = "Homelab/Postgres.md"
    chunks = [chunk(path, n) for n in range(3)]
    record(manifest, path, chunks)
    assert [c.id for c in manifest.unembedded("nomic@768")] == [c.id for c in chunks]

    manifest.mark_embedded("nomic@768", [(c.id, content_hash(c)) for c in chunks[:2]])
    assert [c.id for c in manifest.unembedded("nomic@768")] == [chunks[2].id]
    assert len(manifest.unembedded("minilm@384")) == 3
    assert manifest.embedded_ids("nomic@768") == {chunks[0].id, chunks[1].id}

    # New text under the same id: the old vector no longer counts (but the store still holds it).
    edited = [replace(chunks[0], index_text="Postgres › rewritten"), *chunks[1:]]
    record(manifest, path, edited, fingerprint="fp2")
    assert [c.id for c in manifest.unembedded("nomic@768")] == [chunks[0].id, chunks[2].id]
    assert manifest.unembedded_ids("nomic@768") == [chunks[0].id, chunks[2].id]
    assert manifest.embedded_ids("nomic@768") == {chunks[0].id, chunks[1].id}

    # Vectors the store lost are forgotten; their chunks need embedding again.
    manifest.forget_vectors("nomic@768", [chunks[1].id])
    assert [c.id for c in manifest.unembedded("nomic@768")] == [c.id for c in chunks]

    manifest.mark_embedded("minilm@384", [(c.id, content_hash(c)) for c in edited])
    manifest.forget_collection("minilm@384")
    assert manifest.embedded_ids("minilm@384") == set()


def test_vector_rows_die_with_their_chunks(manifest: Manifest) -> None:
    a, b = [chunk("A/a.md", n) for n in range(2)], [chunk("B/b.md", n) for n in range(2)]
    record(manifest, "A/a.md", a)
    record(manifest, "B/b.md", b)
    for collection in ("nomic@768", "minilm@384"):
        manifest.mark_embedded(collection, [(c.id, content_hash(c)) for c in a + b])

    record(manifest, "A/a.md", a[:1])
    assert manifest.embedded_ids("nomic@768") == {a[0].id, b[0].id, b[1].id}
    manifest.remove_note("A/a.md")
    manifest.remove_prefix("B")

    assert manifest.embedded_ids("nomic@768") == set()
    assert manifest.embedded_ids("minilm@384") == set()


def test_mark_embedded_skips_gone_or_changed_chunks(manifest: Manifest) -> None:
    current = chunk("n.md", 0)
    record(manifest, "n.md", [current])

    manifest.mark_embedded("nomic@768", [("n.md#gone", "abc"), (current.id, content_hash(chunk("n.md", 0, "old")))])
    assert manifest.embedded_ids("nomic@768") == set()
    manifest.mark_embedded("nomic@768", [(current.id, content_hash(current))])
    assert manifest.embedded_ids("nomic@768") == {current.id}


def test_note_stats_keep_nanosecond_mtimes_exact(manifest: Manifest) -> None:
    mtime_ns = 1_712_345_678_123_456_789
    manifest.replace_note("a.md", "fp", mtime_ns, 42, "A", [chunk("a.md", 0)])
    manifest.replace_note("b.md", "fp", 1_700_000_000.25, 7, "B", [])

    stats = manifest.note_stats()

    assert stats["a.md"] == NoteStat("fp", mtime_ns, 42, "A")
    assert stats["a.md"].mtime_ns == mtime_ns
    assert stats["b.md"].mtime == 1_700_000_000.25
    assert stats["b.md"].mtime_ns == 1_700_000_000_250_000_000
    assert manifest.content_hash(chunk("a.md", 0)) == content_hash(chunk("a.md", 0))


def test_content_hash_is_sha256_of_index_text() -> None:
    c = chunk("a.md", 0)
    assert content_hash(c) == hashlib.sha256(c.index_text.encode("utf-8")).hexdigest()
    assert content_hash(replace(c, text="other display text", mtime=5.0)) == content_hash(c)


def test_meta(manifest: Manifest) -> None:
    assert manifest.get_meta("embedder") is None
    manifest.set_meta("embedder", "nomic-embed-text@768")
    manifest.set_meta("embedder", "all-minilm@384")
    assert manifest.get_meta("embedder") == "all-minilm@384"


def test_threads_share_the_manifest(manifest: Manifest) -> None:
    def write(note: int) -> int:
        path = f"T/{note}.md"
        record(manifest, path, [chunk(path, n) for n in range(5)])
        return manifest.count_chunks()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(write, range(40)))

    assert (manifest.count_notes(), manifest.count_chunks()) == (40, 200)


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    Manifest.open(tmp_path).close()
    conn = sqlite3.connect(tmp_path / MANIFEST_FILE)
    with conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()

    with pytest.raises(StoreError, match=rf"has schema 99, newer than this Ask Vault understands \({SCHEMA_VERSION}\)"):
        Manifest.open(tmp_path)


def test_corrupt_file_is_a_store_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / MANIFEST_FILE).write_bytes(b"this is not an sqlite database, just noise " * 200)

    with pytest.raises(StoreError) as caught:
        Manifest.open(tmp_path)
    assert str(tmp_path / MANIFEST_FILE) in caught.value.message
    assert "delete it" in caught.value.message


def test_closed_manifest_refuses_calls(tmp_path: Path) -> None:
    manifest = Manifest.open(tmp_path)
    manifest.close()
    manifest.close()

    with pytest.raises(StoreError, match="is closed"):
        manifest.count_chunks()
