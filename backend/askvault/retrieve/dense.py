"""The dense leg's state: which vector collection answers queries, and why dense search may be off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from askvault.embed.protocol import Embedder
from askvault.store.protocol import VectorStore

DenseState = Literal["ready", "building", "off"]


@dataclass
class DenseIndex:
    """Holder swapped by the indexer; read by the retriever on every query.

    `store` is only ever a collection of the configured embedder, so queries are never embedded with one model
    and compared against vectors of another. While that collection is being filled (`building`), it answers
    from the vectors written so far, and `coverage` says what share of the chunks they are.
    """

    embedder: Embedder
    store: VectorStore | None = None
    state: DenseState = "off"
    problem: str | None = None
    """A sentence the user can act on when dense search is off (e.g. `ollama pull nomic-embed-text`)."""
    coverage: float = 1.0
    """Share of the chunks with a vector in `store`: below 1 while building (hybrid search weighs the dense leg
    by it, so a few thousand vectors of a million do not crowd out the keyword hits)."""

    @property
    def usable(self) -> bool:
        return self.state in ("ready", "building") and self.store is not None
