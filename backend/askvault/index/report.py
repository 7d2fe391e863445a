"""What an index run did, for the CLI summary, `/api/status` and tests, and its progress as it goes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Literal

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    reason: str


@dataclass
class IndexReport:
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[Problem] = field(default_factory=list)
    failed: list[Problem] = field(default_factory=list)
    notices: list[Problem] = field(default_factory=list)
    """Notes indexed with a caveat the user should see, e.g. "parsed as plain text (N lines): …" for a note too
    long to read as Markdown in time (its structure was ignored; it is still searchable)."""
    chunks: int = 0
    notes: int = 0
    embedded: int = 0
    dense: str = "off"
    dense_problem: str | None = None
    dense_graph: str = "none"
    embedder: str = ""
    """Which embedder made the vectors (`built-in all-MiniLM-L6-v2, 384-d`); set by `askvault index`."""
    """`ready` once a big vault's vectors have an HNSW graph (`askvault index` waits for its build)."""
    seconds: float = 0.0
    finished_at: str | None = None
    redactions: dict[str, object] = field(default_factory=dict)
    """Secrets redacted in the index: {"total", "by_kind", "notes": [{"path", "kinds"}]} (kinds, never values)."""
    template_lines: int = 0
    """Lines the vault repeats across enough notes to be template lines (`chunk.boilerplate`), left out of search."""
    template_floor: int = 0
    """How many notes hold each of them at least (√ of the notes indexed, never fewer than 3)."""

    def to_json(self) -> dict[str, object]:
        return asdict(self)


ProgressPhase = Literal["scan", "notes", "embed", "keyword", "done"]


@dataclass(frozen=True, slots=True)
class Progress:
    phase: ProgressPhase
    done: int
    total: int
    path: str | None = None


class ProgressFeed:
    """The index's progress and whoever follows it (the status bar, the CLI's bars): the latest, and each update."""

    def __init__(self) -> None:
        self.current = Progress("done", 0, 0)
        self._listeners: list[Callable[[Progress], None]] = []

    def add(self, listener: Callable[[Progress], None]) -> Callable[[], None]:
        """Follows the updates; returns what stops following them."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def emit(self, progress: Progress) -> None:
        self.current = progress
        for listener in list(self._listeners):
            try:
                listener(progress)
            except Exception:  # a broken listener must never stop indexing
                log.exception("progress listener failed")
