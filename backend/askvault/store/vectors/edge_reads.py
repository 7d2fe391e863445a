"""The embedded store's reads from a shard: the search filter and query request, and paged reads of ids and vectors."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import cast

from qdrant_edge import EdgeShard, FieldCondition, Filter, MatchValue, Query, QueryRequest, RangeFloat, ScrollRequest

from askvault.model import SearchFilters
from askvault.store.vectors.edge_graph import GraphParams, search_params
from askvault.store.vectors.payload import CHUNK_ID, FOLDERS, MTIME, TAGS, filter_terms

_SCROLL_PAGE = 2048


def edge_filter(filters: SearchFilters) -> Filter | None:
    terms = filter_terms(filters)
    must: list[FieldCondition] = []
    if terms.folder is not None:
        must.append(FieldCondition(FOLDERS, match=MatchValue(terms.folder)))
    if terms.tag is not None:
        must.append(FieldCondition(TAGS, match=MatchValue(terms.tag)))
    if terms.mtime_gte is not None or terms.mtime_lte is not None:
        must.append(FieldCondition(MTIME, range=RangeFloat(gte=terms.mtime_gte, lte=terms.mtime_lte)))
    return Filter(must=list(must)) if must else None


def query_request(
    vector: Sequence[float], limit: int, filters: SearchFilters, graph: GraphParams | None, segments: int
) -> QueryRequest:
    where = edge_filter(filters)
    return QueryRequest(
        limit=limit,
        query=Query.Nearest([float(x) for x in vector]),
        filter=where,
        with_payload=[CHUNK_ID],
        with_vector=False,
        params=search_params(graph, filtered=where is not None, segments=segments),
    )


def scan_ids(shard: EdgeShard) -> set[str]:
    found: set[str] = set()
    offset: str | int | None = None
    while True:
        records, next_offset = shard.scroll(
            ScrollRequest(offset=offset, limit=_SCROLL_PAGE, with_payload=[CHUNK_ID], with_vector=False)
        )
        found.update(str((r.payload or {})[CHUNK_ID]) for r in records)
        if next_offset is None:
            return found
        offset = str(next_offset)


def read_vectors(shard: EdgeShard, ids: list[str | int | uuid.UUID]) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    for start in range(0, len(ids), _SCROLL_PAGE):
        for record in shard.retrieve(ids[start : start + _SCROLL_PAGE], [CHUNK_ID], True):
            vector = record.vector
            if isinstance(vector, list) and record.payload:
                found[str(record.payload[CHUNK_ID])] = cast(list[float], vector)
    return found
