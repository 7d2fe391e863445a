"""Search and related-notes results → their JSON shapes (docs/api.md), for the sidecar API, the CLI and MCP."""

from __future__ import annotations

from askvault.model import Chunk, DateScopeReport, Hit, Noise, SearchResult, TermStat
from askvault.parse.documents import page_of
from askvault.retrieve.related import RelatedResult


def chunk_to_json(chunk: Chunk) -> dict[str, object]:
    """The body of `GET /api/chunks/{id}`; a PDF's chunk also has the `page` it starts on (1-based)."""
    shaped: dict[str, object] = {
        "id": chunk.id,
        "path": chunk.path,
        "title": chunk.title,
        "heading_path": list(chunk.heading_path),
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "text": chunk.text,
    }
    if (page := page_of(chunk.path, chunk.heading_path)) is not None:
        shaped["page"] = page
    return shaped


def noise_to_json(noise: Noise) -> dict[str, int] | None:
    """A chunk's template, link and query shares in percent (`chunk.boilerplate`); None for a chunk of prose."""
    if noise.informative >= 100:
        return None
    return {"template": noise.template, "links": noise.links, "query": noise.query, "informative": noise.informative}


def hit_to_json(hit: Hit) -> dict[str, object]:
    """One search result: the chunk plus both 1-based ranks (null when a method missed it) and the fused score.

    `boosts` (query-side boosts) and `noise` (what share of it is template, link or query lines) are present only
    when set, so plain results keep their shape.
    """
    shaped: dict[str, object] = {
        **chunk_to_json(hit.chunk),
        "dense_rank": hit.dense_rank,
        "keyword_rank": hit.keyword_rank,
        "fused_score": hit.fused_score,
    }
    if hit.boosts:
        shaped["boosts"] = list(hit.boosts)
    if (noise := noise_to_json(hit.chunk.noise)) is not None:
        shaped["noise"] = noise
    return shaped


def term_to_json(term: TermStat) -> dict[str, object]:
    return {"term": term.term, "df": term.df, "idf": term.idf}


def date_scope_to_json(scope: DateScopeReport | None) -> dict[str, str | int | bool | None] | None:
    """The `date_scope` of a search or retrieval event: ISO days, `end` exclusive; null when no phrase was used."""
    if scope is None:
        return None
    return {
        "phrase": scope.phrase,
        "start": scope.start.isoformat() if scope.start is not None else None,
        "end": scope.end.isoformat() if scope.end is not None else None,
        "applied": scope.applied,
        "basis": scope.basis,
        "notes": scope.notes,
        "fallback_reason": scope.fallback_reason,
    }


def search_result_to_json(result: SearchResult) -> dict[str, object]:
    """The body of `POST /api/search`."""
    return {
        "query": result.query,
        "terms": [term_to_json(t) for t in result.terms],
        "counts": dict(result.counts),
        "results": [hit_to_json(h) for h in result.hits],
        "timings_ms": result.timings.to_json(),
        "date_scope": date_scope_to_json(result.date_scope),
    }


def _passage(chunk: Chunk) -> dict[str, object]:
    shaped: dict[str, object] = {
        "chunk_id": chunk.id,
        "heading_path": list(chunk.heading_path),
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "text": chunk.text,
    }
    if (page := page_of(chunk.path, chunk.heading_path)) is not None:
        shaped["page"] = page
    if (noise := noise_to_json(chunk.noise)) is not None:
        shaped["noise"] = noise
    return shaped


def related_to_json(result: RelatedResult) -> dict[str, object]:
    """The body of `POST /api/related`, also what `askvault related --json` prints."""
    return {
        "path": result.path,
        "method": result.method,
        "results": [
            {
                "path": hit.path,
                "title": hit.title,
                "score": hit.score,
                "passage": _passage(hit.passage),
            }
            for hit in result.hits
        ],
        "timings_ms": dict(result.timings_ms),
    }
