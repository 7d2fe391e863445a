"""The embedder seam: what the indexer and retriever need from an embedding model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from askvault.embed.prefixes import Prefixes


class Embedder(Protocol):
    """Turns texts into vectors. Implementations preserve input order and apply the model's prefixes."""

    @property
    def model(self) -> str: ...

    @property
    def backend(self) -> str:
        """`builtin` (in process) or `ollama`: recorded with the index, so later commands use the same one."""
        ...

    @property
    def prefixes(self) -> Prefixes:
        """What goes in front of documents and queries (recorded with the index)."""
        ...

    @property
    def label(self) -> str:
        """How the user sees it: `built-in all-MiniLM-L6-v2, 384-d` or `Ollama: nomic-embed-text`."""
        ...

    async def dimension(self) -> int:
        """The vector size; asks the model once. Raises ModelUnreachable or ModelMissing."""
        ...

    async def fingerprint(self) -> str:
        """`model@dimension`, plus `+doc-<hash>` when a document prefix is applied: vectors from different
        fingerprints never share a collection."""
        ...

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeds chunk texts (document prefix applied). Raises a ModelError subclass on failure."""
        ...

    async def embed_query(self, text: str) -> list[float]:
        """Embeds one question (query prefix applied)."""
        ...
