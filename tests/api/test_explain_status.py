"""POST /api/explain for notes that are not in the index: each rule named, no excluded text ever shown."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.engine_sidecar import Json, engine_sidecar, sidecar_config
from tests.conftest import RunningOllama

QUESTION = "kodi maintenance"
SECRET = "Marzipan-7781"
"""In every excluded note, title and text: it must never appear in an explanation."""
NOTES: dict[str, str | bytes] = {
    "Homelab/Kodi.md": "# Kodi\n\nKodi maintenance: clear the thumbnail cache every few months.\n",
    "Homelab/Opted out.md": f"---\naskvault: false\n---\n# {SECRET} plans\n\nKodi maintenance and {SECRET}.\n",
    "Archive/Old Kodi.md": f"# {SECRET} archive\n\nOld kodi maintenance notes about {SECRET}.\n",
    "Archive/deep/Older.md": f"# {SECRET}\n\nkodi {SECRET}\n",
    "Regex/Kodi 2019.md": f"# {SECRET}\n\nkodi {SECRET}\n",
    "Private only.md": f"# Private\n\nkodi maintenance {SECRET}\n\n## Also private\n\nkodi {SECRET}\n",
    "Big.md": "# Big\n\n" + "kodi maintenance " * 400,
    "Broken.md": b"# Broken\n\nkodi \xff\xfe maintenance\n",
    "Homelab/photo.png": b"\x89PNG\r\n\x1a\n",
    ".trash/Thrown away.md": f"# {SECRET}\n\nkodi {SECRET}\n",
    ".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Archive/", "/Kodi \\d{4}/"]}),
}


def _note(body: Json) -> Json:
    note = body["note"]
    assert isinstance(note, dict)
    return note


async def test_every_rule_is_named(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = sidecar_config(
        tmp_path / "vault",
        tmp_path / "data",
        fake_ollama.url,
        max_note_bytes=4096,
        exclude_headings=("Private", "Also private"),
    )
    expected = {
        "Homelab/Opted out.md": (
            "excluded",
            "frontmatter-opt-out",
            "Excluded from the index by its frontmatter (`askvault: false`).",
        ),
        "Archive/Old Kodi.md": (
            "excluded",
            "obsidian-excluded",
            "Excluded from the index by Obsidian's Excluded files entry `Archive/`.",
        ),
        "Archive/deep/Older.md": (
            "excluded",
            "obsidian-excluded",
            "Excluded from the index by Obsidian's Excluded files entry `Archive/`.",
        ),
        "Regex/Kodi 2019.md": (
            "excluded",
            "obsidian-excluded",
            "Excluded from the index by Obsidian's Excluded files entry `/Kodi \\d{4}/`.",
        ),
        "Private only.md": (
            "excluded",
            "excluded-heading",
            "Every section is under the excluded heading `Private`, so it is kept out of the index.",
        ),
        "Big.md": (
            "not_indexed",
            "size-limit",
            "Skipped by the indexer: too large (6.7 KiB; the limit is 4 KiB); split it into smaller files to index it.",
        ),
        "Broken.md": (
            "failed",
            "parse-failure",
            "Failed to index: not valid UTF-8 at byte 15 (bytes ff fe 20 6d): invalid start byte; re-save it as UTF-8.",
        ),
        "Homelab/photo.png": (
            "not_indexed",
            "not-markdown",
            "Not indexed: only Markdown notes (.md), PDFs and canvases are.",
        ),
        ".trash/Thrown away.md": (
            "excluded",
            "obsidian-excluded",
            "Not indexed: notes in hidden folders never are (in Obsidian's trash (.trash)).",
        ),
        "Gone.md": ("missing", "no-such-note", "There is no note at this path in the vault."),
    }
    async with engine_sidecar(config, NOTES) as car:
        indexed = await car.explain(QUESTION, "Homelab/Kodi.md")
        bodies = {path: await car.explain(QUESTION, path) for path in expected}

    assert _note(indexed)["status"] == "indexed"
    for path, (status, rule, detail) in expected.items():
        body = bodies[path]
        assert _note(body) == {
            "path": path,
            "title": None,
            "status": status,
            "indexed_at": None,
            "chunks": 0,
            "reason": {"rule": rule, "detail": detail},
        }, path
        assert body["summary"] == detail
        assert body["sent"] is False
        assert body["best"] == {"dense": None, "keyword": None, "fused": None}
        assert body["terms"] == {"matched": [], "missing": ["kodi", "mainten"]}
        assert SECRET not in json.dumps(body)


async def test_a_rule_added_after_indexing_applies_at_once(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = sidecar_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    notes = {key: value for key, value in NOTES.items() if key.endswith(".md") and not key.startswith(".")}
    async with engine_sidecar(config, notes) as car:
        before = await car.explain(QUESTION, "Archive/Old Kodi.md")
        assert _note(before)["status"] == "indexed"
        assert _note(before)["title"] == "Old Kodi"
        # Excluded files edited in Obsidian: the index still holds the note, and the answer-time guard hides it.
        app_json = config.vault.root / ".obsidian" / "app.json"
        app_json.write_text(json.dumps({"userIgnoreFilters": ["Archive/"]}), encoding="utf-8")
        after = await car.explain(QUESTION, "Archive/Old Kodi.md")

    assert _note(after)["status"] == "excluded"
    assert _note(after)["reason"] == {
        "rule": "obsidian-excluded",
        "detail": "Excluded from the index by Obsidian's Excluded files entry `Archive/`.",
    }
    assert after["best"] == {"dense": None, "keyword": None, "fused": None}
    assert SECRET not in json.dumps(after)
