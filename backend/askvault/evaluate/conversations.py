"""Two-turn conversations for measuring follow-up rewriting: the record, its JSONL loader and its checker."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from askvault.errors import ConfigError
from askvault.evaluate.questions import Question, check_questions
from askvault.model import Message

FOLLOWUP = "followup"
"""The question type a conversation's follow-up is scored under."""


@dataclass(frozen=True, slots=True)
class Conversation:
    """A first question (and maybe its answer), then a follow-up that only makes sense after it."""

    id: str
    first: str
    first_answer: str | None
    """A plausible answer to the first question, as the assistant turn; None: the user asked on at once."""
    followup: str
    standalone: str
    """The follow-up written by hand so it stands alone: what a perfect rewrite would search for."""
    expected_paths: tuple[str, ...]
    evidence: tuple[str, ...]
    kind: str = ""
    """How the follow-up leans on the first turn (pronoun, ellipsis, reference); free text, for reading."""
    language: str = "en"

    def history(self) -> list[Message]:
        turns = [Message(role="user", content=self.first)]
        if self.first_answer:
            turns.append(Message(role="assistant", content=self.first_answer))
        return turns

    def as_question(self, text: str) -> Question:
        """The follow-up's evidence and notes under another wording (the query one variant searches for)."""
        return Question(self.id, text, FOLLOWUP, self.expected_paths, self.evidence, language=self.language)


def _text(record: Mapping[str, object], name: str, where: str, optional: bool = False) -> str | None:
    value = record.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: field {name!r} must be a non-empty string" + (" or null" if optional else ""))
    return value


def _strings(record: Mapping[str, object], name: str, where: str) -> tuple[str, ...]:
    value = record.get(name)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{where}: field {name!r} must be a non-empty list of non-empty strings")
    return tuple(value)


def _parse(line: str, where: str) -> Conversation:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc.msg})") from exc
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a JSON object")
    kind = record.get("kind", "")
    language = record.get("language", "en")
    return Conversation(
        id=str(_text(record, "id", where)),
        first=str(_text(record, "first", where)),
        first_answer=_text(record, "first_answer", where, optional=True),
        followup=str(_text(record, "followup", where)),
        standalone=str(_text(record, "standalone", where)),
        expected_paths=_strings(record, "expected_paths", where),
        evidence=_strings(record, "evidence", where),
        kind=kind if isinstance(kind, str) else "",
        language=language if isinstance(language, str) else "en",
    )


def load_conversations(path: Path) -> list[Conversation]:
    """Reads a JSONL conversation file (blank lines skipped, unknown fields ignored); ConfigError names the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read the conversation file {path}: {exc.strerror or exc}") from exc
    conversations: list[Conversation] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        conversation = _parse(line, f"{path.name} line {number}")
        if conversation.id in seen:
            raise ConfigError(f"{path.name} line {number}: field 'id' repeats {conversation.id!r}")
        seen.add(conversation.id)
        conversations.append(conversation)
    return conversations


def check_conversations(vault: Path, conversations: Sequence[Conversation]) -> list[str]:
    """The question checker's problems (missing or excluded notes, evidence not in them) for each follow-up."""
    return check_questions(vault, [c.as_question(c.standalone) for c in conversations])
