"""The shipped evaluation data: the sample vault and its question set agree, and the privacy canaries sit where
the privacy tests expect them."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from askvault.evaluate.metrics import normalise_whitespace
from askvault.evaluate.questions import NEGATIVE, QUESTION_TYPES, Question, check_questions, load_questions
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

EVAL = Path(__file__).resolve().parents[2] / "eval"
VAULT = EVAL / "sample-vault"
QUESTIONS = EVAL / "questions.jsonl"

CANARIES = {
    "CANARY-EXCLUDED-7f3a": "Private/Excluded/Therapy notes.md",
    "CANARY-EXCLUDED-b91c": "Private/Excluded/Bank and insurance.md",
    "CANARY-OPTOUT-3d2e": "Journal/2024-02-11 Talk with Tomas.md",
    "CANARY-SECRET-c4d8": "Homelab/Services/Offsite storage (B2).md",
}
"""Each canary appears in exactly one note; it must never reach the index, an answer or a log."""


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    return load_questions(QUESTIONS)


def _notes() -> dict[str, str]:
    return {p.relative_to(VAULT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(VAULT.rglob("*.md"))}


def test_every_question_checks_out_against_the_vault(questions: list[Question]) -> None:
    assert check_questions(VAULT, questions) == []


def test_every_evidence_string_survives_parsing_within_one_section(questions: list[Question]) -> None:
    """Chunks are cut from parsed sections, so evidence the parser rewrites or splits could never be hit."""
    resolver = LinkResolver(_notes())
    sections: dict[str, list[str]] = {}
    for path in {p for q in questions for p in q.expected_paths}:
        note = parse_note(path, (VAULT / path).read_text(encoding="utf-8"), resolver)
        sections[path] = [normalise_whitespace(s.text) for s in note.sections]
    missing = [
        (q.id, needle)
        for q in questions
        for needle in q.evidence
        if not any(normalise_whitespace(needle) in text for p in q.expected_paths for text in sections[p])
    ]
    assert missing == []


def test_question_set_size_and_mix(questions: list[Question]) -> None:
    assert len(questions) >= 60
    per_type = Counter(q.type for q in questions)
    assert set(per_type) == QUESTION_TYPES - {"daily", "moc"}  # those two are the template vault's
    assert min(per_type.values()) >= 6, per_type


def test_vault_size_shape_and_variety() -> None:
    notes = _notes()
    assert len(notes) >= 150
    lengths = sorted(len(text) for text in notes.values())
    assert lengths[0] <= 100, "at least one tiny note"
    assert sum(length > 5000 for length in lengths) >= 3, "long notes that must be split"
    assert lengths[-1] <= 8500
    daily = [p for p in notes if re.fullmatch(r"Daily/\d{4}-\d{2}-\d{2}\.md", p)]
    assert len(daily) >= 28
    assert sum(not p.isascii() for p in notes) >= 2, "non-ASCII file names"


def test_obsidian_excludes_the_private_folder() -> None:
    config = json.loads((VAULT / ".obsidian" / "app.json").read_text(encoding="utf-8"))
    assert config["userIgnoreFilters"] == ["Private/Excluded/"]
    assert sorted(p.name for p in (VAULT / "Private" / "Excluded").glob("*.md")) == [
        "Bank and insurance.md",
        "Therapy notes.md",
    ]


def test_each_canary_lives_in_exactly_one_note() -> None:
    notes = _notes()
    for canary, path in CANARIES.items():
        assert [p for p, text in notes.items() if canary in text] == [path]
    assert "\naskvault: false\n" in notes[CANARIES["CANARY-OPTOUT-3d2e"]]
    planted = notes[CANARIES["CANARY-SECRET-c4d8"]]
    assert re.search(r"AKIA[0-9A-Z]{16}\b", planted)
    assert re.search(r"\bsk-proj-[A-Za-z0-9]{20,}", planted)
    carriers = {p for p, text in notes.items() if "CANARY" in text}
    assert carriers == set(CANARIES.values()), "no other note may mention a canary"


def test_questions_never_point_at_private_material(questions: list[Question]) -> None:
    private = set(CANARIES.values())
    for question in questions:
        assert not private.intersection(question.expected_paths), question.id
        assert not any("CANARY" in e for e in question.evidence), question.id
    negatives = {q.id for q in questions if q.type == NEGATIVE}
    assert {"neg-07", "neg-08", "neg-09", "neg-10", "neg-11"} <= negatives
