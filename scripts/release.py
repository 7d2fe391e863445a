"""`python -m scripts.release check|bump|bundle`: one version across plugin and sidecar, Obsidian's manifest rules."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from askvault.plugin_bundle import checkout_files, problems

ROOT = Path(__file__).resolve().parents[1]
SEMVER = re.compile(r"^\d+\.\d+\.\d+$")
PY_VERSION = re.compile(r'^__version__ = "([^"]*)"$', re.MULTILINE)
PY_INIT = Path("backend/askvault/__init__.py")
BUNDLE = Path("backend/askvault/plugin_bundle")
# Each JSON file that carries the version, and the keys that lead to it (the lock holds the root package twice).
JSON_VERSIONS: dict[Path, tuple[tuple[str, ...], ...]] = {
    Path("manifest.json"): (("version",),),
    Path("plugin/package.json"): (("version",),),
    Path("plugin/package-lock.json"): (("version",), ("packages", "", "version")),
}
DESCRIPTION_MAX = 250
# Obsidian's guidelines: no HTML strings into the DOM, no default hotkeys.
FORBIDDEN_IN_SOURCE = re.compile(r"\b(innerHTML|outerHTML|insertAdjacentHTML|hotkeys\s*:)")


def load_json(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object")
    return data


def dump_json(data: Mapping[str, object]) -> str:
    # The layout npm and Obsidian's sample plugin write (JSON.stringify with 2 spaces), so a bump changes only versions.
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _dig(data: Mapping[str, object], keys: Sequence[str]) -> object:
    value: object = data
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def found_versions(root: Path) -> dict[str, object]:
    """Every place a version is written, by "file" or "file:key.path", with what it holds (None when absent)."""
    out: dict[str, object] = {}
    for rel, paths in JSON_VERSIONS.items():
        data = load_json(root / rel)
        for keys in paths:
            label = str(rel) if len(keys) == 1 else f"{rel} ({' → '.join(k or 'root' for k in keys)})"
            out[label] = _dig(data, keys)
    out[str(PY_INIT)] = python_version(root)
    return out


def python_version(root: Path) -> str | None:
    """askvault.__version__ as written in the source (setuptools reads the same line for the wheel's metadata)."""
    match = PY_VERSION.search((root / PY_INIT).read_text(encoding="utf-8"))
    return match.group(1) if match else None


def version_problems(root: Path) -> list[str]:
    """Why the version is not the same everywhere (versions.json included); [] when it is."""
    manifest = load_json(root / "manifest.json")
    version = manifest.get("version")
    out = [
        f"{where} says {value!r}, manifest.json says {version!r}"
        for where, value in found_versions(root).items()
        if value != version
    ]
    versions = load_json(root / "versions.json")
    if not isinstance(version, str) or versions.get(version) != manifest.get("minAppVersion"):
        out.append(f"versions.json lacks {version!r}: {manifest.get('minAppVersion')!r} (the manifest's minAppVersion)")
    out += [f"versions.json: {key!r} is not x.y.z" for key in versions if not SEMVER.match(key)]
    return out


def manifest_problems(manifest: Mapping[str, object]) -> list[str]:
    """Obsidian's submission rules for manifest.json that a file can show; [] when all hold."""
    out: list[str] = []
    plugin_id, name, description = manifest.get("id"), manifest.get("name"), manifest.get("description")
    if not isinstance(plugin_id, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", plugin_id):
        out.append("id: lowercase letters, digits and single hyphens")
    elif "obsidian" in plugin_id or plugin_id.endswith("plugin"):
        out.append("id: must not contain 'obsidian' or end with 'plugin'")
    if not isinstance(name, str) or name.strip() == "":
        out.append("name: required")
    elif "obsidian" in name.lower() or name.lower().endswith("plugin"):
        out.append("name: must not contain 'Obsidian' or end with 'Plugin'")
    if not isinstance(description, str) or not description.endswith("."):
        out.append("description: a sentence ending with a period")
    elif len(description) > DESCRIPTION_MAX or "obsidian" in description.lower():
        out.append(f"description: at most {DESCRIPTION_MAX} characters, without 'Obsidian'")
    elif description.lower().startswith(("this plugin", "this is a plugin")):
        out.append("description: say what it does, not 'This plugin…'")
    for key in ("version", "minAppVersion"):
        if not isinstance(manifest.get(key), str) or not SEMVER.match(str(manifest.get(key))):
            out.append(f"{key}: x.y.z")
    if not isinstance(manifest.get("author"), str) or str(manifest.get("author")).strip() == "":
        out.append("author: required")
    # false: the plugin runs on Obsidian mobile against a remote sidecar; its Node-only code (spawning the sidecar,
    # reading discovery files) is reached only behind Platform.isDesktopApp, which plugin/e2e/mobile.e2e.test.mjs
    # proves by booting the bundle with no Node module.
    if not isinstance(manifest.get("isDesktopOnly"), bool):
        out.append("isDesktopOnly: true or false")
    return out


def source_problems(root: Path) -> list[str]:
    """Lines of plugin/src that break a guideline a file can show (HTML strings, default hotkeys)."""
    out: list[str] = []
    for path in sorted((root / "plugin" / "src").rglob("*.ts")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if FORBIDDEN_IN_SOURCE.search(line):
                out.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return out


def tag_problems(root: Path, tag: str) -> list[str]:
    version = load_json(root / "manifest.json").get("version")
    return [] if tag == version else [f"tag {tag!r} is not the manifest version {version!r} (no 'v' prefix)"]


def check(root: Path, tag: str | None = None) -> list[str]:
    out = version_problems(root) + [f"manifest.json {p}" for p in manifest_problems(load_json(root / "manifest.json"))]
    out += source_problems(root)
    return out + (tag_problems(root, tag) if tag is not None else [])


def bump(root: Path, version: str) -> list[Path]:
    """Writes `version` everywhere, like Obsidian's version-bump.mjs (versions.json maps it to minAppVersion)."""
    if not SEMVER.match(version):
        raise ValueError(f"{version!r} is not x.y.z (Obsidian needs plain semantic versions)")
    for rel, paths in JSON_VERSIONS.items():
        data = load_json(root / rel)
        for keys in paths:
            parent = _dig(data, keys[:-1])
            if isinstance(parent, dict):
                parent[keys[-1]] = version
        (root / rel).write_text(dump_json(data), encoding="utf-8")
    versions = load_json(root / "versions.json")
    versions[version] = load_json(root / "manifest.json")["minAppVersion"]
    (root / "versions.json").write_text(dump_json(versions), encoding="utf-8")
    init = root / PY_INIT
    init.write_text(PY_VERSION.sub(f'__version__ = "{version}"', init.read_text(encoding="utf-8")), encoding="utf-8")
    return [root / rel for rel in (*JSON_VERSIONS, Path("versions.json"), PY_INIT)]


def bundle(root: Path) -> Path:
    """Copies the checkout's built plugin into the package, refusing one at another version than the package."""
    files = checkout_files(root)
    found = problems(files, python_version(root))
    if found:
        raise ValueError("; ".join(found) + " (build it with `make setup`; align versions with `make version-bump`)")
    target = root / BUNDLE
    for name, path in files.items():
        shutil.copyfile(path, target / name)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.release", description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository root (default: this checkout)")
    commands = parser.add_subparsers(dest="command", required=True)
    check_cmd = commands.add_parser("check", help="versions agree, versions.json and manifest.json follow the rules")
    check_cmd.add_argument("--tag", help="a release tag, which must equal the manifest version")
    commands.add_parser("bump", help="set one version everywhere").add_argument("version")
    commands.add_parser("bundle", help="copy the built plugin into backend/askvault/plugin_bundle/")
    args = parser.parse_args(argv)
    root: Path = args.root
    try:
        if args.command == "check":
            found = check(root, args.tag)
            for line in found:
                print(f"release check: {line}", file=sys.stderr)
            if found:
                return 1
            print(f"release check: {load_json(root / 'manifest.json')['version']} everywhere; manifest.json is valid")
        elif args.command == "bump":
            changed = bump(root, args.version)
            print(f"Set {args.version} in {', '.join(str(p.relative_to(root)) for p in changed)}")
        else:
            print(f"Bundled the plugin into {bundle(root).relative_to(root)}/")
    except ValueError as e:
        print(f"release {args.command}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
