"""The built Obsidian plugin the package carries (copied here by `make wheel`) and the checks on a plugin folder."""

# Standard library only: setup.py imports this module while the wheel is built, before any dependency exists.
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

PLUGIN_ID = "ask-vault"
FILE_NAMES = ("manifest.json", "main.js", "styles.css")
BUNDLE_DIR = Path(__file__).resolve().parent


def folder_files(folder: Path) -> dict[str, Path]:
    """The three files of a plugin folder laid out the way Obsidian loads it (a release, plugin/dist, this bundle)."""
    return {name: folder / name for name in FILE_NAMES}


def checkout_files(root: Path) -> dict[str, Path]:
    """The three files in a checkout: their sources of truth (the root manifest, the built main.js, the stylesheet)."""
    return {
        "manifest.json": root / "manifest.json",
        "main.js": root / "plugin" / "dist" / "main.js",
        "styles.css": root / "plugin" / "styles.css",
    }


def missing(files: Mapping[str, Path]) -> list[str]:
    return [name for name, path in files.items() if not path.is_file()]


def manifest_of(files: Mapping[str, Path]) -> dict[str, object]:
    """The parsed manifest.json; {} when it is absent or not a JSON object."""
    try:
        data = json.loads(files["manifest.json"].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def plugin_version(files: Mapping[str, Path]) -> str | None:
    version = manifest_of(files).get("version")
    return version if isinstance(version, str) else None


def problems(files: Mapping[str, Path], version: str | None = None) -> list[str]:
    """Why these files are not Ask Vault's plugin (at `version`, when given); [] when they are."""
    absent = missing(files)
    if absent:
        return [f"plugin file(s) not found: {', '.join(absent)}"]
    manifest = manifest_of(files)
    if manifest.get("id") != PLUGIN_ID:
        return [f"{files['manifest.json']} is not Ask Vault's manifest (id {manifest.get('id')!r})"]
    found = manifest.get("version")
    if version is not None and found != version:
        return [f"{files['manifest.json']} is version {found}, the package is {version}"]
    return []


def stale(bundle: Mapping[str, Path], current: Mapping[str, Path]) -> list[str]:
    """The names whose bundled copy differs byte for byte from the current build."""
    return [name for name in FILE_NAMES if bundle[name].read_bytes() != current[name].read_bytes()]
