"""Folders beside the vault from `--source LABEL=PATH`, `ASKVAULT_SOURCES` or `[[sources]]` tables, validated."""

from __future__ import annotations

import re
from pathlib import Path

from askvault.config.slices import SourceConfig
from askvault.errors import ConfigError

_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{1,39}")
"""Two characters at least: `D:notes.md` would read as a Windows drive letter wherever a path is checked."""
_TABLE_KEYS = ("label", "path", "include", "exclude")

Entry = tuple[str, str, tuple[str, ...], tuple[str, ...], str]
"""label, path as written, include globs, exclude globs, and where it was set (for the error)."""


def _globs(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(str(v) for v in value)
    raise ConfigError(f"{where}: expected a list of gitignore-style patterns")


def _entries(value: object, source: str) -> list[Entry]:
    """Each `LABEL=PATH` string (a flag, or a comma-separated variable) or `{label, path, include, exclude}` table."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise ConfigError(f"{source}: expected LABEL=PATH entries, or [[sources]] tables in the config file")
    entries: list[Entry] = []
    for item in items:
        if isinstance(item, str):
            label, sep, path = item.strip().partition("=")
            if not sep or not path.strip() or not label.strip():
                raise ConfigError(f"{source}: {item.strip()!r} is not LABEL=PATH, e.g. Docs=/home/me/Nextcloud/Docs")
            entries.append((label.strip(), path.strip(), (), (), f"{source} {label.strip()!r}"))
            continue
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("label"), str)
            or not isinstance(item.get("path"), str)
        ):
            raise ConfigError(f'{source}: each source needs a label and a path, e.g. label = "Docs", path = "~/Docs"')
        where = f"{source} {item['label']!r}"
        unknown = sorted(set(item) - set(_TABLE_KEYS))
        if unknown:
            raise ConfigError(f"{where}: unknown key {unknown[0]!r}; the keys are {', '.join(_TABLE_KEYS)}")
        include = _globs(item.get("include", []), f"{where} include")
        exclude = _globs(item.get("exclude", []), f"{where} exclude")
        entries.append((item["label"].strip(), item["path"].strip(), include, exclude, where))
    return entries


def _overlap(a: Path, b: Path) -> bool:
    return a == b or a in b.parents or b in a.parents


def load_sources(value: object, source: str, vault: Path, data_dir: Path) -> tuple[SourceConfig, ...]:
    """The folders beside the vault: each label unique and plain, each folder outside the vault, the index and the
    other sources (the vault's privacy rules: no index inside what is indexed, nothing indexed twice). A folder that
    does not exist now is accepted (an unmounted drive, a sync not yet done): the index run reports it."""
    found: list[SourceConfig] = []
    for label, raw_path, include, exclude, where in _entries(value, source):
        if not _LABEL.fullmatch(label):
            raise ConfigError(
                f"{where}: a label is 2-40 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit"
            )
        if any(s.label.casefold() == label.casefold() for s in found):
            raise ConfigError(f"{where}: two sources are labelled {label!r}; give each its own label")
        root = Path(raw_path).expanduser()
        if not root.is_absolute():
            raise ConfigError(f"{where}: {raw_path!r} is not an absolute path; write the folder's full path")
        root = root.resolve()
        for other, what in ((vault, "the vault"), (data_dir, "the index folder")):
            if _overlap(root, other):
                raise ConfigError(f"{where}: {root} overlaps {what} ({other}); name a folder outside it")
        for prior in found:
            if _overlap(root, prior.root):
                raise ConfigError(f"{where}: {root} overlaps the source {prior.label!r}; name each folder once")
        found.append(SourceConfig(label, root, include, exclude))
    return tuple(found)
