"""The German and cross-lingual question sets agree with the sample vault and ask in the languages they say."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.evaluate.metrics import normalise_whitespace
from askvault.evaluate.questions import check_questions, load_questions
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

EVAL = Path(__file__).resolve().parents[2] / "eval"
VAULT = EVAL / "sample-vault"
FILES = ["questions-de.jsonl", "questions-crosslingual.jsonl"]


def german_note(path: str) -> bool:
    return path.startswith("Rezepte/")


@pytest.mark.parametrize("name", FILES)
def test_the_set_checks_out_and_survives_parsing(name: str) -> None:
    questions = load_questions(EVAL / name)
    assert len(questions) >= 10
    assert check_questions(VAULT, questions) == []
    notes = {p.relative_to(VAULT).as_posix() for p in VAULT.rglob("*.md")}
    resolver = LinkResolver(notes)
    for question in questions:
        sections = [
            normalise_whitespace(section.text)
            for path in question.expected_paths
            for section in parse_note(path, (VAULT / path).read_text(encoding="utf-8"), resolver).sections
        ]
        for needle in question.evidence:
            assert any(normalise_whitespace(needle) in text for text in sections), (question.id, needle)


def test_german_questions_ask_in_german_about_the_german_notes() -> None:
    questions = load_questions(EVAL / "questions-de.jsonl")
    assert {q.language for q in questions} == {"de"}
    assert all(german_note(path) for q in questions for path in q.expected_paths)


def test_cross_lingual_questions_ask_across_languages() -> None:
    questions = load_questions(EVAL / "questions-crosslingual.jsonl")
    english = [q for q in questions if q.language == "en"]
    german = [q for q in questions if q.language == "de"]
    assert (len(english), len(german)) == (6, 6)
    assert len(english) + len(german) == len(questions)
    assert all(german_note(path) for q in english for path in q.expected_paths)
    assert not any(german_note(path) for q in german for path in q.expected_paths)
