"""Vault scanner: which files are notes to index, which are skipped and why, and reading a note safely.

Skipped without a word: anything that is not a note, PDF or canvas (`parse.documents`; PDFs and canvases unless
switched off), and anything inside a dot-folder or named with
a leading dot (the config folder, whatever it is called, `.trash`, `.git`…). Reported, each with its
`Skipped.kind`: notes matched by Obsidian's "Excluded files" or our exclude globs and second paths to a file
already seen (excluded), notes over the size limit and symlinks that lead out of the vault (skipped), files
and folders that cannot be read (failed). The frontmatter opt-out needs the note's text, so
the indexer asks the note policy after `parse_note` (`NotePolicy.opt_out_rule`). The reasons are worded in
`index.exclusion`; the note policy (`index.policy`) holds the current `VaultFilter` of each folder.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pathspec

from askvault.config import VaultConfig
from askvault.errors import VaultError
from askvault.index.exclusion import DANGLING, NOT_A_NOTE, Exclusion, hidden_reason, kind_switched_off
from askvault.index.note_reader import inside
from askvault.parse.documents import document_kind

DEFAULT_CONFIG_DIR = ".obsidian"

__all__ = [
    "DANGLING",
    "DEFAULT_CONFIG_DIR",
    "NOT_A_NOTE",
    "Exclusion",
    "NoteFile",
    "ScanResult",
    "Skipped",
    "VaultFilter",
]


@dataclass(frozen=True, slots=True)
class NoteFile:
    """A note on disk: vault-relative POSIX path, size in bytes, modification time in ns."""

    path: str
    size: int
    mtime_ns: int

    @classmethod
    def stat(cls, root: Path, rel: str) -> NoteFile | None:
        """Stat one note; None when it is gone, not a regular file, or resolves to outside the vault."""
        base = os.path.realpath(root)
        try:
            if not inside(base, os.path.realpath(os.path.join(base, rel))):
                return None
            info = os.stat(os.path.join(base, rel))
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        return cls(rel, info.st_size, info.st_mtime_ns)


SkipKind = Literal["excluded", "skipped", "failed"]


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str
    kind: SkipKind = field(default="skipped", compare=False)
    """`excluded` (a rule of the user's, or a second path to a note already seen: nothing to fix), `skipped`
    (deliberately left out: too large, a symlink out of the vault) or `failed` (could not be read); see
    `index.problems` for the vocabulary."""


@dataclass
class ScanResult:
    notes: list[NoteFile] = field(default_factory=list)
    """Sorted by path."""
    skipped: list[Skipped] = field(default_factory=list)


class VaultFilter:
    """Decides for one vault-relative path whether it stays out of the index (reads `app.json` once)."""

    def __init__(self, cfg: VaultConfig) -> None:
        self.root = cfg.root
        self.problems: list[Skipped] = []
        """Settings we could not honour (unreadable app.json, an invalid regex), for the scan report."""
        self.config_dir = self._find_config_dir()
        self.prefixes: list[str] = []
        self.regexes: list[tuple[str, re.Pattern[str]]] = []
        self._read_ignore_filters()
        self.globs = tuple(cfg.exclude_globs)
        self._spec = pathspec.GitIgnoreSpec.from_lines(self.globs)
        self.includes = tuple(cfg.include_globs)
        self._include = pathspec.GitIgnoreSpec.from_lines(self.includes)
        self._vault = cfg

    def _find_config_dir(self) -> str | None:
        # Obsidian can be told to use another dot-folder for its settings; fall back to any that has app.json.
        if (self.root / DEFAULT_CONFIG_DIR).is_dir():
            return DEFAULT_CONFIG_DIR
        try:
            names = sorted(entry.name for entry in os.scandir(self.root) if entry.name.startswith("."))
        except OSError:
            return None
        return next((name for name in names if (self.root / name / "app.json").is_file()), None)

    def _read_ignore_filters(self) -> None:
        if self.config_dir is None:
            return
        app_json = self.root / self.config_dir / "app.json"
        where = f"{self.config_dir}/app.json"
        try:
            settings = json.loads(app_json.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            self.problems.append(Skipped(where, f"could not read Obsidian's Excluded files setting: {exc}"))
            return
        filters = settings.get("userIgnoreFilters") if isinstance(settings, dict) else None
        for entry in filters if isinstance(filters, list) else []:
            if not isinstance(entry, str) or not entry:
                continue
            if len(entry) > 2 and entry.startswith("/") and entry.endswith("/"):
                try:
                    self.regexes.append((entry, re.compile(entry[1:-1])))
                except re.error as exc:
                    self.problems.append(Skipped(where, f"Excluded files entry {entry!r} is not a valid regex: {exc}"))
            else:
                self.prefixes.append(entry)

    def hidden(self, rel_path: str) -> str | None:
        """Reason when a path lies in a dot-folder or is a dot-file (no report: expected, and noisy)."""
        for part in rel_path.strip("/").split("/"):
            if part.startswith("."):
                return hidden_reason(part, self.config_dir)
        return None

    def user_excluded(self, rel_path: str) -> str | None:
        """Reason when Obsidian's Excluded files or our exclude globs cover the path, or include globs are set and
        miss it (folders end with `/`)."""
        rule = self.user_rule(rel_path)
        return None if rule is None else rule.reason

    def user_rule(self, rel_path: str) -> Exclusion | None:
        """`user_excluded` with the rule that decided it: `obsidian-excluded`, `exclude-glob` or `include-glob`."""
        for prefix in self.prefixes:
            if rel_path.startswith(prefix):
                return Exclusion.obsidian(prefix)
        for raw, regex in self.regexes:
            if regex.search(rel_path):
                return Exclusion.obsidian(raw)
        if self.globs and self._spec.match_file(rel_path):
            matching = [g for g in self.globs if pathspec.GitIgnoreSpec.from_lines([g]).match_file(rel_path)]
            return Exclusion.exclude_glob(matching[-1] if matching else None)
        if self.includes and not rel_path.endswith("/") and not self._include.match_file(rel_path):
            # Include-only mode: folders are walked (a pattern may pick files deep inside), notes are checked.
            return Exclusion.include_globs()
        return None

    def excluded(self, rel_path: str) -> str | None:
        """Why this vault-relative POSIX path is not indexed, or None when it is a note to index."""
        reason = self.hidden(rel_path)
        if reason is None and not rel_path.endswith("/"):
            reason = self.kind_reason(rel_path)
        return reason or self.user_excluded(rel_path)

    def kind_reason(self, rel_path: str) -> str | None:
        """Why a file of this kind is not indexed here (NOT_A_NOTE, or the setting that switched its kind off), or
        None when it is."""
        if self.indexed_kind(rel_path):
            return None
        kind = document_kind(rel_path)
        # `.txt` files are indexed only beside the vault: in it they are no note, as for Obsidian.
        return kind_switched_off(kind) if kind in ("pdf", "canvas") else NOT_A_NOTE

    def indexed_kind(self, rel_path: str) -> bool:
        """True for a file of a kind this vault indexes: a note, and a PDF or canvas unless switched off."""
        kind = document_kind(rel_path)
        return kind is not None and self._vault.indexes(kind)

    def size_limit(self, rel_path: str) -> int:
        """The largest file of this kind that is read: PDFs carry images and fonts, so theirs is larger."""
        return self._vault.max_pdf_bytes if document_kind(rel_path) == "pdf" else self._vault.max_note_bytes


def _walk(root: str, vault_filter: VaultFilter, result: ScanResult) -> list[tuple[str, str, os.stat_result]]:
    """(rel path, real path, stat) of every candidate note; real folders before symlinked ones."""
    found: list[tuple[str, str, os.stat_result]] = []
    visited: dict[str, str] = {}
    pending: list[tuple[str, str]] = [("", root)]
    deferred: list[tuple[str, str]] = []
    while pending or deferred:
        rel_dir, real_dir = pending.pop() if pending else deferred.pop(0)
        if real_dir in visited:
            first = visited[real_dir] or "the vault folder"
            result.skipped.append(Skipped(rel_dir + "/", f"same folder as {first} (via a symlink)", "excluded"))
            continue
        visited[real_dir] = rel_dir + "/" if rel_dir else ""
        try:
            with os.scandir(real_dir) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            result.skipped.append(Skipped(rel_dir + "/", f"cannot read folder: {exc.strerror or exc}", "failed"))
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.name.startswith("."):
                continue
            try:
                link = entry.is_symlink()
                real = os.path.realpath(entry.path) if link else os.path.join(real_dir, entry.name)
                if link and not inside(root, real):
                    result.skipped.append(Skipped(rel, "symlink to outside the vault"))
                    continue
                info = entry.stat()
                if link:
                    # A link must not smuggle an excluded note (or the trash) back into the index.
                    target = os.path.relpath(real, root).replace(os.sep, "/")
                    target += "/" if stat.S_ISDIR(info.st_mode) else ""
                    why = vault_filter.hidden(target) or vault_filter.user_excluded(target)
                    if why is not None:
                        result.skipped.append(Skipped(rel, f"symlink to {target}: {why}", "excluded"))
                        continue
            except OSError as exc:
                why = DANGLING if link and isinstance(exc, FileNotFoundError) else f"cannot read: {exc.strerror or exc}"
                result.skipped.append(Skipped(rel, why, "failed"))
                continue
            if stat.S_ISDIR(info.st_mode):
                # A prefix that covers the folder covers all it holds, so it is not walked (regexes and
                # globs can single out files inside a folder, so those are checked file by file).
                prefix = next((p for p in vault_filter.prefixes if (rel + "/").startswith(p)), None)
                if prefix is not None:
                    result.skipped.append(Skipped(rel + "/", Exclusion.obsidian(prefix).reason, "excluded"))
                elif link:
                    deferred.append((rel, real))
                else:
                    pending.append((rel, real))
            elif stat.S_ISREG(info.st_mode) and vault_filter.indexed_kind(entry.name):
                found.append((rel, real, info))
    return found


def scan_vault(cfg: VaultConfig, vault_filter: VaultFilter | None = None) -> ScanResult:
    """Every note to index (sorted by path) and every note skipped with its reason; `vault_filter` is the note
    policy's rules for this folder (a fresh read of its app.json when not given)."""
    root = os.path.realpath(cfg.root)
    if not os.path.isdir(root):
        raise VaultError(f"the vault folder {cfg.root} does not exist or is not a folder")
    vault_filter = VaultFilter(cfg) if vault_filter is None else vault_filter
    result = ScanResult(skipped=list(vault_filter.problems))
    kept: dict[str, str] = {}
    candidates = _walk(root, vault_filter, result)
    # The path without symlinks wins when one file is reachable twice.
    candidates.sort(key=lambda c: (os.path.relpath(c[1], root).replace(os.sep, "/") != c[0], c[0]))
    for rel, real, info in candidates:
        if real in kept:
            result.skipped.append(Skipped(rel, f"same file as {kept[real]} (via a symlink)", "excluded"))
            continue
        kept[real] = rel
        reason = vault_filter.user_excluded(rel)
        if reason is not None:
            result.skipped.append(Skipped(rel, reason, "excluded"))
        elif info.st_size > (limit := vault_filter.size_limit(rel)):
            result.skipped.append(Skipped(rel, Exclusion.size_limit(rel, info.st_size, limit).reason))
        else:
            result.notes.append(NoteFile(rel, info.st_size, info.st_mtime_ns))
    result.notes.sort(key=lambda n: n.path)
    result.skipped.sort(key=lambda s: s.path)
    return result
