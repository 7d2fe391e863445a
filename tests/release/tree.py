"""Copies of this checkout's release-relevant files in a temporary folder, for tests that build or rewrite them."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERSION_FILES = (
    "manifest.json",
    "versions.json",
    "plugin/package.json",
    "plugin/package-lock.json",
    "backend/askvault/__init__.py",
)
PLUGIN_BUILD = ("plugin/dist/main.js", "plugin/styles.css", "plugin/package.json")
BUNDLED = ("manifest.json", "main.js", "styles.css")


def copy_files(dest: Path, names: tuple[str, ...]) -> None:
    for name in names:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, dest / name)


def version_tree(dest: Path) -> Path:
    """The five files that carry the version, at their places under `dest`."""
    copy_files(dest, VERSION_FILES)
    return dest


def _skip_build_output(folder: str, names: list[str]) -> set[str]:
    skipped = {n for n in names if n == "__pycache__" or n.endswith((".pyc", ".egg-info")) or n == "build"}
    return skipped | ({n for n in names if n in BUNDLED} if folder.endswith("plugin_bundle") else set())


def source_tree(dest: Path) -> Path:
    """A checkout as `make wheel` sees it: the backend's sources and the plugin's build, without any bundle."""
    missing = [name for name in PLUGIN_BUILD if not (ROOT / name).is_file()]
    assert not missing, f"build the plugin first (`make setup`): {missing} not found"
    version_tree(dest)
    copy_files(dest, PLUGIN_BUILD)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copyfile(ROOT / "backend" / name, dest / "backend" / name)
    shutil.copytree(
        ROOT / "backend" / "askvault", dest / "backend" / "askvault", ignore=_skip_build_output, dirs_exist_ok=True
    )
    return dest
