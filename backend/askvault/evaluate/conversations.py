"""Two-turn conversations for measuring follow-up rewriting: the record, its JSONL loader and its checker."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from askvault.errors import ConfigError
from askvault.evaluate.questions import Question, check_questions, json_record, list_field, text_field
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


def _optional_text(record: Mapping[str, object], name: str, where: str) -> str | None:
    value = record.get(name)
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return value
    raise ConfigError(f"{where}: field {name!r} must be a non-empty string or null")


def _parse(line: str, where: str) -> Conversation:
    record = json_record(line, where)
    kind = record.get("kind", "")
    language = record.get("language", "en")
    return Conversation(
        id=text_field(record, "id", where),
        first=text_field(record, "first", where),
        first_answer=_optional_text(record, "first_answer", where),
        followup=text_field(record, "followup", where),
        standalone=text_field(record, "standalone", where),
        expected_paths=list_field(record, "expected_paths", where, non_empty=True),
        evidence=list_field(record, "evidence", where, non_empty=True),
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
