"""What both Qdrant adapters store beside a vector: point ids, payload fields, filter terms, collection names."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote, unquote

from askvault.errors import StoreError
from askvault.model import Chunk, RankedId, SearchFilters

# Fixed namespace: the same chunk id maps to the same point id in every store, on every machine.
POINT_NAMESPACE = uuid.UUID("6f1c3c9e-4b1a-5d8e-9a57-a5c0a1e7d001")

CHUNK_ID = "chunk_id"
PATH = "path"
FOLDERS = "folders"
TAGS = "tags"
MTIME = "mtime"
KEYWORD_FIELDS = (CHUNK_ID, PATH, FOLDERS, TAGS)
"""Payload fields indexed as keywords; MTIME is indexed as a float."""


class ScoredPayload(Protocol):
    """A point as both engines answer a query: its payload and its similarity."""

    @property
    def payload(self) -> Mapping[str, Any] | None: ...

    @property
    def score(self) -> float: ...


def ranked_ids(points: Iterable[ScoredPayload]) -> list[RankedId]:
    """An engine's answer as chunk ids, best first, equal scores in chunk-id order. Notes of the same text (a
    template's placeholder in ten notes) score exactly alike, and the engine orders them by its graph, which each
    index build lays out anew: so the same question over the same notes ranks alike on every run and machine."""
    ranked = [RankedId(str((point.payload or {})[CHUNK_ID]), float(point.score)) for point in points]
    ranked.sort(key=lambda entry: (-entry.score, entry.chunk_id))
    return ranked


def point_id(chunk_id: str) -> str:
    """Qdrant accepts only integers and UUIDs as point ids; uuid5 keeps the mapping stable."""
    return str(uuid.uuid5(POINT_NAMESPACE, chunk_id))


def folders_of(path: str) -> list[str]:
    """Every ancestor folder of a vault path: `A/B/n.md` → ["A", "A/B"]; a note at the root has none."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def chunk_payload(chunk: Chunk) -> dict[str, object]:
    return {
        CHUNK_ID: chunk.id,
        PATH: chunk.path,
        FOLDERS: folders_of(chunk.path),
        TAGS: list(chunk.tags),
        MTIME: float(chunk.mtime),
    }


@dataclass(frozen=True, slots=True)
class FilterTerms:
    """SearchFilters reduced to payload conditions, engine-neutral. None means "no condition"."""

    folder: str | None = None
    tag: str | None = None
    mtime_gte: float | None = None
    mtime_lte: float | None = None


def filter_terms(filters: SearchFilters) -> FilterTerms:
    """The same semantics as `SearchFilters.accepts`, so the dense and keyword legs agree on every chunk."""
    return FilterTerms(
        folder=filters.folder.rstrip("/") if filters.folder is not None else None,
        tag=filters.tag.lower().lstrip("#") if filters.tag is not None else None,
        mtime_gte=filters.modified_after,
        mtime_lte=filters.modified_before,
    )


def storage_name(collection: str) -> str:
    """A collection name safe as a folder and a Qdrant collection name, reversible with `collection_of`.

    Fingerprints such as `hf.co/org/model:q4@768` hold `/` and `:`; percent-encoding keeps readable names
    (`nomic-embed-text@768`) readable.
    """
    if not collection:
        raise ValueError("empty collection name")
    encoded = quote(collection, safe="@.-_+")
    # A leading dot would make `.` / `..` (or a hidden folder) out of a name.
    return "%2E" + encoded[1:] if encoded.startswith(".") else encoded


def collection_of(name: str) -> str:
    return unquote(name)


def check_upsert(chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]], dim: int, label: str) -> None:
    """Both stores refuse a mismatched batch the same way, before anything is written."""
    if len(chunks) != len(vectors):
        raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
    check_dims(vectors, dim, label)


def check_dims(vectors: Sequence[Sequence[float]], dim: int, label: str) -> None:
    for vector in vectors:
        if len(vector) != dim:
            raise StoreError(
                f"{label} holds {dim}-d vectors, got one with {len(vector)} values (did the embedding model change?)"
            )
