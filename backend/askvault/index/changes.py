"""Pure change tracking: raw filesystem events → note changes, per-path coalescing and debouncing into batches."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePath
from typing import Protocol

NOTE_SUFFIX = ".md"
OTHER_SUFFIXES = (".pdf", ".canvas", ".txt")
"""The other indexed files (`parse.documents`), in any case: cameras and scanners write `.PDF`. Whether a folder
indexes a kind (`.txt` only beside the vault) the indexer decides."""


@dataclass(frozen=True, slots=True)
class ChangeBatch:
    """What the index must do, applied in this order: `deleted_prefixes`, then `deletes`, then `upserts`.

    `upserts` and `deletes` never share a path. An upsert may lie under a deleted prefix: the folder went
    away and came back, so the old entries go first and the new note is read afterwards. Deleting a path
    the index does not hold is a no-op for the sink.
    """

    upserts: frozenset[str] = frozenset()
    """Vault-relative POSIX paths of notes to (re-)read from disk."""
    deletes: frozenset[str] = frozenset()
    """Note paths to remove from the index."""
    deleted_prefixes: frozenset[str] = frozenset()
    """Folders removed or moved away (no trailing slash): every indexed path strictly under one goes."""
    moved: tuple[tuple[str, str], ...] = ()
    """Informational (old, new) renames; old is in `deletes` and new in `upserts` of this same batch."""

    def is_empty(self) -> bool:
        return not (self.upserts or self.deletes or self.deleted_prefixes)


class ChangeSink(Protocol):
    """The index side of the watcher. The watcher never calls it concurrently (one call at a time)."""

    async def apply(self, batch: ChangeBatch) -> None:
        """Bring the index in line with `batch` (see ChangeBatch for the order)."""
        ...

    async def reconcile(self) -> None:
        """Compare the whole vault with the index and repair any difference."""
        ...


class ChangeKind(StrEnum):
    UPSERT = "upsert"
    DELETE = "delete"
    DELETE_TREE = "delete_tree"
    """A folder went away: everything under `path` goes."""
    UPSERT_TREE = "upsert_tree"
    """A folder appeared (created or moved in): every note under `path` must be read; listing it is I/O."""
    RESCAN = "rescan"
    """The vault root itself was deleted or moved: nothing path-level is trustworthy any more."""


@dataclass(frozen=True, slots=True)
class Change:
    kind: ChangeKind
    path: str
    """Vault-relative POSIX path ("" for RESCAN)."""
    moved_from: str | None = None
    """For an UPSERT caused by a rename inside the vault: the note's previous path."""


@dataclass(frozen=True, slots=True)
class RawEvent:
    """One filesystem event as the OS watcher reports it (absolute native paths)."""

    kind: str
    """created | modified | closed (after a write) | moved | deleted; other kinds are ignored."""
    src_path: str
    dest_path: str = ""
    """Only for moved; "" when the destination is unknown (moved out of the watched tree)."""
    is_directory: bool = False


def is_under(path: str, prefix: str) -> bool:
    """True when `path` lies strictly inside folder `prefix` (both vault-relative POSIX)."""
    return path.startswith(prefix + "/")


def _hidden(part: str) -> bool:
    # Dot-names cover editor/sync temp files (.#x.md, .x.md.tmp, .x.md.swp, .x.md.icloud) and
    # tool folders (.obsidian, .trash, .git); `~$` is an office lock file.
    return part.startswith(".") or part.startswith("~$")


def is_watched_dir(rel: str) -> bool:
    """True for a vault-relative folder whose notes belong in the index (no hidden component)."""
    return rel != "." and not any(_hidden(part) for part in rel.split("/"))


def is_note_path(rel: str) -> bool:
    """True for a vault-relative path of a note, PDF or canvas: ends in `.md` (or `.pdf`, `.canvas`) and no hidden
    component on the way. The indexer decides whether this vault indexes its kind.

    Backup and temp names (`x.md~`, `x.md.swp`, `x.md.tmp`, `x.tmp`) fail the suffix test; `.md` is
    matched case-sensitively, as Obsidian does.
    """
    parts = rel.split("/")
    name = parts[-1]
    suffix = (
        NOTE_SUFFIX if name.endswith(NOTE_SUFFIX) else next((s for s in OTHER_SUFFIXES if name.lower().endswith(s)), "")
    )
    return bool(suffix) and len(name) > len(suffix) and is_watched_dir(rel)


def vault_relative(path: str, root: str) -> str | None:
    """`path` relative to `root` as POSIX ("." for the root itself); None when outside the vault or empty."""
    if not path:
        return None
    try:
        rel = PurePath(path).relative_to(PurePath(root))
    except ValueError:
        return None
    if ".." in rel.parts:
        return None
    return rel.as_posix()


_UPSERT_KINDS = frozenset({"created", "modified", "closed"})


def map_event(event: RawEvent, root: str) -> list[Change]:
    """Translate one raw event into note changes, in the order they must be applied."""
    src = vault_relative(event.src_path, root)
    dest = vault_relative(event.dest_path, root) if event.kind == "moved" else None
    if src == "." and event.kind in ("deleted", "moved"):
        return [Change(ChangeKind.RESCAN, "")]
    if event.is_directory:
        return _map_dir(event.kind, src, dest)
    changes: list[Change] = []
    src_note = src is not None and is_note_path(src)
    if event.kind in _UPSERT_KINDS:
        if src is not None and src_note:
            changes.append(Change(ChangeKind.UPSERT, src))
    elif event.kind == "deleted":
        if src is not None and src_note:
            changes.append(Change(ChangeKind.DELETE, src))
    elif event.kind == "moved":
        if src is not None and src_note:
            changes.append(Change(ChangeKind.DELETE, src))
        if dest is not None and is_note_path(dest):
            changes.append(Change(ChangeKind.UPSERT, dest, moved_from=src if src_note else None))
    return changes


