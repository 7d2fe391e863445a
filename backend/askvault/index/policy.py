"""The note policy: may this path or note be indexed or shown now, and if not, which `Exclusion` keeps it out."""

from __future__ import annotations

import os
from dataclasses import dataclass

from askvault.config import VaultConfig
from askvault.index.exclusion import Exclusion
from askvault.index.roots import Roots
from askvault.index.scan import DEFAULT_CONFIG_DIR, VaultFilter
from askvault.model import Note
from askvault.parse.decode import normalize_newlines
from askvault.parse.frontmatter import MAX_FRONTMATTER_CHARS, read_frontmatter

_HEAD_BYTES = 4 * MAX_FRONTMATTER_CHARS + 4096
"""Enough of a note's start to hold any frontmatter the parser would read."""
_OPT_OUT_CACHE = 2048

_Stat = tuple[int, int]
"""(mtime in ns, size) of a watched file or folder; (-1, -1) when it cannot be read."""


def _stat(path: str) -> _Stat:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return (-1, -1)
    return (info.st_mtime_ns, info.st_size)


def _watched(root: str, vault_filter: VaultFilter) -> tuple[str, ...]:
    """The paths whose change may change a folder's Obsidian rules: its config folder's app.json, and (unless that
    folder is `.obsidian`, which always wins) the folder itself, whose mtime moves when a config folder appears."""
    config_dir = vault_filter.config_dir
    # Plain strings, joined once: the guard stats them for every hit, and a pathlib join costs more than the stat.
    app_json = () if config_dir is None else (os.path.join(root, config_dir, "app.json"),)
    return app_json if config_dir == DEFAULT_CONFIG_DIR else (root, *app_json)


@dataclass(frozen=True, slots=True)
class _Rules:
    """One reading of the rules: the folders with their filters, and the stamp of the files they were read from."""

    roots: Roots
    watched: tuple[str, ...]
    stamp: tuple[_Stat, ...]

    @classmethod
    def read(cls, vault: VaultConfig) -> _Rules:
        roots = Roots(vault)
        watched = tuple(path for root in roots.all() for path in _watched(str(root.folder), root.filter))
        return cls(roots, watched, tuple(_stat(path) for path in watched))

    def current(self) -> bool:
        return tuple(_stat(path) for path in self.watched) == self.stamp


class NotePolicy:
    """One answer, for the indexer, the answer-time guard, explain and MCP, to "may this be indexed or shown, and
    if not, why": Obsidian's Excluded files and hidden folders, the exclude and include globs, the size caps,
    the file kinds, the frontmatter opt-out, and each source folder's own rules.

    Built once from the configuration (the wiring hands the one instance out). The rules read from `app.json`
    are read again when that file changes: every question stats it first (a stat or two, cheap enough for every
    search hit), and the indexer calls `rebuild` at the start of each run and watcher batch, as it always read
    them afresh there. A rebuild swaps one immutable reading, so the indexer's worker thread and the event loop
    never see half of one.
    """

    def __init__(self, vault: VaultConfig) -> None:
        self.vault = vault
        self._rules = _Rules.read(vault)
        self._root = str(vault.root)
        self._opted_out: dict[tuple[str, int], bool] = {}

    # ----- the rules as they are now ---------------------------------------------------------------
    @property
    def roots(self) -> Roots:
        """The folders and their rules now: read again first when an app.json (or a config folder) changed."""
        rules = self._rules
        if not rules.current():
            rules = self._rules = _Rules.read(self.vault)
        return rules.roots

    def rebuild(self) -> Roots:
        """Reads every folder's rules again, changed or not (a coarse mtime can hide a quick edit)."""
        self._rules = _Rules.read(self.vault)
        return self._rules.roots

    # ----- paths -----------------------------------------------------------------------------------
    def path_rule(self, path: str) -> Exclusion | None:
        """The rule that keeps an indexed path out of sight now: a hidden folder (Obsidian's own exclusion), its
        Excluded files, the exclude and the include globs; a source folder's own rules for its paths, and a
        source taken out of the settings hides all of its."""
        found = self.roots.split(path)
        if found is None:
            return Exclusion.source_removed()
        root, rel = found
        return _path_rule(root.filter, rel)

    def vault_rule(self, rel: str) -> Exclusion | None:
        """`path_rule` for a path read straight from the vault folder (MCP): the vault's rules, never a source's."""
        return _path_rule(self.roots.vault.filter, rel)

    def excluded(self, path: str) -> str | None:
        """Why the indexer leaves this path out (its kind, a hidden folder, the path rules), or None to index it."""
        return self.roots.excluded(path)

    def indexed_kind(self, path: str) -> bool:
        """True for a file of a kind its folder indexes (a `.txt` is one beside the vault, not in it)."""
        return self.roots.indexed_kind(path)

    def kind_reason(self, path: str) -> str | None:
        """Why its folder does not index a file of this kind, or None when it does."""
        return self.roots.kind_reason(path)

    def size_limit(self, path: str) -> int:
        """The largest file of this kind that is read (PDFs carry images and fonts, so theirs is larger)."""
        return self.roots.size_limit(path)

    def size_rule(self, path: str, size: int) -> Exclusion | None:
        """`size-limit` when a file of `size` bytes is over its kind's cap, else None."""
        limit = self.size_limit(path)
        return Exclusion.size_limit(path, size, limit) if size > limit else None

    # ----- what only the text can say -------------------------------------------------------------
    def opt_out_rule(self, note: Note) -> Exclusion | None:
        """`frontmatter-opt-out` for a parsed note whose frontmatter opts out, else None."""
        return self.opted_out() if note.opted_out else None

    def opted_out(self) -> Exclusion:
        """The opt-out, worded with the configured key."""
        return Exclusion.opted_out(self.vault.opt_out_key)

    def opted_out_since(self, path: str, indexed_mtime: float) -> bool:
        """True when the note changed on disk since it was indexed (at `indexed_mtime`, in seconds) and now opts
        out, or cannot be read (fail closed); only the start of the note is read, once per change."""
        full = os.path.join(self._root, path)
        try:
            info = os.stat(full)
        except OSError:
            return False  # deleted, not excluded: the next reconcile removes it
        if info.st_mtime_ns / 1e9 == indexed_mtime:
            return False
        key = (path, info.st_mtime_ns)
        cached = self._opted_out.get(key)
        if cached is not None:
            return cached
        try:
            with open(full, "rb") as handle:
                head = handle.read(_HEAD_BYTES)
            text = normalize_newlines(head.decode("utf-8", errors="replace").removeprefix("\ufeff"))
            result = read_frontmatter(text.split("\n"), self.vault.opt_out_key).opted_out
        except OSError:
            result = True
        if len(self._opted_out) >= _OPT_OUT_CACHE:
            self._opted_out.clear()
        self._opted_out[key] = result
        return result


def _path_rule(vault_filter: VaultFilter, rel: str) -> Exclusion | None:
    hidden = vault_filter.hidden(rel)
    return Exclusion.hidden(hidden) if hidden is not None else vault_filter.user_rule(rel)
