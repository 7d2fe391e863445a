"""Why a note was or was not used → the body of `POST /api/explain` (docs/api.md), also `askvault explain --json`."""

from __future__ import annotations

from askvault.ask.explain import Explanation, LegEntry
from askvault.wire.events import JsonObject, relevance_to_json


def leg_to_json(entry: LegEntry | None) -> JsonObject | None:
    if entry is None:
        return None
    return {
        "chunk_id": entry.chunk.id,
        "heading_path": list(entry.chunk.heading_path),
        "start_line": entry.chunk.start_line,
        "end_line": entry.chunk.end_line,
        "rank": entry.rank,
        "score": round(entry.score, 4),
    }


def explanation_to_json(explanation: Explanation) -> JsonObject:
    status = explanation.status
    reason: JsonObject | None = None
    if status.state != "indexed":
        reason = {"rule": status.rule, "detail": status.detail}
    return {
        "question": explanation.question,
        "note": {
            "path": status.path,
            "title": status.title if status.state == "indexed" else None,
            "status": status.state,
            "indexed_at": status.indexed_at,
            "chunks": status.chunks if status.state == "indexed" else 0,
            "reason": reason,
        },
        "sent": explanation.sent,
        "summary": explanation.summary,
        "best": {
            "dense": leg_to_json(explanation.dense),
            "keyword": leg_to_json(explanation.keyword),
            "fused": leg_to_json(explanation.fused),
        },
        "terms": {"matched": list(explanation.matched), "missing": list(explanation.missing)},
        "cut": {
            "k": explanation.k,
            "sent": explanation.sent_count,
            "last_score": None if explanation.last_score is None else round(explanation.last_score, 4),
        },
        "dense_available": explanation.dense_available,
        "factors": [{"kind": f.kind, "detail": f.detail} for f in explanation.factors],
        "relevance": relevance_to_json(explanation.decision),
    }
