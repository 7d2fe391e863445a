"""docs/api.md JSON → the tools' results: search bodies and answer events, including failures."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from askvault.mcp.shapes import AnswerFailed, ask_output, search_output


def source(n: int | None, path: str, heading: list[str], start: int = 1) -> dict[str, object]:
    return {
        "n": n,
        "id": f"id-{path}-{start}",
        "path": path,
        "title": path.rsplit("/", 1)[-1].removesuffix(".md"),
        "heading_path": heading,
        "start_line": start,
        "end_line": start + 4,
        "text": "text",
        "dense_rank": 1,
        "keyword_rank": None,
        "fused_score": 0.016,
        "sent": n is not None,
    }


RETRIEVAL = {
    "type": "retrieval",
    "question": "What port?",
    "query": "What port?",
    "rewritten": False,
    "sources": [
        source(2, "Homelab/Proxy.md", ["Proxy"], 7),
        source(1, "Homelab/Postgres.md", ["Postgres", "Port"], 10),
        source(None, "Ideas/Gardening.md", []),
    ],
    "sent": ["id-Homelab/Postgres.md-10", "id-Homelab/Proxy.md-7"],
}


def done(
    answer: str, citations: list[int], invalid: list[int] | None = None, no_results: bool = False
) -> dict[str, object]:
    return {
        "type": "done",
        "answer": answer,
        "citations": citations,
        "invalid_citations": invalid or [],
        "no_results": no_results,
        "metrics": {},
    }


def test_answer_with_numbered_sent_sources() -> None:
    out = ask_output([RETRIEVAL, {"type": "token", "text": "5433 [1]."}, done("5433 [1]. See [9].", [1], [9])])
    assert out.answer == "5433 [1]. See [9]."
    assert out.citations == [1]
    assert out.invalid_citations == [9]
    assert [(s.n, s.path, s.heading, s.cited) for s in out.sources] == [
        (1, "Homelab/Postgres.md", "Postgres › Port", True),
        (2, "Homelab/Proxy.md", "Proxy", False),
    ]
    assert (out.sources[0].start_line, out.sources[0].end_line) == (10, 14)


@pytest.mark.parametrize(
    ("extra", "truncated"),
    [
        pytest.param({"done_reason": "length", "truncated": True}, True, id="cut"),
        pytest.param({"done_reason": "stop", "truncated": False}, False, id="whole"),
        pytest.param({}, False, id="older-sidecar"),
    ],
)
def test_an_answer_cut_at_the_length_limit_says_so(extra: dict[str, object], truncated: bool) -> None:
    out = ask_output([RETRIEVAL, {**done("5433 [1", []), **extra}])
    assert out.truncated is truncated


def test_no_results_is_an_answer_not_an_error() -> None:
    nothing = {**RETRIEVAL, "sources": [], "sent": []}
    out = ask_output([nothing, {"type": "token", "text": "Nothing."}, done("Nothing.", [], no_results=True)])
    assert out.no_results
    assert out.sources == []


def test_an_abstention_reports_the_reason_and_the_closest_notes() -> None:
    closest = [{**source(None, "Homelab/Postgres.md", ["Postgres", "Port"], 10), "dense_score": 0.21}]
    relevance = {"answer": False, "reason": "Your notes do not seem to cover this question (relevance 0.10)."}
    unsent = [source(None, "Homelab/Proxy.md", ["Proxy"], 7), source(None, "Homelab/Postgres.md", ["Postgres"], 10)]
    abstained = {**RETRIEVAL, "sources": unsent, "sent": [], "relevance": relevance, "closest": closest}
    out = ask_output([abstained, {"type": "token", "text": "Not covered."}, done("Not covered.", [], no_results=True)])
    assert (out.abstained, out.no_results, out.sources) == (True, True, [])
    assert out.reason == relevance["reason"]
    assert [(c.path, c.heading, c.start_line, c.dense_score, c.keyword_score) for c in out.closest] == [
        ("Homelab/Postgres.md", "Postgres › Port", 10, 0.21, None)
    ]


def test_an_older_sidecar_without_the_decision_never_abstains() -> None:
    out = ask_output([RETRIEVAL, done("5433 [1].", [1])])
    assert (out.abstained, out.reason, out.closest) == (False, "", [])


@pytest.mark.parametrize(
    ("events", "words"),
    [
        (
            [RETRIEVAL, {"type": "error", "code": "model_missing", "message": "run `ollama pull x`", "partial": ""}],
            "run `ollama pull x`.",
        ),
        (
            [
                RETRIEVAL,
                {"type": "token", "text": "5433"},
                {"type": "error", "code": "ollama_timeout", "message": "Ollama timed out.", "partial": "5433"},
            ],
            "Ollama timed out. The answer broke off after: '5433'",
        ),
        ([RETRIEVAL, {"type": "token", "text": "5433"}], "ended without its closing event"),
    ],
    ids=["model-missing", "broke-off", "no-terminal-event"],
)
def test_failed_answers_raise_readable_errors(events: list[Mapping[str, object]], words: str) -> None:
    with pytest.raises(AnswerFailed) as caught:
        ask_output(events)
    assert words in caught.value.message


def test_search_body_gets_ranks_and_trails() -> None:
    body = {
        "query": "port",
        "terms": [],
        "counts": {"dense": 3, "keyword": 1},
        "results": [source(None, "Homelab/Postgres.md", ["Postgres", "Port"], 10), source(None, "A.md", [])],
        "timings_ms": {},
    }
    out = search_output(body)
    assert out.counts == {"dense": 3, "keyword": 1}
    assert [(h.rank, h.path, h.heading) for h in out.results] == [
        (1, "Homelab/Postgres.md", "Postgres › Port"),
        (2, "A.md", ""),
    ]
    assert out.results[0].keyword_rank is None
