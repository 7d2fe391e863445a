"""The evaluation question set: the `Question` record, its JSONL loader and a checker against the vault."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path, PurePosixPath

import yaml

from askvault.errors import ConfigError, NoteError
from askvault.evaluate.files import EVAL_SUFFIXES, EvalFiles, is_eval_file
from askvault.evaluate.metrics import normalise_whitespace
from askvault.store.text.languages import language_code

NEGATIVE = "negative"
"""The type of a question whose answer is not in the (indexable part of the) vault."""

QUESTION_TYPES = frozenset(
    {
        "paraphrase",
        "exact_value",
        "heading_specific",
        "table_list",
        "multi_note",
        "long_natural",
        "alias_wikilink",
        "date",
        "mention",
        "daily",
        "moc",
        NEGATIVE,
    }
)
"""Known question types; a typo would otherwise split the by-type breakdown silently."""

# The parser renders links and drops comments, so chunk text never holds these; evidence with them never hits.
_MARKUP_NEVER_IN_CHUNKS = ("[[", "]]", "%%")

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(?P<yaml>.*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Question:
    """One evaluation question; `expected_paths == ()` means the vault does not hold the answer."""

    id: str
    question: str
    type: str
    expected_paths: tuple[str, ...]
    """Vault-relative POSIX paths of the notes (or PDFs, canvases, text files) that answer the question."""
    evidence: tuple[str, ...]
    """Verbatim substrings of the answering sections (any one of them in a top-k chunk is a hit)."""
    now: date | None = None
    """The day the question is asked on (`"now": "2024-03-20"`), so "last week" means the same in every run;
    None: today."""
    language: str = "en"
    """The language the question is asked in (`"language": "de"`), as an ISO 639-1 code; the report breaks
    recall down by it when a run holds more than one."""
    values: tuple[str, ...] = ()
    """What a correct answer must state (`"values": ["5433"]`; any one of them), for `exact_value` questions:
    the answer evaluation (`askvault eval --answers`) checks that the model's answer contains it."""

    @property
    def answerable(self) -> bool:
        return bool(self.expected_paths)


def json_record(line: str, where: str) -> dict[str, object]:
    """One JSONL line as an object; ConfigError names `where` (file and line) and what is wrong."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc.msg})") from exc
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a JSON object")
    return record


def text_field(record: Mapping[str, object], name: str, where: str) -> str:
    value = record.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: field {name!r} must be a non-empty string")
    return value


def list_field(record: Mapping[str, object], name: str, where: str, *, non_empty: bool = False) -> tuple[str, ...]:
    """A list of non-empty strings (`non_empty`: and at least one of them)."""
    value = record.get(name)
    if not isinstance(value, list) or (non_empty and not value):
        raise ConfigError(f"{where}: field {name!r} must be a {'non-empty ' if non_empty else ''}list of strings")
    items: list[str] = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise ConfigError(f"{where}: field {name!r} must hold only non-empty strings")
        items.append(item)
    return tuple(items)


def _date_field(record: Mapping[str, object], name: str, where: str) -> date | None:
    value = record.get(name)
    if value is None:
        return None
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise ConfigError(f"{where}: field {name!r} must be an ISO date (YYYY-MM-DD)")


def _language_field(record: Mapping[str, object], name: str, where: str) -> str:
    value = record.get(name, "en")
    code = language_code(value) if isinstance(value, str) else None
    if code is None:
        raise ConfigError(f"{where}: field {name!r} must name a language (an ISO 639-1 code such as 'de')")
    return code


_ALLOWED = ", ".join(EVAL_SUFFIXES[:-1]) + " or " + EVAL_SUFFIXES[-1]


def _check_vault_path(path: str, where: str) -> None:
    parts = PurePosixPath(path).parts
    if path.startswith("/") or "\\" in path or ".." in parts or not is_eval_file(path):
        raise ConfigError(
            f"{where}: field 'expected_paths' holds {path!r}; want a vault-relative POSIX path to a {_ALLOWED} file"
        )


def _parse_line(line: str, where: str) -> Question:
    record = json_record(line, where)
    type_ = text_field(record, "type", where)
    if type_ not in QUESTION_TYPES:
        raise ConfigError(f"{where}: field 'type' is {type_!r}; known types: {', '.join(sorted(QUESTION_TYPES))}")
    expected = list_field(record, "expected_paths", where)
    for path in expected:
        _check_vault_path(path, where)
    return Question(
        id=text_field(record, "id", where),
        question=text_field(record, "question", where),
        type=type_,
        expected_paths=expected,
        evidence=list_field(record, "evidence", where),
        now=_date_field(record, "now", where),
        language=_language_field(record, "language", where),
        values=list_field(record, "values", where) if "values" in record else (),
    )


def load_questions(path: Path) -> list[Question]:
    """Reads a JSONL question file (blank lines skipped, unknown fields ignored); ConfigError names the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read the question file {path}: {exc.strerror or exc}") from exc
    questions: list[Question] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path.name} line {number}"
        question = _parse_line(line, where)
        if question.id in first_line:
            raise ConfigError(f"{where}: field 'id' repeats {question.id!r} from line {first_line[question.id]}")
        first_line[question.id] = number
        questions.append(question)
    return questions


