"""One version in manifest.json, versions.json, package.json, its lock and askvault; the bump; the manifest rules."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scripts.release import check, dump_json, load_json, manifest_problems, source_problems, version_problems

import askvault
from tests.release.tree import ROOT, VERSION_FILES, version_tree

MANIFEST = load_json(ROOT / "manifest.json")


def release(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scripts.release", "--root", str(root), *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_this_checkout_has_one_version_everywhere_and_a_valid_manifest() -> None:
    assert check(ROOT) == []
    assert MANIFEST["version"] == askvault.__version__
    assert load_json(ROOT / "versions.json")[askvault.__version__] == MANIFEST["minAppVersion"]


@pytest.mark.parametrize(
    ("file", "pattern", "replacement", "complaint"),
    [
        ("plugin/package.json", r'"version": "[^"]+"', '"version": "9.9.9"', "plugin/package.json says '9.9.9'"),
        (
            "plugin/package-lock.json",
            r'("packages": \{\s+"": \{\s+"name": "ask-vault",\s+)"version": "[^"]+"',
            r'\1"version": "9.9.9"',
            "plugin/package-lock.json (packages → root → version) says '9.9.9'",
        ),
        ("backend/askvault/__init__.py", r'__version__ = "[^"]+"', '__version__ = "9.9.9"', "__init__.py says '9.9.9'"),
        ("versions.json", r'"[^"]+": "[^"]+"', '"0.0.1": "1.0.0"', "versions.json lacks"),
        ("versions.json", r"\n}", ',\n  "1.0": "1.0.0"\n}', "versions.json: '1.0' is not x.y.z"),
    ],
    ids=["package-json", "package-lock", "python", "versions-json-entry", "versions-json-key"],
)
def test_a_place_that_disagrees_is_named(
    tmp_path: Path, file: str, pattern: str, replacement: str, complaint: str
) -> None:
    root = version_tree(tmp_path)
    text = (root / file).read_text(encoding="utf-8")
    (root / file).write_text(re.sub(pattern, replacement, text, count=1), encoding="utf-8")

    found = version_problems(root)

    assert any(complaint in line for line in found), found
    assert release(root, "check").returncode == 1


def test_bump_writes_every_place_like_obsidians_version_bump(tmp_path: Path) -> None:
    root = version_tree(tmp_path)
    before = {name: (root / name).read_text(encoding="utf-8").splitlines() for name in VERSION_FILES}

    result = release(root, "bump", "0.2.0")

    assert result.returncode == 0, result.stderr
    assert check(root) == []
    assert load_json(root / "versions.json") == {
        **load_json(ROOT / "versions.json"),
        "0.2.0": MANIFEST["minAppVersion"],
    }
    # Only the lines holding the version change; versions.json gains a line (and a comma on the one before).
    for name, lines in before.items():
        after = (root / name).read_text(encoding="utf-8").splitlines()
        removed, added = set(lines) - set(after), set(after) - set(lines)
        assert all(f"{line}," in added or askvault.__version__ in line for line in removed), (name, removed)
        assert all("0.2.0" in line or line.rstrip(",") in removed for line in added), (name, added)
    assert release(root, "check", "--tag", "0.2.0").returncode == 0


@pytest.mark.parametrize("version", ["v0.2.0", "0.2", "0.2.0-beta.1"], ids=["v-prefix", "two-parts", "pre-release"])
def test_bump_refuses_what_obsidian_would_not_take(tmp_path: Path, version: str) -> None:
    root = version_tree(tmp_path)
    before = {name: (root / name).read_bytes() for name in VERSION_FILES}

    result = release(root, "bump", version)

    assert result.returncode == 1
    assert "is not x.y.z" in result.stderr
    assert {name: (root / name).read_bytes() for name in VERSION_FILES} == before


@pytest.mark.parametrize(
    ("tag", "ok"),
    [(str(MANIFEST["version"]), True), (f"v{MANIFEST['version']}", False), ("99.0.0", False)],
    ids=["the-version", "v-prefix", "another-version"],
)
def test_a_release_tag_must_be_the_manifest_version(tag: str, ok: bool) -> None:
    result = release(ROOT, "check", "--tag", tag)

    assert (result.returncode == 0) is ok, result.stderr
    assert ok or "is not the manifest version" in result.stderr


@pytest.mark.parametrize("name", ["manifest.json", "versions.json", "plugin/package.json", "plugin/package-lock.json"])
def test_json_files_keep_their_layout_through_a_bump(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    assert dump_json(json.loads(text)) == text


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({}, None),
        ({"id": "obsidian-ask-vault"}, "id: must not contain 'obsidian'"),
        ({"id": "Ask_Vault"}, "id: lowercase letters"),
        ({"id": "ask-vault-plugin"}, "or end with 'plugin'"),
        ({"name": "Ask Vault for Obsidian"}, "name: must not contain 'Obsidian'"),
        ({"name": "Ask Vault Plugin"}, "or end with 'Plugin'"),
        ({"description": "Ask questions of your vault"}, "ending with a period"),
        ({"description": ("Ask. " * 60).strip()}, "at most 250 characters"),
        ({"description": "This plugin answers questions."}, "not 'This plugin"),
        ({"version": "v0.1.0"}, "version: x.y.z"),
        ({"minAppVersion": "1.7"}, "minAppVersion: x.y.z"),
        ({"author": ""}, "author: required"),
        ({"isDesktopOnly": "no"}, "isDesktopOnly: true or false"),
    ],
    ids=[
        "valid",
        "id-obsidian",
        "id-case",
        "id-plugin",
        "name-obsidian",
        "name-plugin",
        "description-period",
        "description-long",
        "description-this-plugin",
        "version",
        "min-app-version",
        "author",
        "desktop-only",
    ],
)
def test_manifest_rules(change: dict[str, object], complaint: str | None) -> None:
    found = manifest_problems({**MANIFEST, **change})

    if complaint is None:
        assert found == []
    else:
        assert len(found) == 1
        assert complaint in found[0]


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("el.innerHTML = html;", True),
        ("el.insertAdjacentHTML('beforeend', html);", True),
        ("this.addCommand({ id: 'ask', hotkeys: [{ modifiers: ['Mod'], key: 'k' }] });", True),
        ("el.createEl('code', { text: INSTALL_COMMAND });", False),
        ("// no default hotkeys, no innerHTML", True),
    ],
    ids=["inner-html", "insert-adjacent-html", "default-hotkey", "create-el", "even-in-a-comment"],
)
def test_plugin_sources_hold_no_html_strings_or_default_hotkeys(tmp_path: Path, line: str, flagged: bool) -> None:
    (tmp_path / "plugin/src/ui").mkdir(parents=True)
    (tmp_path / "plugin/src/ui/view.ts").write_text(f"// A view.\n{line}\n", encoding="utf-8")

    assert source_problems(tmp_path) == ([f"plugin/src/ui/view.ts:2: {line}"] if flagged else [])
