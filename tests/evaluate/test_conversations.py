"""The conversation file for follow-up rewriting: its loader, its checker, and the shipped set against the vault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.errors import ConfigError
from askvault.evaluate.conversations import Conversation, check_conversations, load_conversations
from askvault.evaluate.metrics import normalise_whitespace
from askvault.model import Message
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

EVAL = Path(__file__).resolve().parents[2] / "eval"
VAULT = EVAL / "sample-vault"

GOOD = {
    "id": "c1",
    "kind": "pronoun",
    "first": "Which port does Postgres use?",
    "first_answer": "5433 [1].",
    "followup": "Why that one?",
    "standalone": "Why does Postgres use port 5433?",
    "expected_paths": ["Homelab/Services/Postgres.md"],
    "evidence": ["the Debian package of Postgres 13 from the old setup still occupies 5432"],
}


def _write(tmp_path: Path, *records: object) -> Path:
    path = tmp_path / "conversations.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_conversation_loads_with_its_history(tmp_path: Path) -> None:
    [conversation] = load_conversations(_write(tmp_path, GOOD))
    assert conversation.history() == [
        Message(role="user", content="Which port does Postgres use?"),
        Message(role="assistant", content="5433 [1]."),
    ]
    question = conversation.as_question("Why that one?")
    assert (question.id, question.question, question.type) == ("c1", "Why that one?", "followup")
    assert question.evidence == tuple(GOOD["evidence"])


def test_without_a_first_answer_the_history_is_the_first_question(tmp_path: Path) -> None:
    [conversation] = load_conversations(_write(tmp_path, {**GOOD, "first_answer": None}))
    assert conversation.history() == [Message(role="user", content="Which port does Postgres use?")]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        pytest.param({**GOOD, "followup": ""}, "field 'followup' must be a non-empty string", id="empty-followup"),
        pytest.param({**GOOD, "first_answer": 3}, "'first_answer' must be a non-empty string or null", id="answer"),
        pytest.param({**GOOD, "evidence": []}, "field 'evidence' must be a non-empty list", id="no-evidence"),
        pytest.param({**GOOD, "expected_paths": "x.md"}, "'expected_paths' must be a non-empty list", id="paths"),
        pytest.param([1], "expected a JSON object", id="not-an-object"),
    ],
)
def test_malformed_lines_are_refused_with_their_line(tmp_path: Path, record: object, message: str) -> None:
    with pytest.raises(ConfigError, match=r"conversations\.jsonl line 1") as raised:
        load_conversations(_write(tmp_path, record))
    assert message in str(raised.value)


def test_ids_must_be_unique(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="line 2: field 'id' repeats 'c1'"):
        load_conversations(_write(tmp_path, GOOD, GOOD))


def test_the_checker_finds_evidence_missing_from_the_notes() -> None:
    bad = Conversation("c9", "a?", None, "b?", "c?", ("Homelab/Services/Postgres.md",), ("no such sentence",))
    assert check_conversations(VAULT, [bad]) == [
        "c9: evidence 'no such sentence' not found in the body of Homelab/Services/Postgres.md"
    ]


@pytest.fixture(scope="module")
def shipped() -> list[Conversation]:
    return load_conversations(EVAL / "conversations.jsonl")


def test_the_shipped_conversations_check_out_against_the_sample_vault(shipped: list[Conversation]) -> None:
    assert len(shipped) >= 20
    assert check_conversations(VAULT, shipped) == []
    # A follow-up that repeats its standalone form measures nothing.
    assert all(c.followup != c.standalone for c in shipped)


def test_the_shipped_evidence_survives_parsing_within_one_section(shipped: list[Conversation]) -> None:
    notes = {p.relative_to(VAULT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(VAULT.rglob("*.md"))}
    resolver = LinkResolver(notes)
    sections: dict[str, list[str]] = {}
    for path in {p for c in shipped for p in c.expected_paths}:
        note = parse_note(path, notes[path], resolver)
        sections[path] = [normalise_whitespace(s.text) for s in note.sections]
    missing = [
        (c.id, needle)
        for c in shipped
        for needle in c.evidence
        if not any(normalise_whitespace(needle) in text for p in c.expected_paths for text in sections[p])
    ]
    assert missing == []
