"""The dense leg's state: which vector collection answers queries, and why dense search may be off."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from askvault.store.protocol import VectorStore

DenseState = Literal["ready", "building", "off"]
E = TypeVar("E")
"""The embedder whose vectors the collection holds (generic: `store/` does not import `embed/`)."""


class DenseIndex(Generic[E]):
    """Changed by the indexer through its three transitions; read by the retriever on every query.

    `store` is only ever a collection of the configured embedder, so queries are never embedded with one model
    and compared against vectors of another. While that collection is being filled (`building`), it answers
    from the vectors written so far, and `coverage` says what share of the chunks they are.

    Invariants the transitions keep: `ready` has a store and coverage 1; `building` has coverage 0 without a
    store (no vector yet) and in (0, 1] with one; `off` has no store, coverage 0 and, once a sync has failed,
    a problem sentence (none before the first sync). Only `off` has a problem.
    """

    def __init__(self, embedder: E) -> None:
        self.embedder = embedder
        self._state: DenseState = "off"
        self._store: VectorStore | None = None
        self._problem: str | None = None
        self._coverage = 0.0

    @property
    def state(self) -> DenseState:
        return self._state

    @property
    def store(self) -> VectorStore | None:
        return self._store

    @property
    def problem(self) -> str | None:
        """A sentence the user can act on when dense search is off (e.g. `ollama pull nomic-embed-text`)."""
        return self._problem

    @property
    def coverage(self) -> float:
        """Share of the chunks with a vector in `store`: below 1 while building (hybrid search weighs the dense
        leg by it, so a few thousand vectors of a million do not crowd out the keyword hits)."""
        return self._coverage

    @property
    def usable(self) -> bool:
        return self._state in ("ready", "building") and self._store is not None

    def building(self, store: VectorStore | None, coverage: float) -> None:
        """A collection is being filled: queries use `store` (None until its first vectors) weighed by `coverage`."""
        if store is None and coverage != 0.0:
            raise ValueError("a collection without vectors yet has coverage 0")
        if store is not None and not 0.0 < coverage <= 1.0:
            raise ValueError(f"a collection being built covers a share in (0, 1], not {coverage}")
        self._state, self._store, self._problem, self._coverage = "building", store, None, coverage

    def ready(self, store: VectorStore) -> None:
        """`store` holds a vector for every chunk."""
        self._state, self._store, self._problem, self._coverage = "ready", store, None, 1.0

    def off(self, problem: str) -> None:
        """Dense search stops, with the sentence saying how to bring it back; keyword search carries on."""
        if not problem.strip():
            raise ValueError("dense search turns off with a sentence saying why")
        self._state, self._store, self._problem, self._coverage = "off", None, problem, 0.0
