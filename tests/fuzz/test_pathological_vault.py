"""The real indexer over a vault made of the pathological corpus: the run completes, bad notes are reported with a
reason, and the good notes (including look-alike names: NFC/NFD, case twins, odd characters) are searchable."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from askvault.config import load_config
from askvault.wiring import Engine, open_engine
from reliability.pathological import GENERATORS, SLOW_BOUNDS_S, fixture_cases
from tests.fuzz.test_pathological import REFUSED

pytestmark = pytest.mark.slow

GOOD = {
    "Good/Alpha.md": "# Alpha\n\nThe zanzibar0001 note is perfectly ordinary.\n",
    "Good/" + unicodedata.normalize("NFC", "Café.md"): "# Café NFC\n\nThe espresso0002 note, composed é.\n",
    "Good/" + unicodedata.normalize("NFD", "Café.md"): "# Café NFD\n\nThe ristretto0003 note, decomposed é.\n",
    "Good/note.md": "# note\n\nThe lowercase0004 twin.\n",
    "Good/Note.md": "# Note\n\nThe uppercase0005 twin.\n",
    "Good/Emoji 🚀 launch.md": "# Emoji\n\nThe rocket0006 note.\n",
    "Good/Colon: in name.md": "# Colon\n\nThe colon0007 note.\n",
    "Good/Trailing dot..md": "# Dot\n\nThe dotted0008 note.\n",
    "Good/" + "n" * 252 + ".md": "# Long\n\nThe longname0009 note (a 255-byte file name).\n",
}
FAST = [name for name in GENERATORS if name not in SLOW_BOUNDS_S]
OVER_CAP = "single-line-10mb-over-cap"


def _write(root: Path) -> None:
    (root / ".obsidian").mkdir(parents=True)
    for name in [*FAST, OVER_CAP]:
        (root / "Fuzz").mkdir(exist_ok=True)
        (root / "Fuzz" / f"{name}.md").write_bytes(GENERATORS[name]())
    (root / "Fixtures").mkdir()
    for name, data in fixture_cases().items():
        (root / "Fixtures" / name).write_bytes(data)
    for rel, text in GOOD.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


async def _paths(engine: Engine, query: str) -> set[str]:
    return {hit.chunk.path for hit in (await engine.searcher.search(query, 10, mode="keyword")).hits}


@pytest.mark.timeout(300)
async def test_indexing_a_hostile_vault_completes_and_keeps_the_good_notes(
    tmp_path: Path, closed_port_url: str
) -> None:
    vault = tmp_path / "vault"
    _write(vault)
    # An Ollama embedder at a closed port: this test is about parsing and chunking hostile notes, keyword-only.
    flags = {"vault": str(vault), "data_dir": str(tmp_path / "data"), "ollama_url": closed_port_url, "port": 0}
    config = load_config({**flags, "embed_model": "nomic-embed-text"}, {})
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        # Binary files are skipped (not notes); files that are not UTF-8 failed (notes that could not be read).
        refused = {**{p.path: p.reason for p in report.failed}, **{p.path: p.reason for p in report.skipped}}
        expected_failures = {
            (f"Fuzz/{name}.md" if name in GENERATORS else f"Fixtures/{name}"): reason
            for name, reason in REFUSED.items()
        }
        failed = {path: reason for path, reason in refused.items() if path in expected_failures}
        assert set(failed) == set(expected_failures)
        for path, reason in expected_failures.items():
            assert reason in failed[path]
            assert (path in {p.path for p in report.skipped}) is (reason == "binary data")
        skipped = {p.path: p.reason for p in report.skipped}
        assert skipped[f"Fuzz/{OVER_CAP}.md"].startswith("too large")
        notices = {p.path: p.reason for p in report.notices}
        assert notices["Fuzz/lines-200k.md"].startswith("parsed as plain text (200000 lines)")
        assert "Fuzz/lines-20k.md" not in notices  # at the bound: read as Markdown
        total = len(FAST) + 1 + len(fixture_cases()) + len(GOOD)
        assert report.indexed == total - len(failed) - 1, (skipped, sorted(engine.manifest.note_stats()))

        for rel, text in GOOD.items():
            marker = next(word for word in text.split() if word[-4:].isdigit())
            assert await _paths(engine, marker) == {rel}, rel
        assert await _paths(engine, "cycle0001") == {"Fixtures/Embed cycle A.md"}
        assert await _paths(engine, "cycle0002") == {"Fixtures/Embed cycle B.md"}
        assert len(engine.manifest.note_stats()) == report.indexed

        again = await engine.indexer.run()
        assert again.unchanged == report.indexed
        again_refused = {p.path for p in [*again.failed, *again.skipped]}
        assert again_refused >= set(failed)  # still reported, never silently dropped
