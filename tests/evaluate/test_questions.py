"""Loading the JSONL question set and checking it against a vault on disk."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from askvault.errors import ConfigError
from askvault.evaluate.questions import Question, check_questions, load_questions
from tests.conftest import VaultWriter

GOOD = {
    "id": "q1",
    "question": "Which port does Postgres use?",
    "type": "exact_value",
    "expected_paths": ["Homelab/Postgres.md"],
    "evidence": ["Port on the host: 5433"],
}


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _line(**changes: object) -> str:
    record: dict[str, object] = {**GOOD, **changes}
    return json.dumps(record)


def test_load_skips_blank_lines_and_ignores_unknown_fields(tmp_path: Path) -> None:
    negative = {"id": "n1", "question": "Plex port?", "type": "negative", "expected_paths": [], "evidence": []}
    path = _write(tmp_path, [_line(note="written by hand", difficulty=3), "", "   ", json.dumps(negative)])
    assert load_questions(path) == [
        Question(
            "q1", "Which port does Postgres use?", "exact_value", ("Homelab/Postgres.md",), ("Port on the host: 5433",)
        ),
        Question("n1", "Plex port?", "negative", (), ()),
    ]
    assert [q.answerable for q in load_questions(path)] == [True, False]


def _without(field: str) -> str:
    return json.dumps({k: v for k, v in GOOD.items() if k != field})


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        pytest.param('{"id": "q2", ', "not valid JSON", id="broken-json"),
        pytest.param("[1, 2]", "expected a JSON object", id="array"),
        pytest.param(_without("id"), "'id'", id="missing-id"),
        pytest.param(_line(id=7), "'id'", id="id-not-string"),
        pytest.param(_line(question="  "), "'question'", id="blank-question"),
        pytest.param(_without("type"), "'type'", id="missing-type"),
        pytest.param(_line(type="paraphase"), "'type'", id="unknown-type"),
        pytest.param(_without("expected_paths"), "'expected_paths'", id="missing-paths"),
        pytest.param(_line(expected_paths="Homelab/Postgres.md"), "'expected_paths'", id="paths-not-list"),
        pytest.param(_line(expected_paths=["/etc/passwd.md"]), "'expected_paths'", id="absolute-path"),
        pytest.param(_line(expected_paths=["../outside.md"]), "'expected_paths'", id="parent-path"),
        pytest.param(_line(expected_paths=["Homelab\\Postgres.md"]), "'expected_paths'", id="backslash"),
        pytest.param(_line(expected_paths=["Homelab/Postgres"]), "'expected_paths'", id="not-a-note"),
        pytest.param(_without("evidence"), "'evidence'", id="missing-evidence"),
        pytest.param(_line(evidence=["ok", 5433]), "'evidence'", id="evidence-not-string"),
        pytest.param(_line(evidence=[""]), "'evidence'", id="empty-evidence-string"),
        pytest.param(_line(now="last week"), "'now'", id="now-not-a-date"),
        pytest.param(_line(now="2024-02-30"), "'now'", id="now-impossible-day"),
        pytest.param(_line(now="2024-03-20T12:00"), "'now'", id="now-with-time"),
        pytest.param(_line(now=20240320), "'now'", id="now-a-number"),
        pytest.param(_line(values="5433"), "'values'", id="values-not-a-list"),
        pytest.param(_line(values=[""]), "'values'", id="empty-value"),
    ],
)
def test_load_rejects_bad_lines_naming_line_and_field(tmp_path: Path, bad: str, message: str) -> None:
    path = _write(tmp_path, [_line(id="q0"), "", bad])
    with pytest.raises(ConfigError, match="line 3") as raised:
        load_questions(path)
    assert message in raised.value.message


NOWS = [
    pytest.param({"now": "2024-03-20"}, date(2024, 3, 20), id="iso-date"),
    pytest.param({"now": None}, None, id="null"),
    pytest.param({}, None, id="absent"),
]


@pytest.mark.parametrize(("extra", "now"), NOWS)
def test_a_question_may_pin_the_day_it_is_asked(tmp_path: Path, extra: dict[str, object], now: date | None) -> None:
    path = _write(tmp_path, [_line(type="date", **extra)])

    [question] = load_questions(path)

    assert (question.type, question.now) == ("date", now)


@pytest.mark.parametrize(
    ("extra", "values"),
    [pytest.param({"values": ["5433", "pg-main"]}, ("5433", "pg-main"), id="values"), pytest.param({}, (), id="none")],
)
def test_a_question_may_name_the_values_its_answer_must_state(
    tmp_path: Path, extra: dict[str, object], values: tuple[str, ...]
) -> None:
    [question] = load_questions(_write(tmp_path, [_line(**extra)]))
    assert question.values == values


def test_load_rejects_duplicate_ids(tmp_path: Path) -> None:
    path = _write(tmp_path, [_line(), _line(id="q2"), _line()])
    with pytest.raises(ConfigError, match=r"line 3: field 'id' repeats 'q1' from line 1"):
        load_questions(path)


def test_load_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_questions(tmp_path / "nope.jsonl")


POSTGRES = """---
title: Postgres
aliases: [pg-main]
summary: Port on the host is in the body
---
# Postgres

## Connection
- Port on the
  host:   5433 (the container
  still listens on 5432)
