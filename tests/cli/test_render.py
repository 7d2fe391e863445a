"""The terminal rendering of search results (boosts, graph signals, the date scope) and of an answer's footer."""

from __future__ import annotations

import pytest

from askvault.cli.render import (
    describe_filters,
    render_ask_footer,
    render_date_scope,
    render_relevance,
    render_search,
)

RESULT = {"path": "Network/IP plan.md", "title": "IP plan", "heading_path": ["IP plan"], "start_line": 3,
          "end_line": 9, "text": "kodi-livingroom 10.0.20.31", "dense_rank": 2, "keyword_rank": 1,
          "fused_score": 0.0492, "dense_score": 0.4137, "keyword_score": 7.304}  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        pytest.param({}, "dense #2 (cosine 0.41) · keyword #1 (bm25 7.30)\n", id="plain"),
        pytest.param(
            {"boosts": ["identifier:kodi-livingroom"]},
            "dense #2 (cosine 0.41) · keyword #1 (bm25 7.30) · identifier:kodi-livingroom\n",
            id="boost",
        ),
        # A sidecar's /api/search body has ranks but no raw scores: the ranks alone, never a blank.
        pytest.param({"dense_score": None, "keyword_score": None}, "dense #2 · keyword #1\n", id="ranks-only"),
        pytest.param({"dense_rank": None, "dense_score": None}, "dense – · keyword #1 (bm25 7.30)\n", id="one-leg"),
        pytest.param(
            {"boosts": ["boilerplate"], "noise": {"template": 0, "links": 80, "query": 20, "informative": 0}},
            "dense #2 (cosine 0.41) · keyword #1 (bm25 7.30) · boilerplate · links 80%, query 20%\n",
            id="noise",
        ),
    ],
)
def test_a_result_names_what_moved_it(extra: dict[str, object], expected: str) -> None:
    assert expected in render_search({"results": [{**RESULT, **extra}]})


@pytest.mark.parametrize(
    ("extra", "place"),
    [
        pytest.param({}, "Network/IP plan.md › IP plan  (lines 3–9)", id="note"),
        pytest.param(
            {"path": "Manuals/Boiler.pdf", "heading_path": ["Page 2"], "page": 2},
            "Manuals/Boiler.pdf › Page 2  (page 2)",
            id="pdf",
        ),
        pytest.param({"path": "Board.canvas", "heading_path": []}, "Board.canvas  (canvas)", id="canvas"),
        pytest.param({"path": "Docs:guide/setup.md"}, "Docs:guide/setup.md › IP plan  (lines 3–9)", id="source"),
    ],
)
def test_a_result_says_where_it_is(extra: dict[str, object], place: str) -> None:
    assert f" 1. {place}\n" in render_search({"results": [{**RESULT, **extra}]})


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        pytest.param(
            {"phrase": "last week", "start": "2026-11-16", "end": "2026-11-23", "applied": True, "notes": 7},
            'dates: "last week" → 2026-11-16 … 2026-11-22 (7 notes)',
            id="applied",
        ),
        pytest.param(
            {
                "phrase": "since 2025-01",
                "start": "2025-01-01",
                "end": None,
                "applied": False,
                "fallback_reason": "nothing_in_range",
            },
            'dates: "since 2025-01" → 2025-01-01 … open, not applied: nothing_in_range',
            id="open-end-fallback",
        ),
    ],
)
def test_the_date_scope_line(scope: dict[str, object], expected: str) -> None:
    assert render_date_scope(scope) == expected
    assert render_search({"results": [RESULT], "date_scope": scope}).splitlines()[-1] == expected


CLOSE = {"path": "Homelab/Kodi.md", "heading_path": ["Kodi"], "start_line": 1, "end_line": 4, "dense_score": 0.2137,
         "keyword_score": None}  # fmt: skip


