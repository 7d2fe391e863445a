"""Per-note languages on the real engine: German notes are found by German stems, a `lang:` overrides detection,
and an index from before languages is re-tokenized once on upgrade without embedding anything again."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from askvault.chunk import CHUNKER_VERSION
from askvault.config import Config
from askvault.index.privacy import IndexPrivacy
from askvault.store.manifest.manifest import SCHEMA_VERSION
from askvault.wiring import MANIFEST_FILE, Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import embedded_texts, engine_config, index_once, indexed_engine, paths, write_notes

NOTES: dict[str, str | bytes] = {
    "Rezepte/Linsensuppe.md": (
        "# Linsensuppe\n\nDie Suppe, die es bei Oma jeden Samstag gab. Schmeckt am zweiten Tag besser.\n\n"
        "## Zubereitung\n\nDrei Kartoffeln und eine Zwiebel würfeln, in etwas Öl andünsten, dann Linsen, Lorbeer "
        "und Brühe dazugeben und dreißig Minuten köcheln lassen.\n"
    ),
    "Rezepte/Käsespätzle.md": (
        "# Käsespätzle\n\nOmas Version aus dem Allgäu. Vier große Zwiebeln in Ringe schneiden und in der Butter "
        "langsam goldbraun braten, dann schichtweise mit den Spätzle und dem Käse in die Form.\n"
    ),
    "Cooking/Potato salad.md": (
        "# Potato salad\n\nBoil the waxy potatoes in their skins, peel them while still warm and slice thin. "
        "Add finely chopped onions, hot stock, vinegar and oil, and let it rest for an hour before serving.\n"
    ),
    "Homelab/Backups.md": (
        "# Backups\n\nThe nightly backups run at three in the morning and upload the database dumps to the "
        "offsite bucket. A failed run sends a notification to the phone.\n"
    ),
    "Inbox/Markt.md": (
        "---\nlang: en\n---\n# Markt\n\nKartoffeln und Zwiebeln für den Markt am Samstag kaufen, dazu frische "
        "Kräuter und ein Brot vom Bäcker an der Ecke.\n"
    ),
}
GERMAN_NOTES = ["Rezepte/Käsespätzle.md", "Rezepte/Linsensuppe.md"]


def languages(engine: Engine) -> dict[str, str]:
    return {chunk.path: chunk.language for chunk in engine.catalog.snapshot().values()}


async def test_kartoffel_zwiebel_finds_the_german_notes(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    write_notes(tmp_path / "vault", NOTES)
    async with indexed_engine(engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)) as engine:
        assert languages(engine) == {
            "Rezepte/Linsensuppe.md": "de",
            "Rezepte/Käsespätzle.md": "de",
            "Cooking/Potato salad.md": "en",
            "Homelab/Backups.md": "en",
            "Inbox/Markt.md": "en",  # German text, but its frontmatter says English: stemmed as English
        }
        assert engine.keywords.languages == ("en", "de")
        result = await engine.searcher.search("Kartoffel Zwiebel", 5, mode="keyword")
        assert sorted(paths(result)) == GERMAN_NOTES
        assert [(t.term, t.df > 0) for t in result.terms] == [("kartoffel", True), ("zwiebel", True)]
        # An English question still finds the English note, in a vault that is part German.
        english = await engine.searcher.search("How long should the sliced potatoes rest?", 3, mode="keyword")
        assert paths(english)[0] == "Cooking/Potato salad.md"


def _pre_language_version(config: Config) -> str:
    """The fingerprint suffix the indexer wrote before languages (chunker, chunking, privacy; no languages)."""
    key = f"{CHUNKER_VERSION}|{config.chunk}|{IndexPrivacy(config.vault).version}"
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def _make_it_a_schema_2_manifest(file: Path, version: str) -> None:
    """What an index built before languages looks like: no `chunks.language`, schema 2, the old fingerprints."""
    conn = sqlite3.connect(file)
    with conn:
        conn.execute(
            "CREATE TABLE chunks_v2 (id TEXT PRIMARY KEY, path TEXT NOT NULL, ordinal INTEGER NOT NULL,"
            " title TEXT NOT NULL, heading_path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,"
            " text TEXT NOT NULL, index_text TEXT NOT NULL, tags TEXT NOT NULL, mtime REAL NOT NULL,"
            " content_hash TEXT NOT NULL)"
        )
        conn.execute(
            "INSERT INTO chunks_v2 SELECT id, path, ordinal, title, heading_path, start_line, end_line, text,"
            " index_text, tags, mtime, content_hash FROM chunks"
        )
        conn.execute("DROP TABLE chunks")
        conn.execute("ALTER TABLE chunks_v2 RENAME TO chunks")
        conn.execute("CREATE INDEX chunks_by_path ON chunks (path, ordinal)")
        conn.execute("UPDATE notes SET fingerprint = substr(fingerprint, 1, 65) || ?", (version,))
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.close()


async def test_an_index_from_before_languages_is_retokenized_once_without_embedding(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    write_notes(tmp_path / "vault", NOTES)
    config = engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    first = await index_once(config)
    assert first.embedded > 0
    async with open_engine(config, sync_vectors=False) as engine:
        hashes = {chunk.id: engine.manifest.content_hash(chunk) for chunk in engine.manifest.iter_chunks()}
    _make_it_a_schema_2_manifest(tmp_path / "data" / MANIFEST_FILE, _pre_language_version(config))
    fake_ollama.fake.requests.clear()

    async with open_engine(config) as engine:
        # Served at once from the upgraded manifest: every chunk in the default language, as before.
        assert set(languages(engine).values()) == {""}
        before = await engine.searcher.search("Kartoffel Zwiebel", 5, mode="keyword")
        assert paths(before) == ["Rezepte/Linsensuppe.md"]  # English stems: only its singular "Zwiebel" meets
        report = await engine.indexer.run()
        assert (report.indexed, report.unchanged, report.embedded) == (len(NOTES), 0, 0)
        assert languages(engine)["Rezepte/Linsensuppe.md"] == "de"
        after = await engine.searcher.search("Kartoffel Zwiebel", 5, mode="keyword")
        assert sorted(paths(after)) == GERMAN_NOTES
        assert {chunk.id: engine.manifest.content_hash(chunk) for chunk in engine.manifest.iter_chunks()} == hashes
        assert engine.manifest.get_meta("schema_version") == str(SCHEMA_VERSION)
        again = await engine.indexer.run()
        assert (again.indexed, again.unchanged, again.embedded) == (0, len(NOTES), 0)
    assert embedded_texts(fake_ollama.fake) == []
