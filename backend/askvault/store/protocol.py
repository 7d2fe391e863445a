"""The storage seams: the vector store and the keyword index, as the indexer and retriever see them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from askvault.model import Chunk, ChunkInfo, RankedId, SearchFilters, TermStat
from askvault.store.text.multilingual import QueryTerms


class VectorStore(Protocol):
    """Dense vectors keyed by chunk id, with enough payload (path, tags, mtime) to filter inside the search."""

    @property
    def kind(self) -> str:
        """A short label for status output: `qdrant-edge (embedded)` or `qdrant-server <url>`."""
        ...

    async def upsert(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None: ...

    async def delete(self, chunk_ids: Sequence[str]) -> None: ...

    async def search(self, vector: Sequence[float], limit: int, filters: SearchFilters) -> list[RankedId]:
        """Top `limit` chunk ids by cosine similarity, best first (equal scores by chunk id), filters applied inside
        the search."""
        ...

    async def search_batch(
        self, vectors: Sequence[Sequence[float]], limit: int, filters: SearchFilters
    ) -> list[list[RankedId]]:
        """`search` for several vectors at once (one pass over the vectors where the engine can), in their order."""
        ...

    async def ids(self) -> set[str]:
        """Every chunk id that has a vector (for reconcile: orphans and missing vectors)."""
        ...

    async def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """The stored vectors of these chunks (unit length: the collection is cosine); ids without one are left
        out. Related notes compare a note's own chunks with other notes' without embedding anything again."""
        ...

    async def refresh_payload(self, chunks: Sequence[Chunk]) -> None:
        """Rewrites the payload (path, tags, mtime) of chunks whose text, and so vector, did not change."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class KeywordResult:
    ranked: list[RankedId]
    """Best first, at most `limit` long."""
    terms: list[TermStat]
    """The query terms after tokenizing, with document frequency and the IDF used."""
    matched: int
    """How many chunks matched at least one query term (after filters), before truncation."""


@dataclass(frozen=True, slots=True)
class KeywordDoc:
    chunk_id: str
    text: str
    extra: dict[str, str] = field(default_factory=dict)


class KeywordIndex(Protocol):
    """BM25 over chunk index text. Rebuilt as a whole (off the request path); searches read a snapshot."""

    def rebuild(self, docs: Iterable[tuple[str, str] | ChunkInfo]) -> None:
        """Replaces the index with chunks, each tokenized in its note's language, or plain (chunk_id, index_text)
        pairs (the default language); a `ChunkInfo` without its text keeps what the last rebuild counted for
        it. Safe to call from a worker thread."""
        ...

    def search(self, query: str, limit: int, allow: Callable[[str], bool] | None = None) -> KeywordResult:
        """OR semantics with IDF weights; `allow(chunk_id)` filters candidates before truncation."""
        ...

    def search_terms(
        self, terms: Sequence[str], limit: int, allow: Callable[[str], bool] | None = None
    ) -> KeywordResult:
        """`search` for terms already analysed (no tokenizing), e.g. those of `distinctive_terms`."""
        ...

    def query_analysis(self) -> QueryTerms:
        """How a question becomes this index's terms now (its languages and tokenizers): `query.analyse_query`
        analyses a question once with it, and the keyword leg searches those terms with `search_terms`."""
        ...

    def distinctive_terms(self, chunk_ids: Collection[str], limit: int) -> list[str]:
        """The `limit` terms that best characterise these chunks (highest summed tf·idf), best first."""

    def terms_in(self, terms: Sequence[str], chunk_ids: Collection[str]) -> set[str]:
        """Which of these analysed terms (`KeywordResult.terms`) at least one of these chunks holds."""
        ...

    def held_terms(self, terms: Sequence[str], chunk_ids: Collection[str]) -> dict[str, frozenset[str]]:
        """For each of these chunks the index holds, which of these analysed terms it holds (absent: not indexed)."""
        ...

    def tokenize(self, text: str, language: str = "") -> list[str]:
        """Text's terms in order, repeats kept, as this index tokenizes a note in `language` ("": the default)."""
        ...

    def __len__(self) -> int: ...


@runtime_checkable
class GraphIndexed(VectorStore, Protocol):
    """A vector store that gives itself an approximate (HNSW graph) index once it is big enough, built in the
    background; searches meanwhile stay as they were (`store.vectors.edge_graph_store.GraphVectorStore`)."""

    @property
    def graph_state(self) -> str:
        """`none` (every search exact), `building` or `ready` (unfiltered searches walk the graph)."""
        ...

    async def ensure_graph(self) -> bool:
        """Starts a background build when one is due; True while one runs."""
        ...

    async def wait_graph(self) -> bool:
        """Waits for a running build; True when the store has a graph."""
        ...
