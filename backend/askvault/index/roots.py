"""The vault and the folders beside it as one namespace: `Docs:guide/setup.md` is `guide/setup.md` of source `Docs`.

Each folder keeps its own rules (its include and exclude globs, an Obsidian config folder of its own if it is a vault
too, hidden folders, symlinks that stay inside it) and the vault's size caps and file types, plus plain `.txt` files.
A path without a configured label is the vault's. A folder that cannot be read is reported and its notes are kept:
an unmounted drive or a sync client mid-way must not empty the index, as for the vault itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from askvault.config import SOURCE_SEPARATOR, SourceConfig, VaultConfig
from askvault.errors import NoteError, VaultError
from askvault.index.exclusion import GONE_SOURCE
from askvault.index.note_reader import read_note_bytes, real_note_path
from askvault.index.report import Problem
from askvault.index.scan import NoteFile, ScanResult, Skipped, VaultFilter, scan_vault

__all__ = [
    "GONE_SOURCE",
    "Departures",
    "Root",
    "Roots",
    "RootsScan",
    "source_problem_path",
    "source_slice",
    "unreadable_source",
]


def source_slice(vault: VaultConfig, source: SourceConfig) -> VaultConfig:
    """A source's own rules: its folder and globs, the vault's caps and file types, `.txt` files too."""
    return dataclasses.replace(
        vault,
        root=source.root,
        include_globs=source.include_globs,
        exclude_globs=source.exclude_globs,
        texts=True,
        sources=(),
    )


@dataclass(frozen=True, slots=True)
class Root:
    """One indexed folder: the vault (`label` None, no prefix) or a source."""

    label: str | None
    prefix: str
    config: VaultConfig
    filter: VaultFilter = field(compare=False)

    @property
    def folder(self) -> Path:
        return self.config.root


@dataclass
class RootsScan:
    """Every folder's notes and skipped files under their full paths, and the labels of the folders not readable."""

    result: ScanResult = field(default_factory=ScanResult)
    unavailable: set[str] = field(default_factory=set)


@dataclass
class Departures:
    """The indexed notes a full scan did not find: `gone` leave the index, `missing` of them are files gone from a
    configured folder (the mass-delete guard counts those), `kept` are of a folder that could not be read now."""

    gone: list[str] = field(default_factory=list)
    missing: int = 0
    kept: set[str] = field(default_factory=set)