@pytest.mark.parametrize(
    ("relevance", "closest", "expected"),
    [
        pytest.param({"answer": True, "forced": False, "reason": "Relevant."}, [], [], id="answered"),
        pytest.param(
            {"answer": False, "forced": False, "reason": "Not covered (relevance 0.41, needs 0.50)."},
            [CLOSE],
            [
                "",
                "Not covered (relevance 0.41, needs 0.50).",
                "No model was asked. Closest notes:",
                "  Homelab/Kodi.md › Kodi (lines 1–4)  dense 0.2137 · bm25 –",
                "Ask anyway with --force.",
            ],
            id="abstained",
        ),
        pytest.param(
            {"answer": True, "forced": True, "reason": "Sent anyway as you asked."},
            [],
            ["", "Sent anyway as you asked."],
            id="forced",
        ),
        pytest.param(None, [], [], id="older-sidecar"),
    ],
)
def test_the_relevance_lines(relevance: object, closest: list[object], expected: list[str]) -> None:
    assert render_relevance({"relevance": relevance, "closest": closest}) == expected


@pytest.mark.parametrize(
    ("result", "line"),
    [
        pytest.param({"truncated": True, "done_reason": "length"}, "the length limit", id="cap"),
        pytest.param({"truncated": True, "done_reason": "repetition"}, "the model kept repeating itself", id="loop"),
        pytest.param({}, None, id="whole"),
    ],
)
def test_the_footer_says_when_the_answer_was_cut(result: dict[str, object], line: str | None) -> None:
    footer = render_ask_footer(result)
    if line is None:
        assert "cut short" not in footer
    else:
        assert f"(the answer was cut short: {line})" in footer


NOT_COVERED = {
    "answer": False,
    "forced": False,
    "reason": "Your notes do not seem to cover this question (relevance 0.01, needs 0.50).",
}
COVERED = {
    "answer": True,
    "forced": False,
    "reason": "Your notes look relevant to this question (relevance 0.93, needs 0.22).",
}


def test_results_the_notes_do_not_cover_say_so_first_and_show_no_normalised_score() -> None:
    best = {**RESULT, "fused_score": 1.0}
    lines = render_search({"results": [best], "relevance": NOT_COVERED}).splitlines()

    assert lines[0] == (
        "relevance: Your notes do not seem to cover this question (relevance 0.01, needs 0.50); the closest passages:"
    )
    assert not any("fused" in line or "1.0000" in line for line in lines)


def test_results_the_notes_cover_end_with_the_decision() -> None:
    lines = render_search({"results": [RESULT], "relevance": COVERED, "counts": {"dense": 3, "keyword": 1}})

    assert lines.splitlines()[-2:] == [
        "relevance: Your notes look relevant to this question (relevance 0.93, needs 0.22).",
        "matched: dense 3, keyword 1",
    ]


@pytest.mark.parametrize(
    ("filters", "words"),
    [
        pytest.param((None, None, None, None), [], id="none"),
        pytest.param(("Work/", None, None, None), ["in the folder 'Work/'"], id="folder"),
        pytest.param((None, "#db", None, None), ["tagged #db"], id="tag-with-hash"),
        pytest.param((None, "db", None, None), ["tagged #db"], id="tag-without-hash"),
        pytest.param(
            (None, None, "2026-01-01", "2026-02-01"),
            ["modified after 2026-01-01", "modified before 2026-02-01"],
            id="dates",
        ),
    ],
)
def test_the_filters_in_words(filters: tuple[str | None, str | None, str | None, str | None], words: list[str]) -> None:
    assert describe_filters(*filters) == words


def test_an_empty_result_names_its_filters() -> None:
    assert render_search({"results": []}) == "No results."
    assert render_search({"results": []}, ["tagged #db"]) == (
        "No results among the notes tagged #db; check that filter, or leave it out to search every note."
    )
    # Results are shown as ever when there are some, filtered or not.
    assert render_search({"results": [RESULT]}, ["tagged #db"]).startswith(" 1. Network/IP plan.md")


def test_a_question_whose_filters_left_nothing_names_them() -> None:
    relevance = {"answer": False, "reason": "Nothing in your notes matched the question."}

    narrowed = render_relevance({"relevance": relevance, "closest": []}, ["tagged #db"])
    unfiltered = render_relevance({"relevance": relevance, "closest": []})
    closest = render_relevance({"relevance": relevance, "closest": [{**RESULT, "start_line": 3}]}, ["tagged #db"])

    assert narrowed[1] == (
        "Nothing matched among the notes tagged #db; check that filter, or leave it out to search every note."
    )
    assert unfiltered[1] == "Nothing in your notes matched the question."
    # Something was found under the filter, only not enough: the usual reason and the closest notes.
    assert closest[1] == "Nothing in your notes matched the question."
