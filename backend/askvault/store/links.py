"""Each indexed note's outgoing link targets as written, swapped whole like the chunk catalog (graph signals)."""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping
from types import MappingProxyType


class NoteLinks:
    """Vault path → its link targets as written (`Folder/Note`, `../x.md`), unresolved.

    Targets are kept unresolved because resolution depends on which notes exist: a note created or renamed
    elsewhere changes what `[[Name]]` points to without touching the linking note. Resolution is the reader's
    job (`askvault.retrieve.graph`), redone lazily whenever this snapshot or the set of notes changes.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._links: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def replace(self, links: Mapping[str, tuple[str, ...]]) -> None:
        frozen = MappingProxyType(dict(links))
        with self._lock:
            self._links = frozen

    def patch(self, touched: Collection[str], fresh: Mapping[str, tuple[str, ...]]) -> None:
        """The touched notes' links become `fresh` (a touched note absent from it has none, or is gone)."""
        with self._lock:
            merged = {path: targets for path, targets in self._links.items() if path not in touched}
            merged.update((path, targets) for path, targets in fresh.items() if path in touched)
            self._links = MappingProxyType(merged)

    def snapshot(self) -> Mapping[str, tuple[str, ...]]:
        return self._links

    def __len__(self) -> int:
        return len(self._links)
