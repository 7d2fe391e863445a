"""Search results → the JSON shapes of docs/api.md, shared by the sidecar API, the CLI and the MCP server."""

from __future__ import annotations

from askvault.model import Chunk, Hit, SearchResult, TermStat


def chunk_to_json(chunk: Chunk) -> dict[str, object]:
    """The body of `GET /api/chunks/{id}`."""
    return {
        "id": chunk.id,
        "path": chunk.path,
        "title": chunk.title,
        "heading_path": list(chunk.heading_path),
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "text": chunk.text,
    }


def hit_to_json(hit: Hit) -> dict[str, object]:
    """One search result: the chunk plus both 1-based ranks (null when a method missed it) and the fused score.

    `via` ("link" / "neighbour") is present only when an optional graph signal placed the hit, so the shape is
    unchanged with those signals off.
    """
    shape: dict[str, object] = {
        **chunk_to_json(hit.chunk),
        "dense_rank": hit.dense_rank,
        "keyword_rank": hit.keyword_rank,
        "fused_score": hit.fused_score,
    }
    if hit.via is not None:
        shape["via"] = hit.via
    return shape


def term_to_json(term: TermStat) -> dict[str, object]:
    return {"term": term.term, "df": term.df, "idf": term.idf}


def search_result_to_json(result: SearchResult) -> dict[str, object]:
    """The body of `POST /api/search`."""
    return {
        "query": result.query,
        "terms": [term_to_json(t) for t in result.terms],
        "counts": dict(result.counts),
        "results": [hit_to_json(h) for h in result.hits],
        "timings_ms": dict(result.timings_ms),
    }
