"""Retrieval metrics against hand-computed cases."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import pytest

from askvault.evaluate.metrics import (
    QuestionScore,
    evidence_hit_at_k,
    path_recall_at_k,
    reciprocal_rank,
    score_question,
    summarise,
)


@pytest.mark.parametrize(
    ("ranked", "expected", "k", "recall"),
    [
        pytest.param(["a", "b", "c"], ["a"], 1, 1.0, id="first-hit"),
        pytest.param(["b", "a"], ["a"], 1, 0.0, id="just-outside-k"),
        pytest.param(["b", "a"], ["a"], 2, 1.0, id="inside-k"),
        pytest.param(["a", "a", "b"], ["a", "b"], 2, 0.5, id="duplicate-chunks-of-one-note-count-once"),
        pytest.param(["a", "a", "b"], ["a", "b"], 3, 1.0, id="both-notes-by-k3"),
        pytest.param(["a", "b"], ["a", "b", "c"], 5, 2 / 3, id="k-beyond-ranking"),
        pytest.param([], ["a"], 3, 0.0, id="empty-ranking"),
        pytest.param(["a"], ["a", "a"], 1, 1.0, id="duplicate-expected-path"),
        pytest.param(["x", "y", "z"], ["a", "b"], 3, 0.0, id="no-expected-note"),
    ],
)
def test_path_recall_at_k(ranked: list[str], expected: list[str], k: int, recall: float) -> None:
    assert path_recall_at_k(ranked, expected, k) == pytest.approx(recall)


@pytest.mark.parametrize(
    ("expected", "k"),
    [pytest.param([], 3, id="no-expected"), pytest.param(["a"], 0, id="k-zero")],
)
def test_path_recall_rejects_undefined_cases(expected: list[str], k: int) -> None:
    with pytest.raises(ValueError, match=r"undefined|k must"):
        path_recall_at_k(["a"], expected, k)


GRUENE_NFD = unicodedata.normalize("NFD", "Grüne Soße")


@pytest.mark.parametrize(
    ("texts", "evidence", "k", "hit"),
    [
        pytest.param(["the port is\n   5433 on the host"], ["port is 5433"], 1, True, id="line-break-in-chunk"),
        pytest.param(["port is 5433"], ["port\nis  5433"], 1, True, id="line-break-in-evidence"),
        pytest.param(["\tport is 5433 "], ["  port is 5433\n"], 1, True, id="surrounding-whitespace"),
        pytest.param(["nothing", "port is 5433"], ["port is 5433"], 1, False, id="beyond-k"),
        pytest.param(["nothing", "port is 5433"], ["port is 5433"], 2, True, id="second-chunk"),
        pytest.param(["b text"], ["a text", "b text"], 1, True, id="any-evidence-string"),
        pytest.param(["Port is 5433"], ["port is 5433"], 1, False, id="case-sensitive"),
        pytest.param([GRUENE_NFD], ["Grüne Soße"], 1, True, id="unicode-normal-forms"),
        pytest.param([], ["port"], 3, False, id="no-chunks"),
        pytest.param(["abc"], ["", "abc"], 1, True, id="blank-evidence-ignored"),
    ],
)
def test_evidence_hit_at_k(texts: list[str], evidence: list[str], k: int, hit: bool) -> None:
    assert evidence_hit_at_k(texts, evidence, k) is hit


@pytest.mark.parametrize(
    ("evidence", "k"),
    [
        pytest.param([], 1, id="no-evidence"),
        pytest.param([" \n "], 1, id="only-blank-evidence"),
        pytest.param(["x"], 0, id="k-zero"),
    ],
)
def test_evidence_hit_rejects_undefined_cases(evidence: list[str], k: int) -> None:
    with pytest.raises(ValueError, match=r"undefined|k must"):
        evidence_hit_at_k(["x"], evidence, k)


@pytest.mark.parametrize(
    ("ranked", "expected", "rr"),
    [
        pytest.param(["a", "b"], ["a"], 1.0, id="rank-1"),
        pytest.param(["b", "a"], ["a"], 0.5, id="rank-2"),
        pytest.param(["c", "c", "b", "a"], ["a", "b"], 1 / 3, id="first-of-several-expected"),
        pytest.param(["x", "y"], ["a"], 0.0, id="missing"),
        pytest.param([], ["a"], 0.0, id="empty-ranking"),
    ],
)
def test_reciprocal_rank(ranked: list[str], expected: list[str], rr: float) -> None:
    assert reciprocal_rank(ranked, expected) == pytest.approx(rr)


def test_reciprocal_rank_needs_expected_paths() -> None:
    with pytest.raises(ValueError, match="undefined"):
        reciprocal_rank(["a"], [])


def test_score_question_answerable() -> None:
    score = score_question(
        question_id="q1",
        type="exact_value",
        mode="hybrid",
        expected_paths=["Postgres.md"],
        evidence=["port 5433"],
        ranked_paths=["Uptime.md", "Postgres.md", "Postgres.md"],
        ranked_texts=["TCP on 5433", "intro", "the port 5433 on the host"],
        top_score=0.9,
        ks=[1, 3],
    )
    assert score == QuestionScore(
        question_id="q1",
        type="exact_value",
        mode="hybrid",
        answerable=True,
        path_recall={1: 0.0, 3: 1.0},
        evidence_hit={1: False, 3: True},
        reciprocal_rank=0.5,
        top_score=0.9,
    )


def test_score_question_negative_keeps_only_the_top_score() -> None:
    score = score_question(
        question_id="n1",
        type="negative",
        mode="dense",
        expected_paths=[],
        evidence=[],
        ranked_paths=["a.md"],
        ranked_texts=["text"],
        top_score=0.41,
        ks=[1, 3],
    )
    assert (score.answerable, score.path_recall, score.evidence_hit, score.reciprocal_rank, score.top_score) == (
        False,
        {},
        {},
        None,
        0.41,
    )


def test_score_question_rejects_mismatched_ranking() -> None:
    with pytest.raises(ValueError, match="same chunks"):
        score_question(
            question_id="q",
            type="paraphrase",
            mode="hybrid",
            expected_paths=["a.md"],
            evidence=["x"],
            ranked_paths=["a.md", "b.md"],
            ranked_texts=["x"],
            top_score=None,
            ks=[1],
        )


def _answerable(
    qid: str, type_: str, mode: str, recall: dict[int, float], hit: dict[int, bool], rr: float
) -> QuestionScore:
    return QuestionScore(qid, type_, mode, True, recall, hit, rr, 0.9)


def _negative(qid: str, mode: str, top: float | None) -> QuestionScore:
    return QuestionScore(qid, "negative", mode, False, {}, {}, None, top)


def _per_question() -> Sequence[QuestionScore]:
    return [
        _answerable("p1", "paraphrase", "hybrid", {1: 1.0, 3: 1.0}, {1: True, 3: True}, 1.0),
        _answerable("p2", "paraphrase", "hybrid", {1: 0.0, 3: 0.5}, {1: False, 3: False}, 0.5),
        _answerable("e1", "exact_value", "hybrid", {1: 0.0, 3: 1.0}, {1: False, 3: True}, 1 / 3),
        _negative("n1", "hybrid", 0.2),
        _negative("n2", "hybrid", 0.5),
        _negative("n3", "hybrid", None),
        _answerable("p1", "paraphrase", "keyword", {1: 0.0, 3: 0.0}, {1: False, 3: False}, 0.0),
        _negative("n1", "keyword", 7.5),
    ]


def test_summarise_by_mode_and_type() -> None:
    summary = summarise(_per_question(), ks=[1, 3])
    assert list(summary) == ["hybrid", "keyword"]
    assert summary["hybrid"] == {
        "questions": 6,
        "answerable": 3,
        "path_recall@1": pytest.approx(1 / 3),
        "evidence_recall@1": pytest.approx(1 / 3),
        "path_recall@3": pytest.approx(2.5 / 3),
        "evidence_recall@3": pytest.approx(2 / 3),
        "mrr": pytest.approx((1.0 + 0.5 + 1 / 3) / 3),
        "negative_top_score": {"questions": 3, "no_hits": 1, "min": 0.2, "median": pytest.approx(0.35), "max": 0.5},
        "by_type": {
            "paraphrase": {
                "questions": 2,
                "answerable": 2,
                "path_recall@1": 0.5,
                "evidence_recall@1": 0.5,
                "path_recall@3": 0.75,
                "evidence_recall@3": 0.5,
                "mrr": 0.75,
                "negative_top_score": {"questions": 0, "no_hits": 0, "min": None, "median": None, "max": None},
            },
            "exact_value": {
                "questions": 1,
                "answerable": 1,
                "path_recall@1": 0.0,
                "evidence_recall@1": 0.0,
                "path_recall@3": 1.0,
                "evidence_recall@3": 1.0,
                "mrr": pytest.approx(1 / 3),
                "negative_top_score": {"questions": 0, "no_hits": 0, "min": None, "median": None, "max": None},
            },
            "negative": {
                "questions": 3,
                "answerable": 0,
                "path_recall@1": None,
                "evidence_recall@1": None,
                "path_recall@3": None,
                "evidence_recall@3": None,
                "mrr": None,
                "negative_top_score": {
                    "questions": 3,
                    "no_hits": 1,
                    "min": 0.2,
                    "median": pytest.approx(0.35),
                    "max": 0.5,
                },
            },
        },
    }


def test_summarise_keeps_modes_apart() -> None:
    keyword = summarise(_per_question(), ks=[1, 3])["keyword"]
    assert isinstance(keyword, dict)
    assert (keyword["questions"], keyword["answerable"], keyword["path_recall@3"], keyword["mrr"]) == (2, 1, 0.0, 0.0)
    assert keyword["negative_top_score"] == {"questions": 1, "no_hits": 0, "min": 7.5, "median": 7.5, "max": 7.5}


def test_summarise_of_nothing_is_empty() -> None:
    assert summarise([], ks=[1]) == {}


@pytest.mark.parametrize(
    ("scores", "ks", "message"),
    [
        pytest.param(_per_question(), [], "at least one k", id="no-ks"),
        pytest.param(_per_question(), [0], "k must", id="k-zero"),
        pytest.param(_per_question(), [1, 5], "k=5", id="k-not-scored"),
        pytest.param([*_per_question(), _negative("n1", "hybrid", 0.1)], [1], "scored twice", id="duplicate"),
    ],
)
def test_summarise_rejects_inconsistent_input(scores: Sequence[QuestionScore], ks: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        summarise(scores, ks)