def _split_frontmatter(text: str) -> tuple[Mapping[str, object], str]:
    """(frontmatter mapping, body); a missing or unreadable frontmatter counts as empty."""
    match = _FRONTMATTER.match(text)
    if match is None:
        return {}, text
    try:
        data = yaml.safe_load(match.group("yaml"))
    except yaml.YAMLError:
        data = None
    return (data if isinstance(data, dict) else {}), text[match.end() :]


def _ignore_filters(vault: Path) -> list[str]:
    """Obsidian's "Excluded files" (`userIgnoreFilters` in `.obsidian/app.json`)."""
    try:
        config = json.loads((vault / ".obsidian" / "app.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return []
    filters = config.get("userIgnoreFilters") if isinstance(config, dict) else None
    return [f for f in filters if isinstance(f, str) and f] if isinstance(filters, list) else []


def _is_ignored(path: str, filters: Iterable[str]) -> bool:
    for pattern in filters:
        # Obsidian treats "/…/" as a regular expression and anything else as a path prefix.
        if len(pattern) > 2 and pattern.startswith("/") and pattern.endswith("/"):
            if re.search(pattern[1:-1], path):
                return True
        elif path.startswith(pattern):
            return True
    return False


def _consistency_problems(question: Question) -> list[str]:
    problems: list[str] = []
    if question.type == NEGATIVE:
        if question.expected_paths:
            problems.append(f"{question.id}: a negative question must have no expected paths")
        if question.evidence:
            problems.append(f"{question.id}: a negative question must have no evidence")
        if question.values:
            problems.append(f"{question.id}: a negative question must have no values")
    elif not question.expected_paths:
        problems.append(f"{question.id}: no expected paths; a question the vault cannot answer has type 'negative'")
    elif not question.evidence:
        problems.append(f"{question.id}: no evidence; Evidence Recall needs at least one verbatim string")
    for needle in question.evidence:
        if any(mark in needle for mark in _MARKUP_NEVER_IN_CHUNKS):
            problems.append(f"{question.id}: evidence {needle!r} holds link or comment markup the parser rewrites")
    return problems


def check_questions(vault: Path, questions: Sequence[Question], files: EvalFiles | None = None) -> list[str]:
    """Problems that would make the question set lie: missing or excluded notes, evidence not in the notes.

    Evidence must occur, whitespace-normalised, in the body (not the frontmatter) of at least one expected
    file, read as the indexer reads it (`EvalFiles`: a PDF's extracted pages, a canvas's Markdown). Expected
    files must be indexable: not under Obsidian's excluded files, not opted out, readable. `files` reads them
    (None: files of this check's own, closed when it ends).
    """
    if files is None:
        with EvalFiles(vault) as own:
            return check_questions(vault, questions, own)
    problems: list[str] = []
    filters = _ignore_filters(vault)
    root = vault.resolve()
    for question in questions:
        problems.extend(_consistency_problems(question))
        bodies: list[str] = []
        for rel in question.expected_paths:
            note = (vault / rel).resolve()
            if not note.is_relative_to(root):
                problems.append(f"{question.id}: expected path {rel} lies outside the vault")
                continue
            if not note.is_file():
                problems.append(f"{question.id}: expected path {rel} does not exist")
                continue
            if _is_ignored(rel, filters):
                problems.append(f"{question.id}: expected path {rel} is excluded by userIgnoreFilters")
            try:
                text = files.read(rel).text
            except NoteError as exc:
                problems.append(f"{question.id}: expected path {rel} cannot be read ({exc})")
                continue
            frontmatter, body = _split_frontmatter(text)
            if frontmatter.get("askvault") is False:
                problems.append(f"{question.id}: expected path {rel} opts out of indexing (askvault: false)")
            bodies.append(normalise_whitespace(body))
        if not bodies:
            continue
        for needle in question.evidence:
            if normalise_whitespace(needle) not in "\n".join(bodies):
                shown = ", ".join(question.expected_paths)
                problems.append(f"{question.id}: evidence {needle!r} not found in the body of {shown}")
    return problems
