"""Every note's current problem — failed, skipped or a notice — kept until the note is fixed or gone.

One vocabulary on every surface (`index`'s summary, the serve log, /api/status `failures`, explain):
- `skipped`: deliberately not indexed — over the size limit, not text (binary), a symlink that leads out of the
  vault; also the user's own rules (Excluded files, globs, an opt-out), which are choices, so they are counted
  and listed by `index` but are never a current problem;
- `failed`: could not be read or decoded — permission denied, not UTF-8, an unreadable folder, a bug;
- `notice`: indexed, with a caveat to fix — frontmatter that could not be read, a body read as plain text.

A full run replaces every entry it looked at and forgets paths that are gone; a watcher batch replaces only
the notes it touched, so a failure stays listed until the note is indexed cleanly, deleted, renamed or excluded.
A note left alone because its bytes are unchanged keeps its entry (the same text has the same problem). The
entries are kept in the manifest (`problems_meta_key`), so a restart shows them before its first run ends.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

log = logging.getLogger("askvault.index")

ProblemKind = Literal["failed", "skipped", "notice"]
KINDS: tuple[ProblemKind, ...] = ("failed", "skipped", "notice")
PROBLEMS_META_KEY = "note_problems"
"""The manifest's meta key holding the current entries as JSON (`[{"path", "kind", "reason"}]`)."""


def human_size(size: int) -> str:
    """Bytes as people read them: `900 bytes`, `7 KiB`, `4 MiB`, `4.1 MiB` (rounded up, so over a limit reads
    over it)."""
    if size < 1024:
        return f"{size} bytes"
    unit, scale = ("KiB", 1024) if size < 1024 * 1024 else ("MiB", 1024 * 1024)
    value = math.ceil(size * 10 / scale) / 10
    return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"


def too_large(size: int, limit: int, *, pdf: bool = False) -> str:
    """The one wording of the size limit, for the scan, the indexer, explain and the MCP server, with its fix: a
    PDF's limit is a setting; a note's is fixed, because a note that large is a data dump more than prose."""
    fix = "raise `max_pdf_mb` (`--max-pdf-mb`) to index it" if pdf else "split it into smaller files to index it"
    return f"too large ({human_size(size)}; the limit is {human_size(limit)}); {fix}"


@dataclass(frozen=True, slots=True)
class NoteProblem:
    path: str
    kind: ProblemKind
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason, "kind": self.kind}


class NoteProblems:
    """The current problems by note path. The indexer's worker thread writes, the event loop reads: one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_path: dict[str, tuple[NoteProblem, ...]] = {}
        self.changed = False
        """Set by every change, cleared by `dump`: the manifest is written only when something changed."""
        self._logged: set[NoteProblem] = set()
        """Entries this process logged: a problem is logged once per process (loaded ones when found again), not
        on every periodic reconcile."""

    def scanned(self, path: str, kind: Literal["excluded", "skipped", "failed"], reason: str) -> None:
        """A note the scan left out: skipped or failed is its current problem; a user's own exclusion is a choice,
        not a problem, and clears the entry instead."""
        if kind == "excluded":
            self.clear(path)
        else:
            self.replace(path, kind, (reason,))

    def replace(self, path: str, kind: ProblemKind, reasons: Iterable[str]) -> None:
        """Replaces the note's entries; a problem not logged yet is logged, in the same words as elsewhere."""
        entries = tuple(NoteProblem(path, kind, reason) for reason in reasons)
        with self._lock:
            old = self._by_path.get(path, ())
            if entries != old:
                if entries:
                    self._by_path[path] = entries
                else:
                    self._by_path.pop(path, None)
                self.changed = True
            self._logged.difference_update(entry for entry in old if entry not in entries)
            fresh = [entry for entry in entries if entry not in self._logged]
            self._logged.update(fresh)
        for entry in fresh:
            log.log(logging.INFO if kind == "notice" else logging.WARNING, "%s %s: %s", kind, path, entry.reason)

    def clear(self, path: str) -> None:
        """The note was indexed cleanly, or is gone or excluded."""
        self.replace(path, "failed", ())

    def settle(self, path: str) -> None:
        """The note's bytes were read and are what the index holds: no longer failed or skipped; notices stay."""
        notices = tuple(entry.reason for entry in self.get(path) if entry.kind == "notice")
        self.replace(path, "notice", notices)

    def unsettled(self, path: str) -> bool:
        """True while the note is listed as failed or skipped: a full run reads it again even if it looks unchanged."""
        return any(entry.kind != "notice" for entry in self.get(path))

    def clear_under(self, folder: str) -> None:
        """A deleted or renamed folder: its notes are gone."""
        under = folder.strip("/") + "/"
        with self._lock:
            paths = [path for path in self._by_path if path.startswith(under)]
        for path in paths:
            self.clear(path)

    def keep_only(self, paths: set[str]) -> None:
        """After a full scan: entries of paths it did not see are of notes that are gone."""
        with self._lock:
            gone = [path for path in self._by_path if path not in paths]
        for path in gone:
            self.clear(path)

    def get(self, path: str) -> tuple[NoteProblem, ...]:
        with self._lock:
            return self._by_path.get(path, ())

    def current(self) -> list[NoteProblem]:
        """Failed first, then skipped, then notices; by path within each."""
        with self._lock:
            entries = [entry for entries in self._by_path.values() for entry in entries]
        return sorted(entries, key=lambda e: (KINDS.index(e.kind), e.path))

    def dump(self) -> str:
        self.changed = False
        return json.dumps([entry.to_json() for entry in self.current()], ensure_ascii=False)

    def load(self, raw: str | None) -> None:
        """Entries saved by `dump`; anything unreadable is ignored (the next run finds the problems again)."""
        try:
            items = json.loads(raw) if raw else []
        except ValueError:
            items = []
        grouped: dict[str, list[NoteProblem]] = {}
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            path, kind, reason = item.get("path"), item.get("kind"), item.get("reason")
            if isinstance(path, str) and isinstance(reason, str) and kind in KINDS:
                grouped.setdefault(path, []).append(NoteProblem(path, kind, reason))
        with self._lock:
            self._by_path = {path: tuple(entries) for path, entries in grouped.items()}
            self.changed = False
