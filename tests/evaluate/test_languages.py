"""Questions in several languages: the `language` field, and recall broken down by it in summary and report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.errors import ConfigError
from askvault.evaluate.metrics import JsonValue, score_question, summarise
from askvault.evaluate.questions import Question, load_questions
from askvault.evaluate.report import render_markdown, render_text
from askvault.evaluate.report_json import to_json
from askvault.evaluate.runner import EvalResult, HitRecord, ModeRun

BASE = {"id": "q1", "question": "Wo?", "type": "exact_value", "expected_paths": ["A.md"], "evidence": ["x"]}

FIELDS: list[tuple[str, dict[str, object], str]] = [
    ("default-english", {}, "en"),
    ("code", {"language": "de"}, "de"),
    ("region", {"language": "de-DE"}, "de"),
    ("name", {"language": "German"}, "de"),
]


@pytest.mark.parametrize(("extra", "language"), [f[1:] for f in FIELDS], ids=[f[0] for f in FIELDS])
def test_the_language_field(tmp_path: Path, extra: dict[str, object], language: str) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({**BASE, **extra}) + "\n", encoding="utf-8")
    assert [q.language for q in load_questions(path)] == [language]


@pytest.mark.parametrize("bad", ["", "klingon please", 3, None], ids=["empty", "not-a-language", "number", "null"])
def test_a_bad_language_names_line_and_field(tmp_path: Path, bad: object) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({**BASE, "language": bad}) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"q\.jsonl line 1: field 'language'"):
        load_questions(path)


EN = Question("en1", "Which port?", "exact_value", ("A.md",), ("5433",))
DE = Question("de1", "Welcher Port?", "exact_value", ("A.md",), ("5433",), language="de")
DE2 = Question("de2", "Welche Zwiebeln?", "table_list", ("B.md",), ("Zwiebeln",), language="de")


def run(question: Question, found: bool) -> ModeRun:
    hits = (HitRecord(1, "A.md" if found else "C.md", (), 1, 2, 0.5, None, 1, None, 1.0, found, found),)
    score = score_question(
        question_id=question.id,
        type=question.type,
        mode="keyword",
        expected_paths=question.expected_paths,
        evidence=question.evidence,
        ranked_paths=[h.path for h in hits],
        ranked_texts=["5433" if found else "other"],
        top_score=0.5,
        ks=(3,),
        language=question.language,
    )
    return ModeRun(question, score, hits)


def result(questions: tuple[Question, ...], found: dict[str, bool]) -> EvalResult:
    runs = tuple(run(q, found[q.id]) for q in questions)
    meta: dict[str, JsonValue] = {"date": "2026-01-01T00:00:00Z"}
    return EvalResult(questions, (3,), ("keyword",), runs, meta=meta)


def dig(value: JsonValue, *keys: str) -> JsonValue:
    for key in keys:
        assert isinstance(value, dict)
        value = value[key]
    return value


def test_recall_by_language_when_there_is_more_than_one() -> None:
    mixed = result((EN, DE, DE2), {"en1": True, "de1": True, "de2": False})
    summary = mixed.summary()
    recall = {code: dig(summary, "keyword", "by_language", code, "evidence_recall@3") for code in ("en", "de")}
    assert recall == {"en": 1.0, "de": 0.5}
    text = render_text(mixed, summary)
    assert "By question language: evidence_recall@3" in text
    assert "de (n=2)" in text
    assert "## E@3 by question language" in render_markdown(mixed, summary)
    per_question = to_json(mixed)["per_question"]
    assert isinstance(per_question, list)
    assert [dig(q, "language") for q in per_question] == ["en", "de", "de"]


def test_one_language_adds_no_breakdown() -> None:
    english = result((EN,), {"en1": True})
    summary = english.summary()
    figures = dig(summary, "keyword")
    assert isinstance(figures, dict)
    assert "by_language" not in figures
    assert "question language" not in render_text(english, summary)
    assert "question language" not in render_markdown(english, summary)
    plain = summarise([r.score for r in english.runs], (3,))
    assert isinstance(plain["keyword"], dict)
    assert "by_language" not in plain["keyword"]
