"""Each event's line (askvault.wire.events) has exactly the keys docs/api.md gives the `/api/ask` NDJSON events."""

from __future__ import annotations

import dataclasses
import json
from datetime import date

import pytest

from askvault.ask.events import (
    AskEvent,
    DoneEvent,
    ErrorEvent,
    Metrics,
    RetrievalEvent,
    SourceRef,
    TokenEvent,
)
from askvault.ask.relevance import FALLBACK, RelevanceSignals, decide
from askvault.model import DateScopeReport, Message, TermStat
from askvault.wire.events import event_to_json
from tests.generate.hits import make_hit

# Copied from docs/api.md, `POST /api/ask`.
RETRIEVAL_KEYS = {
    "type",
    "question",
    "query",
    "rewritten",
    "terms",
    "counts",
    "sources",
    "sent",
    "prompt",
    "timings_ms",
    "rerank",
    "date_scope",
    "relevance",
    "closest",
}
SOURCE_KEYS = {
    "n",
    "id",
    "path",
    "title",
    "heading_path",
    "start_line",
    "end_line",
    "text",
    "dense_rank",
    "keyword_rank",
    "fused_score",
    "dense_score",
    "keyword_score",
    "sent",
}
RELEVANCE_KEYS = {"answer", "score", "threshold", "signals", "calibration", "forced", "reason"}
SIGNAL_KEYS = {"top_dense", "keyword_strength", "term_coverage", "legs_agree", "dense_gap", "dense_available"}
DONE_KEYS = {
    "type",
    "answer",
    "citations",
    "invalid_citations",
    "no_results",
    "sanitized_answer",
    "neutralised",
    "done_reason",
    "truncated",
    "metrics",
}
METRIC_KEYS = {
    "embed_ms",
    "retrieval_ms",
    "first_token_ms",
    "generation_ms",
    "total_ms",
    "prompt_tokens",
    "completion_tokens",
}

METRICS = Metrics(10.0, 3.1, 200.5, 900.0, 950.2, 812, 14)


def _retrieval() -> RetrievalEvent:
    sent = make_hit(1, "Postgres listens on 5433.", title="Postgres", path="Homelab/Postgres.md")
    unsent = make_hit(2, "Backups run nightly.", legs="dense")
    return RetrievalEvent(
        question="and its port?",
        query="What port does Postgres use?",
        rewritten=True,
        terms=(TermStat("postgres", 1, 7.2),),
        counts={"dense": 50, "keyword": 4},
        sources=(SourceRef(1, sent), SourceRef(None, unsent)),
        prompt=(Message("system", "rules"), Message("user", "sources and question")),
        embed_ms=10.0,
        retrieval_ms=3.1,
    )


def test_retrieval_event_shape() -> None:
    body = event_to_json(_retrieval())
    assert set(body) == RETRIEVAL_KEYS
    assert body["type"] == "retrieval"
    assert body["terms"] == [{"term": "postgres", "df": 1, "idf": 7.2}]
    assert body["counts"] == {"dense": 50, "keyword": 4}
    assert body["sent"] == ["chunk-1"]
    assert body["prompt"] == [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "sources and question"},
    ]
    assert body["timings_ms"] == {"embed": 10.0, "retrieval": 3.1}
    assert body["rerank"] is None  # reranking off
    sources = body["sources"]
    assert isinstance(sources, list)
    assert all(isinstance(s, dict) and set(s) == SOURCE_KEYS for s in sources)
    assert sources[0] == {
        "n": 1,
        "id": "chunk-1",
        "path": "Homelab/Postgres.md",
        "title": "Postgres",
        "heading_path": ["Postgres"],
        "start_line": 1,
        "end_line": 1,
        "text": "Postgres listens on 5433.",
        "dense_rank": 1,
        "keyword_rank": 1,
        "fused_score": 2.0 / 61,
        "dense_score": 0.8,
        "keyword_score": 5.0,
        "sent": True,
    }
    assert isinstance(sources[1], dict)
    assert (sources[1]["n"], sources[1]["sent"], sources[1]["keyword_rank"]) == (None, False, None)
    assert (sources[1]["dense_score"], sources[1]["keyword_score"]) == (0.8, None)
    assert (body["relevance"], body["closest"]) == (None, [])


