"""One path's place in the index, on the real engine: pending, include-only mode, an index older than the rules."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from askvault.config import VaultConfig
from askvault.index.note_status import exclusion_detail
from askvault.index.scan import Exclusion
from askvault.wire.explain import explanation_to_json
from askvault.wiring import open_engine
from askvault.wiring.explain import engine_explainer, note_status_query
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, paragraph, write_notes

SECRET = "Quokka-4417"
NOTES: dict[str, str | bytes] = {
    "Homelab/Kodi.md": (
        f"# Kodi\n\n## Setup\n\nKodi maintenance starts with the box. {paragraph('setup')}\n\n"
        f"## Secrets\n\nThe kodi web password is {SECRET}. {paragraph('hidden')}\n"
    ),
    "Ideas/Garden.md": "# Garden\n\nTomatoes want sun.\n",
}


async def test_a_note_written_after_the_last_run_is_pending(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    write_notes(config.vault.root, NOTES)
    await index_once(config)
    write_notes(config.vault.root, {"Ideas/New.md": "# New\n\nWritten just now.\n"})
    async with open_engine(config, sync_vectors=False) as engine:
        status = note_status_query(engine).status("Ideas/New.md")
        indexed = note_status_query(engine).status("Ideas/Garden.md")

    assert (status.state, status.rule) == ("not_indexed", "pending")
    assert status.detail == "Not indexed yet: the next index run will add it."
    assert (indexed.state, indexed.title, indexed.chunks, indexed.rule) == ("indexed", "Garden", 1, None)
    assert indexed.indexed_at is not None


async def test_include_only_mode_names_its_patterns(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    config = dataclasses.replace(config, vault=dataclasses.replace(config.vault, include_globs=("Homelab/**",)))
    write_notes(config.vault.root, NOTES)
    await index_once(config)
    async with open_engine(config, sync_vectors=False) as engine:
        status = note_status_query(engine).status("Ideas/Garden.md")

    assert (status.state, status.rule) == ("excluded", "include-glob")
    assert status.detail == "Excluded from the index: it matches none of the include patterns (`Homelab/**`)."


async def test_sections_hidden_since_indexing_are_a_privacy_factor(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    write_notes(config.vault.root, NOTES)
    await index_once(config)
    # The index predates the rule: the section is still indexed, and the answer-time guard hides it.
    later = dataclasses.replace(config, vault=dataclasses.replace(config.vault, exclude_headings=("secrets",)))
    async with open_engine(later) as engine:
        assert len(engine.catalog.by_note()["Homelab/Kodi.md"]) == 2
        explanation = await engine_explainer(engine).explain("kodi web password", "Homelab/Kodi.md")
    body = explanation_to_json(explanation)

    assert body["note"] == {**body["note"], "status": "indexed", "chunks": 1}  # type: ignore[dict-item]
    assert body["factors"] == [
        {
            "kind": "privacy",
            "detail": "1 of its 2 chunks is hidden by the current privacy rules "
            "(under the excluded heading 'secrets').",
        }
    ]
    # "web" and "password" were only in the hidden section.
    assert body["terms"] == {"matched": ["kodi"], "missing": ["web", "password"]}
    assert SECRET not in json.dumps(body)
    assert "Secrets" not in json.dumps(body["best"])


ROOT = Path("vault")
DETAILS = {
    "excluded-files-prefix": (
        Exclusion("obsidian-excluded", "Obsidian Excluded files: 'Archive/'", "Archive/"),
        "Excluded from the index by Obsidian's Excluded files entry `Archive/`.",
    ),
    "hidden-folder": (
        Exclusion("obsidian-excluded", "in Obsidian's trash (.trash)"),
        "Not indexed: notes in hidden folders never are (in Obsidian's trash (.trash)).",
    ),
    "glob": (
        Exclusion("exclude-glob", "exclude glob 'Private/**'", "Private/**"),
        "Excluded from the index by the pattern `Private/**`.",
    ),
    "include": (
        Exclusion("include-glob", "not matched by the include globs"),
        "Excluded from the index: it matches none of the include patterns (`Work/**`, `*.md`).",
    ),
    "heading": (
        Exclusion("excluded-heading", "", "Private"),
        "It is under the excluded heading `Private`, so it is kept out of the index.",
    ),
    "opt-out": (
        Exclusion("frontmatter-opt-out", "opted out"),
        "Excluded from the index by its frontmatter (`index-me: false`).",
    ),
}


@pytest.mark.parametrize(("exclusion", "expected"), DETAILS.values(), ids=DETAILS.keys())
def test_each_rule_is_named_in_one_sentence(exclusion: Exclusion, expected: str) -> None:
    vault = VaultConfig(root=ROOT, include_globs=("Work/**", "*.md"), opt_out_key="index-me")
    assert exclusion_detail(exclusion, vault) == expected