class Roots:
    """Where each indexed path lives, and the rules that apply to it. The note policy (`index.policy`) holds the
    current one and builds a new one when an app.json changes: the settings do not change while the sidecar
    runs, but Obsidian's Excluded files do."""

    def __init__(self, vault: VaultConfig) -> None:
        self.vault = Root(None, "", vault, VaultFilter(vault))
        self.sources = [
            Root(s.label, s.prefix, slice_, VaultFilter(slice_))
            for s in vault.sources
            for slice_ in [source_slice(vault, s)]
        ]
        self._by_label = {root.label: root for root in self.sources}

    def all(self) -> list[Root]:
        return [self.vault, *self.sources]

    def split(self, path: str) -> tuple[Root, str] | None:
        """The folder a path lives in and its path there; None for a path of a source no longer configured."""
        label, sep, rel = path.partition(SOURCE_SEPARATOR)
        if not sep or "/" in label:
            return self.vault, path
        root = self._by_label.get(label)
        if root is not None:
            return root, rel
        # Obsidian allows no `:` in a name, but a file made elsewhere may have one: it is the vault's if it is there.
        return (self.vault, path) if NoteFile.stat(self.vault.folder, path) is not None else None

    def is_gone_source(self, path: str) -> bool:
        """True for a stored path whose source is no longer configured."""
        return self.split(path) is None

    def stat(self, path: str) -> NoteFile | None:
        """The file behind a full path, under that path; None when it is gone (or its source is)."""
        found = self.split(path)
        if found is None:
            return None
        root, rel = found
        note_file = NoteFile.stat(root.folder, rel)
        return None if note_file is None else dataclasses.replace(note_file, path=path)

    def excluded(self, path: str) -> str | None:
        """Why this path is not indexed (its folder's rules), or None when it is a note to index."""
        found = self.split(path)
        if found is None:
            return GONE_SOURCE
        root, rel = found
        return root.filter.excluded(rel)

    def indexed_kind(self, path: str) -> bool:
        """True for a file of a kind its folder indexes (a `.txt` is one beside the vault, not in it)."""
        return self.kind_reason(path) is None

    def kind_reason(self, path: str) -> str | None:
        """Why its folder does not index a file of this kind (`VaultFilter.kind_reason`), or None when it does."""
        found = self.split(path)
        return GONE_SOURCE if found is None else found[0].filter.kind_reason(found[1])

    def lost(self, path: str) -> bool:
        """True for an indexed path whose file is gone from a folder still configured: what the mass-delete guards
        count. A source taken out of the settings is a choice, not a failed mount."""
        return self.stat(path) is None and not self.is_gone_source(path)

    def departures(self, stored: Iterable[str], scanned: RootsScan) -> Departures:
        """What a full scan means for the notes the index holds (`Departures`)."""
        on_disk = {n.path for n in scanned.result.notes}
        out = Departures()
        for path in stored:
            if path in on_disk:
                continue
            if self.in_unavailable(path, scanned.unavailable):
                out.kept.add(path)
            else:
                out.gone.append(path)
                # A note still on disk but now excluded (or too large) is a choice too: it goes, and is not counted.
                out.missing += self.lost(path)
        return out

    def size_limit(self, path: str) -> int:
        found = self.split(path)
        return found[0].filter.size_limit(found[1]) if found else self.vault.filter.size_limit(path)

    def real_path(self, path: str) -> str:
        """The file on disk; NoteError for one outside its folder, or of a source no longer configured."""
        root, rel = self._located(path)
        return real_note_path(root.folder, rel)

    def read_bytes(self, path: str) -> bytes:
        root, rel = self._located(path)
        return read_note_bytes(root.folder, rel)

    def _located(self, path: str) -> tuple[Root, str]:
        found = self.split(path)
        if found is None:
            raise NoteError(GONE_SOURCE)
        return found

    def scan(self) -> RootsScan:
        """Every folder scanned. The vault that cannot be read raises VaultError (the index stays as it was); a source
        that cannot be read is reported, and its notes are left alone."""
        out = RootsScan()
        for root in self.all():
            found = self._scan(root)
            if found is None:
                out.unavailable.add(str(root.label))
                out.result.skipped.append(
                    Skipped(source_problem_path(str(root.label)), unreadable_source(root), "failed")
                )
                continue
            out.result.notes.extend(dataclasses.replace(n, path=root.prefix + n.path) for n in found.notes)
            out.result.skipped.extend(dataclasses.replace(s, path=root.prefix + s.path) for s in found.skipped)
        out.result.notes.sort(key=lambda n: n.path)
        out.result.skipped.sort(key=lambda s: s.path)
        return out

    @staticmethod
    def _scan(root: Root) -> ScanResult | None:
        """The folder's scan; None for a source that is missing, not a folder, or cannot be listed (permissions, a
        share gone stale): its notes must stay. The vault's own failure raises, as it always did."""
        try:
            found = scan_vault(root.config, root.filter)
        except VaultError:
            if root.label is None:
                raise
            return None
        if root.label is not None and any(s.path == "/" and s.kind == "failed" for s in found.skipped):
            return None
        return found

    def dropped_sources(self, removed: Iterable[str]) -> list[Problem]:
        """One notice per source taken out of the settings whose notes this run removed: forgetting `--source` on one
        command must not pass in silence (its notes are embedded again when it comes back)."""
        counts: dict[str, int] = {}
        for path in removed:
            if self.is_gone_source(path):
                label = path.partition(SOURCE_SEPARATOR)[0]
                counts[label] = counts.get(label, 0) + 1
        return [
            Problem(
                source_problem_path(label),
                f"{count} note{'s' if count != 1 else ''} of the folder labelled {label!r} left the index because "
                f"it is no longer a source of this vault; name it again (--source {label}=PATH, or in the config "
                "file) to keep its notes",
            )
            for label, count in sorted(counts.items())
        ]

    def in_unavailable(self, path: str, labels: set[str]) -> bool:
        """True for a path of a source whose folder could not be read in this run (its notes are kept)."""
        found = self.split(path)
        return found is not None and found[0].label in labels


def source_problem_path(label: str) -> str:
    """Where a whole source's problem is filed, as `(vault)` is for the vault's."""
    return f"(source {label})"


def unreadable_source(root: Root) -> str:
    """One sentence for a source folder that is gone or unreadable."""
    return (
        f"the folder of source {root.label!r} ({root.folder}) is missing or cannot be read; its notes stay in the "
        "index until it is back, or remove the source from the settings"
    )
