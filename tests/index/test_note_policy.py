"""`NotePolicy`: each exclusion reason and its one wording, and the app.json rules read again when they change."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from askvault.config import SourceConfig, VaultConfig
from askvault.index.exclusion import Exclusion, exclusion_detail, hidden_reason, kind_switched_off
from askvault.index.policy import NotePolicy
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note


def write_app_json(folder: Path, filters: list[str], config_dir: str = ".obsidian") -> Path:
    (folder / config_dir).mkdir(parents=True, exist_ok=True)
    app_json = folder / config_dir / "app.json"
    app_json.write_text(json.dumps({"userIgnoreFilters": filters}), encoding="utf-8")
    return app_json


@pytest.mark.parametrize(
    ("exclusion", "rule", "reason", "pattern"),
    [
        (Exclusion.obsidian("Archive/"), "obsidian-excluded", "Obsidian Excluded files: 'Archive/'", "Archive/"),
        (Exclusion.obsidian("/secret/"), "obsidian-excluded", "Obsidian Excluded files: '/secret/'", "/secret/"),
        (Exclusion.hidden("hidden (.git)"), "obsidian-excluded", "hidden (.git)", None),
        (Exclusion.exclude_glob("Private/**"), "exclude-glob", "exclude glob 'Private/**'", "Private/**"),
        (Exclusion.exclude_glob(None), "exclude-glob", "exclude globs", None),
        (Exclusion.include_globs(), "include-glob", "not matched by the include globs", None),
        (Exclusion.excluded_heading("Private"), "excluded-heading", "under the excluded heading 'Private'", "Private"),
        (Exclusion.opted_out("askvault"), "frontmatter-opt-out", "opted out (askvault: false)", None),
        (Exclusion.opted_out("index-me"), "frontmatter-opt-out", "opted out (index-me: false)", None),
        (
            Exclusion.size_limit("a.md", 101, 100),
            "size-limit",
            "too large (101 bytes; the limit is 100 bytes); split it into smaller files to index it",
            None,
        ),
        (Exclusion.source_removed(), "source-removed", "its folder is no longer a source of this vault", None),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_each_reason_has_one_wording(exclusion: Exclusion, rule: str, reason: str, pattern: str | None) -> None:
    assert (exclusion.rule, exclusion.reason, exclusion.pattern) == (rule, reason, pattern)


@pytest.mark.parametrize(
    ("part", "config_dir", "reason"),
    [
        (".obsidian", ".obsidian", "inside the Obsidian config folder .obsidian"),
        (".phone-config", ".phone-config", "inside the Obsidian config folder .phone-config"),
        (".obsidian", None, "hidden (.obsidian)"),
        (".trash", ".obsidian", "in Obsidian's trash (.trash)"),
        (".git", ".obsidian", "hidden (.git)"),
    ],
)
def test_hidden_folders_are_worded_once(part: str, config_dir: str | None, reason: str) -> None:
    assert hidden_reason(part, config_dir) == reason


def test_a_kind_switched_off_names_its_setting() -> None:
    assert kind_switched_off("pdf") == "pdfs are switched off (pdfs = false)"


@pytest.mark.parametrize(
    ("exclusion", "detail"),
    [
        (Exclusion.obsidian("Archive/"), "Excluded from the index by Obsidian's Excluded files entry `Archive/`."),
        (
            Exclusion.hidden("in Obsidian's trash (.trash)"),
            "Not indexed: notes in hidden folders never are (in Obsidian's trash (.trash)).",
        ),
        (Exclusion.exclude_glob("Private/**"), "Excluded from the index by the pattern `Private/**`."),
        (Exclusion.include_globs(), "Excluded from the index: it matches none of the include patterns (`Work/**`)."),
        (
            Exclusion.excluded_heading("Private"),
            "It is under the excluded heading `Private`, so it is kept out of the index.",
        ),
        (Exclusion.opted_out("index-me"), "Excluded from the index by its frontmatter (`index-me: false`)."),
        (
            Exclusion.source_removed(),
            "Not shown: its folder is no longer a source of this vault; the next index run drops it.",
        ),
    ],
)
def test_each_reason_has_one_explain_sentence(exclusion: Exclusion, detail: str) -> None:
    vault = VaultConfig(root=Path("/vault"), include_globs=("Work/**",), opt_out_key="index-me")
    assert exclusion_detail(exclusion, vault) == detail


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    write_app_json(root, ["Archive/", "/secret/"])
    return root


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("Notes/keep.md", None),
        ("Archive/old.md", Exclusion.obsidian("Archive/")),
        ("Notes/my secret plan.md", Exclusion.obsidian("/secret/")),
        ("Private/diary.md", Exclusion.exclude_glob("Private/")),
        (".obsidian/app.json", Exclusion.hidden("inside the Obsidian config folder .obsidian")),
        (".trash/gone.md", Exclusion.hidden("in Obsidian's trash (.trash)")),
        ("Notes/.drafts/x.md", Exclusion.hidden("hidden (.drafts)")),
        ("Gone:guide.md", Exclusion.source_removed()),
        ("Docs:guide.md", None),
        ("Docs:Internal/guide.md", Exclusion.exclude_glob("Internal/")),
    ],
)
def test_path_rules(vault: Path, tmp_path: Path, path: str, expected: Exclusion | None) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    config = VaultConfig(
        root=vault,
        exclude_globs=("Private/",),
        sources=(SourceConfig(label="Docs", root=docs, exclude_globs=("Internal/",)),),
    )
    assert NotePolicy(config).path_rule(path) == expected


def test_the_include_globs_leave_out_what_they_miss(vault: Path) -> None:
    policy = NotePolicy(VaultConfig(root=vault, include_globs=("Work/**",)))
    assert policy.path_rule("Home/list.md") == Exclusion.include_globs()
    assert policy.path_rule("Work/plan.md") is None
    assert policy.excluded("Home/list.md") == "not matched by the include globs"


def test_the_vault_rule_never_reads_a_path_as_a_source(vault: Path) -> None:
    policy = NotePolicy(VaultConfig(root=vault))
    assert policy.path_rule("Gone:guide.md") == Exclusion.source_removed()
    assert policy.vault_rule("Gone:guide.md") is None  # MCP reads it from the vault folder: no such note there
    assert policy.vault_rule("Archive/old.md") == Exclusion.obsidian("Archive/")


@pytest.mark.parametrize(
    ("path", "size", "expected"),
    [
        ("a.md", 100, None),
        ("a.md", 101, "too large (101 bytes; the limit is 100 bytes); split it into smaller files to index it"),
        ("manual.pdf", 101, None),
        (
            "manual.pdf",
            1001,
            "too large (1001 bytes; the limit is 1000 bytes); raise `max_pdf_mb` (`--max-pdf-mb`) to index it",
        ),
    ],
)
def test_size_caps(vault: Path, path: str, size: int, expected: str | None) -> None:
    policy = NotePolicy(VaultConfig(root=vault, max_note_bytes=100, max_pdf_bytes=1000))
    rule = policy.size_rule(path, size)
    assert (None if rule is None else rule.reason) == expected
    assert rule is None or rule.rule == "size-limit"


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("askvault", "---\naskvault: false\n---\n# A\n", "opted out (askvault: false)"),
        ("askvault", "---\naskvault: true\n---\n# A\n", None),
        ("index-me", "---\nindex-me: false\n---\n# A\n", "opted out (index-me: false)"),
        ("index-me", "---\naskvault: false\n---\n# A\n", None),
    ],
)
def test_frontmatter_opt_out(vault: Path, key: str, text: str, expected: str | None) -> None:
    policy = NotePolicy(VaultConfig(root=vault, opt_out_key=key))
    rule = policy.opt_out_rule(parse_note("a.md", text, LinkResolver(()), key))
    assert (None if rule is None else rule.reason) == expected


def test_an_opt_out_after_indexing_is_noticed_once_the_note_changes(vault: Path) -> None:
    note = vault / "a.md"
    note.write_text("# A\n", encoding="utf-8")
    policy = NotePolicy(VaultConfig(root=vault))
    indexed = os.stat(note).st_mtime_ns / 1e9
    assert not policy.opted_out_since("a.md", indexed)
    note.write_text("---\naskvault: false\n---\n# A\n", encoding="utf-8")
    os.utime(note, ns=(os.stat(note).st_mtime_ns + 10**9,) * 2)
    assert policy.opted_out_since("a.md", indexed)
    assert not policy.opted_out_since("missing.md", indexed)  # deleted is not excluded: the reconcile removes it


def test_an_edited_app_json_is_read_again_without_a_rebuild(vault: Path) -> None:
    policy = NotePolicy(VaultConfig(root=vault))
    assert policy.path_rule("Drafts/plan.md") is None
    write_app_json(vault, ["Archive/", "/secret/", "Drafts/"])
    assert policy.path_rule("Drafts/plan.md") == Exclusion.obsidian("Drafts/")
    (vault / ".obsidian" / "app.json").unlink()
    assert policy.path_rule("Archive/old.md") is None


def test_a_config_folder_that_appears_is_read(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    policy = NotePolicy(VaultConfig(root=root))
    assert policy.path_rule("Archive/old.md") is None
    write_app_json(root, ["Archive/"], config_dir=".phone-config")  # the vault folder's mtime moves
    assert policy.path_rule("Archive/old.md") == Exclusion.obsidian("Archive/")
    assert policy.path_rule(".phone-config/app.json") == Exclusion.hidden(
        "inside the Obsidian config folder .phone-config"
    )


def test_a_source_folders_app_json_is_read_again(vault: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_app_json(docs, [])
    policy = NotePolicy(VaultConfig(root=vault, sources=(SourceConfig(label="Docs", root=docs),)))
    assert policy.path_rule("Docs:Old/guide.md") is None
    write_app_json(docs, ["Old/"])
    assert policy.path_rule("Docs:Old/guide.md") == Exclusion.obsidian("Old/")


def test_rebuild_reads_an_edit_the_file_stamp_cannot_see(vault: Path) -> None:
    app_json = vault / ".obsidian" / "app.json"
    before = os.stat(app_json)
    policy = NotePolicy(VaultConfig(root=vault))
    # Same size, same mtime (a coarse clock): the stamp cannot tell, so the indexer's runs rebuild anyway.
    app_json.write_text(json.dumps({"userIgnoreFilters": ["Drafts/", "/secrets/"]}), encoding="utf-8")
    assert os.stat(app_json).st_size == before.st_size
    os.utime(app_json, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert policy.path_rule("Drafts/plan.md") is None
    policy.rebuild()
    assert policy.path_rule("Drafts/plan.md") == Exclusion.obsidian("Drafts/")


def test_an_unreadable_app_json_excludes_nothing_and_is_reported(vault: Path) -> None:
    (vault / ".obsidian" / "app.json").write_text("{not json", encoding="utf-8")
    policy = NotePolicy(VaultConfig(root=vault))
    assert policy.path_rule("Archive/old.md") is None
    problems = policy.roots.vault.filter.problems
    assert [p.path for p in problems] == [".obsidian/app.json"]
    assert problems[0].reason.startswith("could not read Obsidian's Excluded files setting")
