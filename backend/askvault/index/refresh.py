"""When a long index run rebuilds the keyword index before it ends, so keyword search answers within minutes."""

from __future__ import annotations

FIRST_AFTER_S = 30.0
"""No early rebuild in a run's first half minute: small vaults and quiet reconciles never pay for one."""
MIN_NEW_CHUNKS = 2_000


class KeywordRefresh:
    """Due once `FIRST_AFTER_S` have passed since the last rebuild (or the run's start) and the run has committed
    at least as many new chunks as the keyword index holds (and `MIN_NEW_CHUNKS`). Rebuilds so come at doubling
    sizes: however big the vault, together they cost about one more full rebuild (each tokenizes only new text)."""

    def __init__(self, indexed: int, started: float) -> None:
        self._indexed = indexed
        self._new = 0
        self._last = started

    def due(self, committed: int, now: float) -> bool:
        """`committed`: chunks the note just indexed added. True means: rebuild now (the count restarts)."""
        self._new += committed
        if now - self._last < FIRST_AFTER_S or self._new < max(MIN_NEW_CHUNKS, self._indexed):
            return False
        self._indexed += self._new
        self._new = 0
        self._last = now
        return True
