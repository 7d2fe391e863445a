"""Request bodies in, typed requests out: every rejection is a 400 whose message names the field."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast, get_args

from aiohttp import web

from askvault.errors import BadRequest, PayloadTooLarge
from askvault.model import Message, SearchFilters, SearchMode

DEFAULT_K = 8
MAX_K = 50
MAX_QUERY_CHARS = 2000
MAX_HISTORY_TURNS = 20
MAX_TURN_CHARS = 8000
MAX_FILTER_CHARS = 1024
MAX_PATH_CHARS = 1024
DEFAULT_RELATED_K = 10
MAX_DEPTH = 8
"""The deepest valid body is 3 levels (history → turn → content); anything far deeper is hostile."""

Json = dict[str, object]


@dataclass(frozen=True, slots=True)
class SearchRequest:
    query: str
    k: int = DEFAULT_K
    mode: SearchMode = "hybrid"
    filters: SearchFilters | None = None


@dataclass(frozen=True, slots=True)
class AskRequest:
    question: str
    history: tuple[Message, ...] = ()
    k: int | None = None
    filters: SearchFilters | None = None
    force: bool = False
    """Send the closest notes to the model even when the relevance decision says they do not cover the question."""


@dataclass(frozen=True, slots=True)
class ExplainRequest:
    question: str
    note: str
    """A vault-relative path with `/` (never absolute, never `..`)."""
    k: int | None = None
    filters: SearchFilters | None = None


@dataclass(frozen=True, slots=True)
class ReindexRequest:
    full: bool = False


@dataclass(frozen=True, slots=True)
class RelatedRequest:
    path: str
    k: int = DEFAULT_RELATED_K


def _reject_constant(name: str) -> object:
    raise BadRequest(f"the body is not valid JSON ({name} is not a number)")


def _depth(value: object) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json_object(raw: bytes) -> Json:
    """Bytes of a body → a JSON object. An empty body counts as `{}`."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise BadRequest("the body is not valid UTF-8") from exc
    except RecursionError as exc:
        raise BadRequest("the body is nested too deeply") from exc
    except json.JSONDecodeError as exc:
        raise BadRequest(f"the body is not valid JSON (line {exc.lineno}, column {exc.colno})") from exc
    if not isinstance(value, dict):
        raise BadRequest("the body must be a JSON object")
    if _depth(value) > MAX_DEPTH:
        raise BadRequest("the body is nested too deeply")
    return cast(Json, value)


async def read_json_object(request: web.Request) -> Json:
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge as exc:
        raise PayloadTooLarge(f"the request body is larger than {request.client_max_size} bytes") from exc
    return parse_json_object(raw)


def _only(body: Mapping[str, object], allowed: set[str], prefix: str = "") -> None:
    for key in body:
        if key not in allowed:
            raise BadRequest(f"unknown field {prefix + key!r}")


def _text(body: Mapping[str, object], field: str, limit: int, name: str | None = None) -> str | None:
    """An optional non-empty string (stripped) of at most `limit` characters; null counts as absent."""
    name = name or field
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{name} must be a non-empty string")
    if len(value) > limit:
        raise BadRequest(f"{name} must be at most {limit} characters")
    if "\x00" in value:
        raise BadRequest(f"{name} must not contain NUL characters")
    return value.strip()


def _required_text(body: Mapping[str, object], field: str, limit: int) -> str:
    value = _text(body, field, limit)
    if value is None:
        raise BadRequest(f"{field} is required")
    return value


def _k(body: Mapping[str, object]) -> int | None:
    value = body.get("k")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_K:
        raise BadRequest(f"k must be between 1 and {MAX_K}")
    return value


