"""`NoteSections`: finding a section by heading, and refusing everything the index would not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.config import VaultConfig
from askvault.errors import AskVaultError, BadRequest, NoteError, NotFound
from askvault.mcp.sections import NoteSections, SectionText, vault_relative
from tests.mcp.vaults import CANARY, EXCLUDE_GLOB, VaultOnDisk, build_vault


@pytest.fixture
def vault(tmp_path: Path) -> VaultOnDisk:
    return build_vault(tmp_path)


def reader(vault: VaultOnDisk, max_note_bytes: int = 4 * 1024 * 1024) -> NoteSections:
    return NoteSections(VaultConfig(root=vault.root, exclude_globs=(EXCLUDE_GLOB,), max_note_bytes=max_note_bytes))


@pytest.mark.parametrize(
    ("path", "heading", "trail", "lines", "first_line"),
    [
        ("Homelab/Postgres.md", "Port", ("Postgres", "Port"), (10, 17), "Port"),
        ("Homelab/Postgres.md", "port", ("Postgres", "Port"), (10, 17), "Port"),
        ("Homelab/Postgres.md", "  postgres ›   PORT ", ("Postgres", "Port"), (10, 17), "Port"),
        ("Homelab/Postgres.md", "## Port", ("Postgres", "Port"), (10, 17), "Port"),
        ("Homelab/Postgres.md", "Firewall", ("Postgres", "Port", "Firewall"), (15, 17), "Firewall"),
        ("Homelab/Postgres.md", "Postgres", ("Postgres",), (6, 22), "Postgres"),
        ("Homelab/Postgres.md", "", (), (4, 4), "The database box in the rack, set up in spring."),
        ("Homelab/Postgres", "Backups", ("Postgres", "Backups"), (19, 22), "Backups"),
        ("./Homelab//Postgres.md", "backups", ("Postgres", "Backups"), (19, 22), "Backups"),
        ("Projects/Log.md", "Beta › Notes", ("Beta", "Notes"), (9, 11), "Notes"),
    ],
    ids=[
        "own-heading",
        "case-insensitive",
        "full-trail-loose-spacing",
        "markdown-heading-marks",
        "deepest-heading",
        "top-heading-takes-subsections",
        "empty-heading-is-text-before-first-heading",
        "path-without-md",
        "dot-and-double-slash",
        "full-trail-disambiguates",
    ],
)
def test_finds_the_section(
    vault: VaultOnDisk, path: str, heading: str, trail: tuple[str, ...], lines: tuple[int, int], first_line: str
) -> None:
    found = reader(vault).read(path, heading)
    assert found.heading_path == trail
    assert (found.start_line, found.end_line) == lines
    assert found.text.split("\n")[0] == first_line


def test_section_text_keeps_one_line_per_source_line(vault: VaultOnDisk) -> None:
    found: SectionText = reader(vault).read("Homelab/Postgres.md", "Port")
    source = (vault.root / "Homelab/Postgres.md").read_text(encoding="utf-8").split("\n")
    text = found.text.split("\n")
    assert len(text) == found.end_line - found.start_line + 1
    for number, line in enumerate(text, start=found.start_line):
        # Prose lines read as in the file; the heading line loses its `##`.
        assert line == source[number - 1].lstrip("# ")
    assert "5433" in found.text
    assert "Backups" not in found.text


@pytest.mark.parametrize(
    ("path", "heading", "error", "words"),
    [
        ("../outside.md", "Outside", BadRequest, "leaves the vault"),
        ("Homelab/../../outside.md", "Outside", BadRequest, "leaves the vault"),
        ("OUTSIDE", "Outside", BadRequest, "absolute path"),
        ("~/outside.md", "Outside", BadRequest, "absolute path"),
        ("C:/outside.md", "Outside", BadRequest, "absolute path"),
        ("Homelab\\Postgres.md", "Port", BadRequest, "forward slashes"),
        ("Homelab/Escape.md", "Outside", BadRequest, "outside the vault"),
        ("Private/Diary.md", "Diary", BadRequest, "excluded from Ask Vault"),
        ("Homelab/DiaryLink.md", "Diary", BadRequest, "excluded from Ask Vault (it links to Private/Diary.md)"),
        ("Archive/Old.md", "Old", BadRequest, "exclude glob"),
        ("Homelab/Secrets.md", "Secrets", BadRequest, "opted out"),
        (".obsidian/app.json", "x", BadRequest, "not a Markdown note"),
        (".trash/Gone.md", "x", BadRequest, "excluded from Ask Vault"),
        ("Homelab/readme.txt", "x", BadRequest, "not a Markdown note"),
        ("Homelab/Missing.md", "x", NotFound, "there is no note at Homelab/Missing.md"),
        ("Homelab", "x", BadRequest, "not a Markdown note"),
        ("", "x", BadRequest, "path must not be empty"),
        ("a\x00b.md", "x", BadRequest, "not a usable note path"),
        ("Homelab/Postgres.md", "Replication", NotFound, "no heading 'Replication' in Homelab/Postgres.md"),
        ("Homelab/Postgres.md", "Replication", NotFound, "Postgres › Port › Firewall; Postgres › Backups"),
        ("Projects/Log.md", "notes", BadRequest, "ambiguous in Projects/Log.md; give the full trail, one of: "),
        ("Projects/Log.md", "Alpha ›", BadRequest, "empty part"),
        ("Projects/Log.md", "", NotFound, "no text before its first heading"),
    ],
    ids=[
        "dot-dot",
        "dot-dot-inside",
        "absolute",
        "home",
        "drive-letter",
        "backslashes",
        "symlink-out",
        "obsidian-excluded-files",
        "symlink-to-excluded",
        "exclude-glob",
        "frontmatter-opt-out",
        "config-folder",
        "trash",
        "not-markdown",
        "missing",
        "folder",
        "empty-path",
        "nul",
        "unknown-heading",
        "unknown-heading-lists-headings",
        "ambiguous-heading",
        "empty-trail-part",
        "no-preamble",
    ],
)
def test_refuses_with_a_readable_error(
    vault: VaultOnDisk, path: str, heading: str, error: type[AskVaultError], words: str
) -> None:
    if path == "OUTSIDE":
        path = str(vault.outside)
    with pytest.raises(error) as caught:
        reader(vault).read(path, heading)
    assert words in caught.value.message
    assert CANARY not in caught.value.message


def test_refuses_notes_over_the_size_cap(vault: VaultOnDisk) -> None:
    with pytest.raises(NoteError, match=r"is skipped: too large \(644 bytes; the limit is 64 bytes\)"):
        reader(vault, max_note_bytes=64).read("Homelab/Postgres.md", "Port")


def test_reads_app_json_afresh(vault: VaultOnDisk) -> None:
    sections = reader(vault)
    assert sections.read("Ideas/Gardening.md", "Gardening").heading_path == ("Gardening",)
    (vault.root / ".obsidian" / "app.json").write_text('{"userIgnoreFilters": ["Ideas/"]}', encoding="utf-8")
    with pytest.raises(BadRequest, match="excluded"):
        sections.read("Ideas/Gardening.md", "Gardening")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("Homelab/Postgres.md", "Homelab/Postgres.md"), (" ./a//b.md ", "a/b.md"), ("a/./b.md", "a/b.md")],
    ids=["plain", "dots-and-slashes", "inner-dot"],
)
def test_vault_relative_cleans_paths(raw: str, expected: str) -> None:
    assert vault_relative(raw) == expected


def test_serves_what_the_indexer_would_keep(vault: VaultOnDisk) -> None:
    note = (
        "# Router\n\n## Access\n\nadmin password: Tr0ub4dor&3xyzzy\n\n## Private\n\nThe spare key is under the mat.\n"
    )
    (vault.root / "Homelab" / "Router.md").write_text(note, encoding="utf-8")
    config = VaultConfig(root=vault.root, exclude_headings=("private",))
    section = NoteSections(config).read("Homelab/Router.md", "Router")
    assert "[redacted: password]" in section.text
    assert "Tr0ub4dor" not in section.text
    # The excluded subsection is gone (its lines stay blank) and cannot be asked for by name.
    assert "spare key" not in section.text
    assert len(section.text.split("\n")) <= section.end_line - section.start_line + 1
    with pytest.raises(NotFound) as caught:
        NoteSections(config).read("Homelab/Router.md", "Private")
    assert "Router › Private" not in caught.value.message


def test_include_globs_keep_other_notes_out(vault: VaultOnDisk) -> None:
    sections = NoteSections(VaultConfig(root=vault.root, include_globs=("Homelab/**",)))
    assert sections.read("Homelab/Kodi.md", "Kodi").heading_path == ("Kodi",)
    with pytest.raises(BadRequest, match="not matched by the include globs"):
        sections.read("Ideas/Gardening.md", "Gardening")
