"""Opening an embedded shard: its config and payload indexes, the free-space guard and how engine errors read."""

from __future__ import annotations

import shutil
from pathlib import Path

from qdrant_edge import (
    Distance,
    EdgeConfig,
    EdgeOptimizersConfig,
    EdgeShard,
    EdgeVectorParams,
    PayloadSchemaType,
    UpdateOperation,
)

from askvault.errors import StoreError
from askvault.store.vectors.edge_build import recover, shard_config
from askvault.store.vectors.edge_collections import CONFIG_FILE
from askvault.store.vectors.edge_graph import payload_index
from askvault.store.vectors.payload import FOLDERS, KEYWORD_FIELDS, MTIME, TAGS

MIN_FREE_BYTES = 64 * 1024 * 1024
"""The engine writes through memory-mapped, preallocated 32 MiB WAL segments: on a full disk such a write kills
the whole process with SIGBUS instead of failing. Below this much free space writes are refused with a
StoreError (dense search turns off with that sentence; the manifest and keyword search carry on)."""
_FILTERED = (FOLDERS, TAGS)
"""The keyword fields filters match (with the float `mtime`): `chunk_id` and `path` are only read back, and an
index on them would hold every chunk's id and path in memory (≈ 1 KB a point together, 1 GB at a million)."""


def _config(dim: int) -> EdgeConfig:
    # indexing_threshold=0 keeps segments plain: `optimize` then only vacuums deleted points and never
    # spends seconds building an HNSW graph that exact search does not need.
    return EdgeConfig(
        vectors=EdgeVectorParams(size=dim, distance=Distance.Cosine),
        optimizers=EdgeOptimizersConfig(indexing_threshold=0),
    )


def check_free_space(path: Path) -> None:
    where = next((p for p in (path, *path.parents) if p.exists()), path)
    try:
        free = shutil.disk_usage(where).free
    except OSError:
        return
    if free < MIN_FREE_BYTES:
        raise StoreError(
            f"the disk holding the vector store is nearly full ({free // 2**20} MiB free, "
            f"{MIN_FREE_BYTES // 2**20} MiB needed); free some space, then reindex"
        )


def describe(exc: Exception) -> str:
    text = str(exc)
    if "WouldBlock" in text:
        return "it is open in another process (is another Ask Vault running on this vault?)"
    return text


def load_or_create(path: Path, collection: str, dim: int) -> EdgeShard:
    check_free_space(path)
    recover(path)
    exists = (path / CONFIG_FILE).is_file()
    try:
        if exists:
            shard = EdgeShard.load(str(path), shard_config(path, dim))
        else:
            path.mkdir(parents=True, exist_ok=True)
            shard = EdgeShard.create(str(path), _config(dim))
    except Exception as exc:
        if "incompatible" in str(exc).lower():
            raise StoreError(
                f"vector collection {collection!r} at {path} does not hold {dim}-d cosine vectors "
                f"({exc}); drop it to rebuild"
            ) from exc
        raise StoreError(f"cannot open vector collection {collection!r} at {path}: {describe(exc)}") from exc
    try:
        indexed = set(shard.info().payload_schema)
        for field in _FILTERED:
            if field not in indexed:
                shard.update(UpdateOperation.create_field_index(field, payload_index(PayloadSchemaType.Keyword)))
        for field in set(KEYWORD_FIELDS) - set(_FILTERED):
            if field in indexed:  # made by earlier versions; never matched, ~0.5 KB a point each
                shard.update(UpdateOperation.delete_field_index(field))
        if MTIME not in indexed:
            shard.update(UpdateOperation.create_field_index(MTIME, payload_index(PayloadSchemaType.Float)))
    except Exception as exc:
        shard.close()
        raise StoreError(f"cannot index payload of vector collection at {path}: {exc}") from exc
    return shard