def _map_dir(kind: str, src: str | None, dest: str | None) -> list[Change]:
    changes: list[Change] = []
    src_ok = src is not None and is_watched_dir(src)
    if kind == "created" and src is not None and src_ok:
        changes.append(Change(ChangeKind.UPSERT_TREE, src))
    elif kind in ("deleted", "moved") and src is not None and src_ok:
        changes.append(Change(ChangeKind.DELETE_TREE, src))
    if kind == "moved" and dest is not None and is_watched_dir(dest):
        changes.append(Change(ChangeKind.UPSERT_TREE, dest))
    return changes


@dataclass(slots=True)
class _Pending:
    first: float
    last: float
    delete: bool = False
    moved_from: str | None = None

    def deadline(self, debounce_s: float, max_wait_s: float) -> float:
        return min(self.last + debounce_s, self.first + max_wait_s)


@dataclass(slots=True)
class Coalescer:
    """Merges changes per path and releases a path once it has been quiet for `debounce_s`
    (or has waited `max_wait_s` since its first pending change, so a continuous writer still gets indexed).

    Pure: every call takes the current time. Only UPSERT, DELETE and DELETE_TREE are accepted;
    the caller expands UPSERT_TREE by listing the folder and handles RESCAN itself.
    """

    debounce_s: float = 0.3
    max_wait_s: float = 2.0
    _paths: dict[str, _Pending] = field(default_factory=dict)
    _prefixes: dict[str, _Pending] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self._paths) + len(self._prefixes)

    def add(self, change: Change, now: float) -> None:
        if change.kind is ChangeKind.DELETE_TREE:
            self._add_prefix(change.path, now)
        elif change.kind is ChangeKind.UPSERT:
            self._add_upsert(change.path, change.moved_from, now)
        elif change.kind is ChangeKind.DELETE:
            entry = self._touch(change.path, now)
            entry.delete = True  # keeps moved_from, so a chain a→b→c still reports (a, c)
        else:
            raise ValueError(f"Coalescer cannot take {change.kind}; expand or handle it before adding")

    def _touch(self, path: str, now: float) -> _Pending:
        entry = self._paths.get(path)
        if entry is None:
            entry = self._paths[path] = _Pending(first=now, last=now)
        else:
            entry.last = now
        return entry

    def _add_upsert(self, path: str, moved_from: str | None, now: float) -> None:
        entry = self._paths.get(path)
        was_deleted = entry is not None and entry.delete
        entry = self._touch(path, now)
        if moved_from is not None:
            source = self._paths.get(moved_from)
            # If the source itself only arrived by a rename in this window, point at the original.
            entry.moved_from = source.moved_from if source and source.moved_from else moved_from
        elif was_deleted:
            entry.moved_from = None  # deleted then re-created: no longer a rename
        entry.delete = False

    def _add_prefix(self, prefix: str, now: float) -> None:
        # Everything pending under the folder is older than its removal, so the removal covers it.
        for path in [p for p in self._paths if is_under(p, prefix)]:
            del self._paths[path]
        for inner in [p for p in self._prefixes if is_under(p, prefix)]:
            del self._prefixes[inner]
        entry = self._prefixes.get(prefix)
        if entry is None:
            self._prefixes[prefix] = _Pending(first=now, last=now, delete=True)
        else:
            entry.last = now

    def next_deadline(self) -> float | None:
        """The earliest time at which `take_ready` will return something; None when nothing is pending."""
        entries = [*self._paths.values(), *self._prefixes.values()]
        if not entries:
            return None
        return min(e.deadline(self.debounce_s, self.max_wait_s) for e in entries)

    def take_ready(self, now: float) -> ChangeBatch | None:
        """Remove and return everything that is ready at `now` (None when nothing is)."""
        paths = {p for p, e in self._paths.items() if e.deadline(self.debounce_s, self.max_wait_s) <= now}
        prefixes = {p for p, e in self._prefixes.items() if e.deadline(self.debounce_s, self.max_wait_s) <= now}
        # A folder removal cancels everything older under it, so whatever is pending under a pending
        # prefix arrived later and is never ready before it: the order deletes → upserts holds.
        # A rename's source, though, can still be waiting while its destination (a continuous writer)
        # hits the max wait: take its delete along, so the index drops the old path as the new one lands.
        for path in list(paths):
            entry = self._paths[path]
            src = entry.moved_from
            if not entry.delete and src is not None and src in self._paths and self._paths[src].delete:
                paths.add(src)
        return self._take(paths, prefixes)

    def take_all(self) -> ChangeBatch | None:
        """Remove and return everything pending, ready or not."""
        return self._take(set(self._paths), set(self._prefixes))

    def _take(self, paths: set[str], prefixes: set[str]) -> ChangeBatch | None:
        if not paths and not prefixes:
            return None
        taken = {p: self._paths.pop(p) for p in paths}
        for prefix in prefixes:
            del self._prefixes[prefix]
        deletes = frozenset(p for p, e in taken.items() if e.delete)
        upserts = frozenset(p for p, e in taken.items() if not e.delete)
        moved = tuple(
            sorted(
                (src, path)
                for path, e in taken.items()
                if not e.delete and (src := e.moved_from) is not None and src != path and src in deletes
            )
        )
        return ChangeBatch(upserts=upserts, deletes=deletes, deleted_prefixes=frozenset(prefixes), moved=moved)