def test_retrieval_event_carries_the_relevance_decision_and_the_closest_notes() -> None:
    signals = RelevanceSignals(0.312345, None, None, False, None)
    decision = decide(signals, FALLBACK)
    closest = (SourceRef(None, make_hit(3, "Boats.", legs="dense", dense_score=0.312345)),)
    body = event_to_json(dataclasses.replace(_retrieval(), relevance=decision, closest=closest))

    relevance = body["relevance"]
    assert isinstance(relevance, dict)
    assert set(relevance) == RELEVANCE_KEYS
    assert relevance == {
        "answer": False,
        "score": round(decision.score, 4),
        "threshold": 0.5,
        "signals": {
            "top_dense": 0.3123,
            "keyword_strength": None,
            "term_coverage": None,
            "legs_agree": False,
            "dense_gap": None,
            "dense_available": True,
        },
        "calibration": {"model": "*", "source": FALLBACK.source},
        "forced": False,
        "reason": decision.reason,
    }
    assert isinstance(relevance["signals"], dict)
    assert set(relevance["signals"]) == SIGNAL_KEYS
    shown = body["closest"]
    assert isinstance(shown, list)
    assert [(c["id"], c["sent"], c["n"], c["dense_score"]) for c in shown if isinstance(c, dict)] == [
        ("chunk-3", False, None, 0.3123)
    ]
    assert json.loads(json.dumps(body)) == body


def test_retrieval_event_without_a_date_phrase_has_a_null_scope() -> None:
    assert event_to_json(_retrieval())["date_scope"] is None


DATE_SCOPES = [
    (
        DateScopeReport("last week", date(2024, 3, 11), date(2024, 3, 18), True, "note_date_then_mtime", 7),
        {"phrase": "last week", "start": "2024-03-11", "end": "2024-03-18", "applied": True,
         "basis": "note_date_then_mtime", "notes": 7, "fallback_reason": None},
    ),
    (
        DateScopeReport("since 2025-01", date(2025, 1, 1), None, False, "note_date_then_mtime", 0, "nothing_in_range"),
        {"phrase": "since 2025-01", "start": "2025-01-01", "end": None, "applied": False,
         "basis": "note_date_then_mtime", "notes": 0, "fallback_reason": "nothing_in_range"},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("scope", "shape"), DATE_SCOPES, ids=["applied", "fell-back-open-end"])
def test_retrieval_event_reports_the_date_scope(scope: DateScopeReport, shape: dict[str, object]) -> None:
    body = event_to_json(dataclasses.replace(_retrieval(), date_scope=scope))

    assert body["date_scope"] == shape
    assert json.loads(json.dumps(body))["date_scope"] == shape


def test_token_event_shape() -> None:
    assert event_to_json(TokenEvent("Postgres listens on 5433 [1].")) == {
        "type": "token",
        "text": "Postgres listens on 5433 [1].",
    }


def test_done_event_shape() -> None:
    body = event_to_json(DoneEvent("Port 5433 [1] [7].", (1,), (7,), False, METRICS))
    assert set(body) == DONE_KEYS
    assert body == {
        "type": "done",
        "answer": "Port 5433 [1] [7].",
        "citations": [1],
        "invalid_citations": [7],
        "no_results": False,
        "sanitized_answer": False,
        "neutralised": [],
        "done_reason": None,
        "truncated": False,
        "metrics": {
            "embed_ms": 10.0,
            "retrieval_ms": 3.1,
            "first_token_ms": 200.5,
            "generation_ms": 900.0,
            "total_ms": 950.2,
            "prompt_tokens": 812,
            "completion_tokens": 14,
        },
    }
    metrics = body["metrics"]
    assert isinstance(metrics, dict)
    assert set(metrics) == METRIC_KEYS


def test_error_event_shape() -> None:
    body = event_to_json(ErrorEvent("model_missing", "run `ollama pull llama3.2:3b`", "Post"))
    assert body == {
        "type": "error",
        "code": "model_missing",
        "message": "run `ollama pull llama3.2:3b`",
        "partial": "Post",
    }


def test_every_event_is_one_ndjson_line() -> None:
    done = DoneEvent("a", (), (), True, METRICS)
    events: list[AskEvent] = [_retrieval(), TokenEvent("a\nb"), done, ErrorEvent("x", "y", "")]
    for event in events:
        line = json.dumps(event_to_json(event))
        assert "\n" not in line
        assert json.loads(line) == event_to_json(event)