"""


BASE = Question("q1", "Which port?", "exact_value", ("Homelab/Postgres.md",), ("Port on the host: 5433",))


def _question(
    *,
    type: str = BASE.type,
    expected_paths: tuple[str, ...] = BASE.expected_paths,
    evidence: tuple[str, ...] = BASE.evidence,
    values: tuple[str, ...] = (),
) -> Question:
    return replace(BASE, type=type, expected_paths=expected_paths, evidence=evidence, values=values)


def test_check_accepts_whitespace_normalised_evidence(make_vault: VaultWriter) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES})
    evidence = ("Port on the host: 5433", "the container still\nlistens on 5432")
    assert check_questions(vault, [_question(evidence=evidence)]) == []


def test_check_finds_evidence_in_any_expected_note(make_vault: VaultWriter) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES, "Homelab/Uptime.md": "TCP check on 5433\n"})
    question = _question(expected_paths=("Homelab/Uptime.md", "Homelab/Postgres.md"), evidence=("TCP check",))
    assert check_questions(vault, [question]) == []


def test_check_reports_a_missing_path(make_vault: VaultWriter) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES})
    question = _question(expected_paths=("Homelab/Postgres.md", "Homelab/Gone.md"))
    assert check_questions(vault, [question]) == ["q1: expected path Homelab/Gone.md does not exist"]


def test_check_reports_missing_evidence(make_vault: VaultWriter) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES})
    problems = check_questions(vault, [_question(evidence=("Port on the host: 5432",))])
    assert problems == ["q1: evidence 'Port on the host: 5432' not found in the body of Homelab/Postgres.md"]


def test_check_ignores_the_frontmatter(make_vault: VaultWriter) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES})
    problems = check_questions(vault, [_question(evidence=("Port on the host is in the body",))])
    assert len(problems) == 1
    assert "not found in the body" in problems[0]


@pytest.mark.parametrize(
    ("question", "problem"),
    [
        pytest.param(
            _question(type="negative", expected_paths=(), evidence=("5433",)),
            "q1: a negative question must have no evidence",
            id="negative-with-evidence",
        ),
        pytest.param(
            _question(type="negative", expected_paths=(), evidence=(), values=("5433",)),
            "q1: a negative question must have no values",
            id="negative-with-values",
        ),
        pytest.param(
            _question(type="negative", evidence=()),
            "q1: a negative question must have no expected paths",
            id="negative-with-paths",
        ),
        pytest.param(
            _question(expected_paths=(), evidence=()),
            "q1: no expected paths; a question the vault cannot answer has type 'negative'",
            id="answerable-without-paths",
        ),
        pytest.param(
            _question(evidence=()),
            "q1: no evidence; Evidence Recall needs at least one verbatim string",
            id="answerable-without-evidence",
        ),
        pytest.param(
            _question(evidence=("[[Postgres]] port",)),
            "q1: evidence '[[Postgres]] port' holds link or comment markup the parser rewrites",
            id="wikilink-in-evidence",
        ),
        pytest.param(
            _question(expected_paths=("../outside.md",)),
            "q1: expected path ../outside.md lies outside the vault",
            id="outside-the-vault",
        ),
    ],
)
def test_check_reports_inconsistent_questions(make_vault: VaultWriter, question: Question, problem: str) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES})
    (vault.parent / "outside.md").write_text("Port on the host: 5433\n", encoding="utf-8")
    assert problem in check_questions(vault, [question])


def test_check_accepts_a_clean_negative(make_vault: VaultWriter) -> None:
    vault = make_vault({"Homelab/Postgres.md": POSTGRES})
    assert check_questions(vault, [_question(type="negative", expected_paths=(), evidence=())]) == []


@pytest.mark.parametrize(
    "ignore_filter",
    [pytest.param("Private/Excluded/", id="folder-prefix"), pytest.param("/Exclu[a-z]+/", id="regex")],
)
def test_check_rejects_notes_obsidian_excludes(make_vault: VaultWriter, ignore_filter: str) -> None:
    vault = make_vault({"Private/Excluded/Secret.md": "The code is 4471\n"})
    (vault / ".obsidian" / "app.json").write_text(json.dumps({"userIgnoreFilters": [ignore_filter]}), encoding="utf-8")
    question = _question(expected_paths=("Private/Excluded/Secret.md",), evidence=("The code is 4471",))
    assert check_questions(vault, [question]) == [
        "q1: expected path Private/Excluded/Secret.md is excluded by userIgnoreFilters"
    ]


def test_check_rejects_opted_out_notes(make_vault: VaultWriter) -> None:
    vault = make_vault({"Journal/Talk.md": "---\naskvault: false\n---\nWe agreed to sell.\n"})
    question = _question(expected_paths=("Journal/Talk.md",), evidence=("We agreed to sell.",))
    assert check_questions(vault, [question]) == [
        "q1: expected path Journal/Talk.md opts out of indexing (askvault: false)"
    ]


def test_check_tolerates_broken_frontmatter_and_config(make_vault: VaultWriter) -> None:
    vault = make_vault({"Note.md": "---\ntitle: [unclosed\n---\nThe body line.\n"})
    (vault / ".obsidian" / "app.json").write_text("{not json", encoding="utf-8")
    question = _question(expected_paths=("Note.md",), evidence=("The body line.",))
    assert check_questions(vault, [question]) == []
