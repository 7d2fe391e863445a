"""An index from before chunks carried their aliases (manifest schema 4) is chunked again once, embedding nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from askvault.retrieve.mentions import alias_index
from askvault.wiring import MANIFEST_FILE, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import embedded_texts, engine_config, index_once, write_notes

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "---\naliases: [pg-main]\n---\n# Postgres\n\nThe database listens on port 5433.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe media box in the living room.\n",
}


def _make_it_a_schema_4_manifest(file: Path) -> None:
    conn = sqlite3.connect(file)
    with conn:
        conn.execute("ALTER TABLE chunks DROP COLUMN aliases")
        conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.close()


async def test_a_schema_4_index_gets_its_aliases_back_without_embedding(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    write_notes(tmp_path / "vault", NOTES)
    config = engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    assert (await index_once(config)).embedded > 0
    async with open_engine(config, sync_vectors=False) as engine:
        before = list(engine.manifest.iter_chunks())
    assert {chunk.path: chunk.aliases for chunk in before}["Homelab/Postgres.md"] == ("pg-main",)
    _make_it_a_schema_4_manifest(tmp_path / "data" / MANIFEST_FILE)
    fake_ollama.fake.requests.clear()

    async with open_engine(config) as engine:
        assert {chunk.aliases for chunk in engine.manifest.iter_chunks()} == {()}  # not recorded yet
        report = await engine.indexer.run()
        assert (report.indexed, report.unchanged, report.embedded) == (len(NOTES), 0, 0)
        assert list(engine.manifest.iter_chunks()) == before  # the same chunks, aliases and all
        assert alias_index(engine.catalog.snapshot()) == {"pg-main": "Homelab/Postgres.md"}  # `[[pg-main]]` resolves
        again = await engine.indexer.run()
        assert (again.indexed, again.unchanged, again.embedded) == (0, len(NOTES), 0)
    assert embedded_texts(fake_ollama.fake) == []