def parse_instant(value: object, name: str) -> float:
    """ISO date, ISO date-time (with or without offset; none means UTC) or epoch seconds → epoch seconds."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise BadRequest(f"{name} must be finite")
        return float(value)
    if isinstance(value, str) and 0 < len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            pass
        else:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return moment.timestamp()
    raise BadRequest(f"{name} must be an ISO date, an ISO date-time or epoch seconds")


def parse_filters(value: object) -> SearchFilters | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRequest("filters must be an object")
    body = cast(Json, value)
    _only(body, {"folder", "tag", "modified_after", "modified_before"}, "filters.")
    after = body.get("modified_after")
    before = body.get("modified_before")
    filters = SearchFilters(
        folder=_text(body, "folder", MAX_FILTER_CHARS, "filters.folder"),
        tag=_text(body, "tag", MAX_FILTER_CHARS, "filters.tag"),
        modified_after=None if after is None else parse_instant(after, "filters.modified_after"),
        modified_before=None if before is None else parse_instant(before, "filters.modified_before"),
    )
    if (
        filters.modified_after is not None
        and filters.modified_before is not None
        and filters.modified_after > filters.modified_before
    ):
        raise BadRequest("filters.modified_after must not be later than filters.modified_before")
    return None if filters.is_empty() else filters


def parse_search(body: Json) -> SearchRequest:
    _only(body, {"query", "k", "mode", "filters"})
    mode = body.get("mode", "hybrid")
    if mode is None:
        mode = "hybrid"
    if mode not in get_args(SearchMode):
        raise BadRequest("mode must be one of " + ", ".join(get_args(SearchMode)))
    return SearchRequest(
        query=_required_text(body, "query", MAX_QUERY_CHARS),
        k=_k(body) or DEFAULT_K,
        mode=cast(SearchMode, mode),
        filters=parse_filters(body.get("filters")),
    )


def _turn(index: int, value: object) -> Message:
    name = f"history[{index}]"
    if not isinstance(value, dict):
        raise BadRequest(f"{name} must be an object with role and content")
    turn = cast(Json, value)
    _only(turn, {"role", "content"}, f"{name}.")
    role, content = turn.get("role"), turn.get("content")
    if role not in ("user", "assistant"):
        raise BadRequest(f"{name}.role must be 'user' or 'assistant'")
    if not isinstance(content, str):
        raise BadRequest(f"{name}.content must be a string")
    if len(content) > MAX_TURN_CHARS:
        raise BadRequest(f"{name}.content must be at most {MAX_TURN_CHARS} characters")
    return Message(role="user" if role == "user" else "assistant", content=content)


def _flag(body: Mapping[str, object], field: str) -> bool:
    """An optional boolean; null counts as absent (false)."""
    value = body.get(field)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise BadRequest(f"{field} must be true or false")
    return value


def parse_ask(body: Json) -> AskRequest:
    _only(body, {"question", "history", "k", "filters", "force"})
    history = body.get("history")
    if history is None:
        history = []
    if not isinstance(history, list):
        raise BadRequest("history must be a list of {role, content} turns")
    if len(history) > MAX_HISTORY_TURNS:
        raise BadRequest(f"history must have at most {MAX_HISTORY_TURNS} turns")
    return AskRequest(
        question=_required_text(body, "question", MAX_QUERY_CHARS),
        history=tuple(_turn(i, turn) for i, turn in enumerate(history)),
        k=_k(body),
        filters=parse_filters(body.get("filters")),
        force=_flag(body, "force"),
    )


def parse_reindex(body: Json) -> ReindexRequest:
    _only(body, {"full"})
    return ReindexRequest(full=_flag(body, "full"))


def parse_note_path(value: object, name: str = "note") -> str:
    """A vault-relative note path as Obsidian writes it: `/` between folders, no leading `/`, no `..`."""
    if value is None:
        raise BadRequest(f"{name} is required")
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be a string (a vault-relative path such as Folder/Note.md)")
    if not value.strip():
        raise BadRequest(f"{name} must not be empty")
    if len(value) > MAX_PATH_CHARS:
        raise BadRequest(f"{name} must be at most {MAX_PATH_CHARS} characters")
    if "\x00" in value:
        raise BadRequest(f"{name} must not contain NUL characters")
    if "\\" in value:
        raise BadRequest(f"{name} must use / between folders, not a backslash")
    if value.startswith("/") or (len(value) > 1 and value[0].isascii() and value[0].isalpha() and value[1] == ":"):
        raise BadRequest(f"{name} must be relative to the vault, not an absolute path")
    if ".." in value.split("/"):
        raise BadRequest(f"{name} must not contain '..'")
    return value


def parse_explain(body: Json) -> ExplainRequest:
    _only(body, {"question", "note", "k", "filters"})
    return ExplainRequest(
        question=_required_text(body, "question", MAX_QUERY_CHARS),
        note=parse_note_path(body.get("note")),
        k=_k(body),
        filters=parse_filters(body.get("filters")),
    )


def parse_related(body: Json) -> RelatedRequest:
    _only(body, {"path", "k"})
    k = _k(body)
    return RelatedRequest(path=parse_note_path(body.get("path"), "path"), k=DEFAULT_RELATED_K if k is None else k)
