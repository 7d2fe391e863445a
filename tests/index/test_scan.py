"""The vault scanner on real folders: exclusions, size cap, symlinks, reading and decoding notes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from askvault.config import VaultConfig
from askvault.errors import NoteError, VaultError
from askvault.index.note_reader import read_note_bytes, read_note_text
from askvault.index.scan import NoteFile, Skipped, VaultFilter, scan_vault
from tests.conftest import VaultWriter


def write_app_json(root: Path, filters: list[str], folder: str = ".obsidian") -> None:
    (root / folder).mkdir(exist_ok=True)
    (root / folder / "app.json").write_text(json.dumps({"userIgnoreFilters": filters}), encoding="utf-8")


def paths(root: Path) -> list[str]:
    return [note.path for note in scan_vault(VaultConfig(root=root)).notes]


def test_lists_notes_with_size_and_mtime(make_vault: VaultWriter) -> None:
    root = make_vault({"b.md": "bee", "A/a.md": "# A\n", "A/B/deep.md": "x", "image.png": "png", "doc.txt": "t"})
    os.utime(root / "b.md", ns=(1_700_000_000_000_000_000, 1_700_000_000_123_456_789))
    result = scan_vault(VaultConfig(root=root))
    assert result.notes == [
        NoteFile("A/B/deep.md", 1, (root / "A/B/deep.md").stat().st_mtime_ns),
        NoteFile("A/a.md", 4, (root / "A/a.md").stat().st_mtime_ns),
        NoteFile("b.md", 3, 1_700_000_000_123_456_789),
    ]
    assert result.skipped == []


def test_dot_folders_and_files_are_skipped_silently(make_vault: VaultWriter) -> None:
    root = make_vault(
        {
            "note.md": "x",
            ".obsidian/workspace.md": "x",
            ".trash/deleted.md": "x",
            ".git/info.md": "x",
            "Sub/.hidden/inner.md": "x",
            ".dotnote.md": "x",
            "Sub/ok.md": "x",
        }
    )
    result = scan_vault(VaultConfig(root=root))
    assert [n.path for n in result.notes] == ["Sub/ok.md", "note.md"]
    assert result.skipped == []


def test_obsidian_excluded_files(make_vault: VaultWriter) -> None:
    root = make_vault(
        {
            "Archive/old.md": "x",
            "Archive/Deeper/older.md": "x",
            "Drafts.md": "x",
            "Drafts/one.md": "x",
            "Drafts2/two.md": "x",
            "Notes/my secret plan.md": "x",
            "Notes/keep.md": "x",
            "Keep.md": "x",
        }
    )
    write_app_json(root, ["Archive/", "Drafts", "/secret/", "/[unclosed/"])
    result = scan_vault(VaultConfig(root=root))
    assert [n.path for n in result.notes] == ["Keep.md", "Notes/keep.md"]
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons["Archive/"] == "Obsidian Excluded files: 'Archive/'"
    assert "Archive/old.md" not in reasons  # the folder is reported once, not walked
    assert reasons["Drafts.md"] == reasons["Drafts/"] == reasons["Drafts2/"] == "Obsidian Excluded files: 'Drafts'"
    assert reasons["Notes/my secret plan.md"] == "Obsidian Excluded files: '/secret/'"
    assert "is not a valid regex" in reasons[".obsidian/app.json"]


def test_other_config_folder_is_read(make_vault: VaultWriter) -> None:
    root = make_vault({"a.md": "x", "Private/b.md": "x", ".phone-config/plugins.md": "x"})
    (root / ".obsidian").rmdir()
    write_app_json(root, ["Private/"], folder=".phone-config")
    vault_filter = VaultFilter(VaultConfig(root=root))
    assert vault_filter.config_dir == ".phone-config"
    assert paths(root) == ["a.md"]
    assert vault_filter.excluded(".phone-config/app.json") == "inside the Obsidian config folder .phone-config"


@pytest.mark.parametrize(
    "content",
    ["{not json", '["a list"]', '{"userIgnoreFilters": "Archive/"}', '{"userIgnoreFilters": [1, null, ""]}'],
    ids=["invalid-json", "not-an-object", "not-a-list", "odd-entries"],
)
def test_broken_app_json_never_stops_the_scan(make_vault: VaultWriter, content: str) -> None:
    root = make_vault({"a.md": "x", "Archive/b.md": "x"})
    (root / ".obsidian" / "app.json").write_text(content, encoding="utf-8")
    result = scan_vault(VaultConfig(root=root))
    assert [n.path for n in result.notes] == ["Archive/b.md", "a.md"]
    if content == "{not json":
        assert result.skipped[0].path == ".obsidian/app.json"


def test_exclude_globs(make_vault: VaultWriter) -> None:
    root = make_vault(
        {
            "Private/diary.md": "x",
            "Work/Private/notes.md": "x",
            "scratch.tmp.md": "x",
            "keep.tmp.md": "x",
            "Year/journal/2024.md": "x",
            "Year/plan.md": "x",
        }
    )
    globs = ("Private/", "*.tmp.md", "!keep.tmp.md", "**/journal/*.md")
    result = scan_vault(VaultConfig(root=root, exclude_globs=globs))
    assert [n.path for n in result.notes] == ["Year/plan.md", "keep.tmp.md"]
    assert {s.path: s.reason for s in result.skipped} == {
        "Private/diary.md": "exclude glob 'Private/'",
        "Work/Private/notes.md": "exclude glob 'Private/'",
        "scratch.tmp.md": "exclude glob '*.tmp.md'",
        "Year/journal/2024.md": "exclude glob '**/journal/*.md'",
    }


def test_size_cap(make_vault: VaultWriter) -> None:
    root = make_vault({"small.md": "x" * 100, "big.md": "x" * 101})
    result = scan_vault(VaultConfig(root=root, max_note_bytes=100))
    assert [n.path for n in result.notes] == ["small.md"]
    assert result.skipped == [
        Skipped("big.md", "too large (101 bytes; the limit is 100 bytes); split it into smaller files to index it")
    ]


def test_symlinks(make_vault: VaultWriter, tmp_path: Path) -> None:
    root = make_vault({"Real/note.md": "x", "Real/Sub/deep.md": "y", "top.md": "z"})
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.md").write_text("secret", encoding="utf-8")
    (outside / "dir" / "more.md").write_text("more", encoding="utf-8")
    (root / "leak.md").symlink_to(outside / "secret.md")
    (root / "LeakDir").symlink_to(outside / "dir", target_is_directory=True)
    (root / "Alias").symlink_to(root / "Real", target_is_directory=True)
    (root / "again.md").symlink_to(root / "top.md")
    (root / "Real" / "Sub" / "loop").symlink_to(root / "Real", target_is_directory=True)
    (root / "dangling.md").symlink_to(root / "missing.md")
    result = scan_vault(VaultConfig(root=root))
    assert [n.path for n in result.notes] == ["Real/Sub/deep.md", "Real/note.md", "top.md"]
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons["leak.md"] == reasons["LeakDir"] == "symlink to outside the vault"
    assert reasons["again.md"] == "same file as top.md (via a symlink)"
    assert reasons["Alias/"] == "same folder as Real/ (via a symlink)"
    assert reasons["Real/Sub/loop/"] == "same folder as Real/ (via a symlink)"
    assert reasons["dangling.md"] == "symlink to a file that does not exist; fix or delete the link"
    assert not any("secret" in s.path or "more" in s.path for s in result.skipped)


def test_symlinked_folder_met_first_still_yields_the_real_path(make_vault: VaultWriter) -> None:
    root = make_vault({"Zeta/x.md": "x"})
    (root / "Alpha").symlink_to(root / "Zeta", target_is_directory=True)  # sorts before its target
    result = scan_vault(VaultConfig(root=root))
    assert [n.path for n in result.notes] == ["Zeta/x.md"]
    assert result.skipped == [Skipped("Alpha/", "same folder as Zeta/ (via a symlink)")]


def test_symlinks_cannot_bring_excluded_notes_back(make_vault: VaultWriter) -> None:
    root = make_vault({"Archive/old.md": "x", ".trash/gone.md": "x", "Private/p.md": "x", "ok.md": "x"})
    write_app_json(root, ["Archive/"])
    (root / "old-link.md").symlink_to(root / "Archive" / "old.md")
    (root / "trash-link.md").symlink_to(root / ".trash" / "gone.md")
    (root / "PrivateLink").symlink_to(root / "Private", target_is_directory=True)
    result = scan_vault(VaultConfig(root=root, exclude_globs=("Private/",)))
    assert [n.path for n in result.notes] == ["ok.md"]
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons["old-link.md"] == "symlink to Archive/old.md: Obsidian Excluded files: 'Archive/'"
    assert reasons["trash-link.md"] == "symlink to .trash/gone.md: in Obsidian's trash (.trash)"
    assert reasons["PrivateLink"] == "symlink to Private/: exclude glob 'Private/'"


def test_missing_vault_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(VaultError, match="does not exist"):
        scan_vault(VaultConfig(root=tmp_path / "nope"))


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("Notes/a.md", None),
        ("Notes/A.MD", None),
        ("Notes/a.txt", "not a Markdown note"),
        (".obsidian/app.json", "inside the Obsidian config folder .obsidian"),
        (".trash/old.md", "in Obsidian's trash (.trash)"),
        ("Notes/.hidden/x.md", "hidden (.hidden)"),
        (".x.md", "hidden (.x.md)"),
        ("Archive/x.md", "Obsidian Excluded files: 'Archive/'"),
        ("Archive/", "Obsidian Excluded files: 'Archive/'"),
        ("Notes/", None),
        ("Notes/secret.md", "Obsidian Excluded files: '/secret/'"),
        ("Private/a.md", "exclude glob 'Private/'"),
    ],
    ids=[
        "note",
        "upper-ext",
        "not-markdown",
        "config",
        "trash",
        "hidden-folder",
        "dot-file",
        "prefix",
        "folder-prefix",
        "folder",
        "regex",
        "glob",
    ],
)
def test_filter_single_paths(make_vault: VaultWriter, path: str, reason: str | None) -> None:
    root = make_vault({})
    write_app_json(root, ["Archive/", "/secret/"])
    vault_filter = VaultFilter(VaultConfig(root=root, exclude_globs=("Private/",)))
    assert vault_filter.excluded(path) == reason


def test_note_file_stat(make_vault: VaultWriter, tmp_path: Path) -> None:
    root = make_vault({"a.md": "abc", "Dir/b.md": "x"})
    (tmp_path / "out.md").write_text("x", encoding="utf-8")
    (root / "out.md").symlink_to(tmp_path / "out.md")
    stat = NoteFile.stat(root, "a.md")
    assert stat is not None
    assert (stat.path, stat.size) == ("a.md", 3)
    assert NoteFile.stat(root, "missing.md") is None
    assert NoteFile.stat(root, "Dir") is None
    assert NoteFile.stat(root, "out.md") is None
    assert NoteFile.stat(root, "../out.md") is None


def test_read_note_text(make_vault: VaultWriter, tmp_path: Path) -> None:
    root = make_vault({})
    (root / "win.md").write_bytes(b"\xef\xbb\xbf# Title\r\nline\r\n")
    (root / "bin.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "latin.md").write_bytes(b"caf\xe9")
    (tmp_path / "secret.md").write_text("secret", encoding="utf-8")
    (root / "leak.md").symlink_to(tmp_path / "secret.md")
    assert read_note_text(root, "win.md") == "# Title\nline\n"
    assert read_note_bytes(root, "win.md").startswith(b"\xef\xbb\xbf")
    with pytest.raises(NoteError, match="NUL byte at byte 8"):
        read_note_text(root, "bin.md")
    with pytest.raises(NoteError, match="not valid UTF-8 at byte 3"):
        read_note_text(root, "latin.md")
    with pytest.raises(NoteError, match="outside the vault"):
        read_note_text(root, "leak.md")
    with pytest.raises(NoteError, match="outside the vault"):
        read_note_bytes(root, "../secret.md")
    with pytest.raises(NoteError, match=r"cannot read missing\.md"):
        read_note_text(root, "missing.md")
