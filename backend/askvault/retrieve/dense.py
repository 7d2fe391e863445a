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

    `store` is only set when the collection is complete for the configured embedder, so queries are
    never embedded with one model and compared against vectors of another.
    """

    embedder: Embedder
    store: VectorStore | None = None
    state: DenseState = "off"
    problem: str | None = None
    """A sentence the user can act on when dense search is off (e.g. `ollama pull nomic-embed-text`)."""

    @property
    def usable(self) -> bool:
        return self.state == "ready" and self.store is not None
