"""Pure checks, table-driven: request parsing, Host matching, bearer matching."""

from __future__ import annotations

import pytest

from askvault.api.security import bearer_matches, host_allowed
from askvault.api.validate import (
    AskRequest,
    SearchRequest,
    parse_ask,
    parse_filters,
    parse_instant,
    parse_json_object,
    parse_reindex,
    parse_search,
)
from askvault.errors import BadRequest
from askvault.model import Message, SearchFilters


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-01-01", 1767225600.0),
        ("2026-01-01T12:30:00", 1767270600.0),
        ("2026-01-01T12:30:00Z", 1767270600.0),
        ("2026-01-01T14:30:00+02:00", 1767270600.0),
        (1767225600, 1767225600.0),
        (1767225600.5, 1767225600.5),
        (0, 0.0),
    ],
    ids=["date", "naive-utc", "zulu", "offset", "epoch-int", "epoch-float", "epoch-zero"],
)
def test_parse_instant(value: object, expected: float) -> None:
    assert parse_instant(value, "filters.modified_after") == expected


@pytest.mark.parametrize(
    "value",
    ["last week", "", "2026-13-01", "01/02/2026", True, None, [2026], float("inf"), float("nan"), "x" * 41],
    ids=["words", "empty", "month-13", "us-date", "bool", "null", "list", "inf", "nan", "long"],
)
def test_parse_instant_rejects(value: object) -> None:
    with pytest.raises(BadRequest, match=r"^filters\.modified_after must"):
        parse_instant(value, "filters.modified_after")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (None, None),
        ({}, None),
        ({"folder": None, "tag": None}, None),
        ({"folder": "Homelab/"}, SearchFilters(folder="Homelab/")),
        ({"tag": "#media"}, SearchFilters(tag="#media")),
        (
            {"modified_after": "2026-01-01", "modified_before": "2026-01-02"},
            SearchFilters(modified_after=1767225600.0, modified_before=1767312000.0),
        ),
    ],
    ids=["absent", "empty", "nulls", "folder", "tag", "range"],
)
def test_parse_filters(body: object, expected: SearchFilters | None) -> None:
    assert parse_filters(body) == expected


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("Homelab", "filters must be an object"),
        ({"path": "x"}, "unknown field 'filters.path'"),
        ({"folder": ""}, "filters.folder must be a non-empty string"),
        ({"folder": 3}, "filters.folder must be a non-empty string"),
        ({"tag": "x" * 1025}, "filters.tag must be at most 1024 characters"),
        ({"folder": "a\x00b"}, "filters.folder must not contain NUL"),
        ({"modified_after": 20, "modified_before": 10}, "filters.modified_after must not be later"),
    ],
    ids=["not-object", "unknown", "empty", "number", "long", "nul", "reversed"],
)
def test_parse_filters_rejects(body: object, message: str) -> None:
    with pytest.raises(BadRequest, match="^" + message.replace("(", r"\(")):
        parse_filters(body)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"query": "kodi"}, SearchRequest("kodi")),
        ({"query": " kodi ", "k": 50, "mode": "dense"}, SearchRequest("kodi", 50, "dense")),
        ({"query": "kodi", "k": None, "mode": None, "filters": None}, SearchRequest("kodi")),
        ({"query": "x" * 2000}, SearchRequest("x" * 2000)),
    ],
    ids=["minimal", "full", "nulls", "longest"],
)
def test_parse_search(body: dict[str, object], expected: SearchRequest) -> None:
    assert parse_search(body) == expected


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "query is required"),
        ({"query": 3}, "query must be a non-empty string"),
        ({"query": "x", "k": True}, "k must be between 1 and 50"),
        ({"query": "x", "k": 2.5}, "k must be between 1 and 50"),
        ({"query": "x", "k": "8"}, "k must be between 1 and 50"),
        ({"query": "x", "mode": "HYBRID"}, "mode must be one of hybrid, dense, keyword"),
        ({"query": "x", "limit": 3}, "unknown field 'limit'"),
    ],
    ids=["missing", "number", "bool-k", "float-k", "string-k", "mode-case", "unknown"],
)
def test_parse_search_rejects(body: dict[str, object], message: str) -> None:
    with pytest.raises(BadRequest, match="^" + message):
        parse_search(body)


def test_parse_ask() -> None:
    body: dict[str, object] = {
        "question": "and its port?",
        "history": [{"role": "user", "content": "Postgres?"}, {"role": "assistant", "content": ""}],
        "k": 4,
    }
    assert parse_ask(body) == AskRequest(
        "and its port?", (Message("user", "Postgres?"), Message("assistant", "")), 4, None
    )


@pytest.mark.parametrize(
    ("body", "force"),
    [({"question": "x"}, False), ({"question": "x", "force": True}, True), ({"question": "x", "force": None}, False)],
    ids=["absent", "true", "null"],
)
def test_parse_ask_force(body: dict[str, object], force: bool) -> None:
    assert parse_ask(body).force is force


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"question": "x", "force": "yes"}, "force must be true or false"),
        ({"question": "x", "force": 1}, "force must be true or false"),
        ({"question": "x", "history": [3]}, r"history\[0\] must be an object"),
        ({"question": "x", "history": [{"role": "user"}]}, r"history\[0\]\.content must be a string"),
        ({"question": "x", "history": [{"role": "user", "content": "", "name": "x"}]}, "unknown field 'history"),
    ],
    ids=["force-string", "force-number", "not-object", "no-content", "extra-key"],
)
def test_parse_ask_rejects(body: dict[str, object], message: str) -> None:
    with pytest.raises(BadRequest, match="^" + message):
        parse_ask(body)


@pytest.mark.parametrize(("body", "full"), [({}, False), ({"full": True}, True), ({"full": None}, False)])
def test_parse_reindex(body: dict[str, object], full: bool) -> None:
    assert parse_reindex(body).full is full


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[1]", "the body must be a JSON object"),
        (b'"x"', "the body must be a JSON object"),
        (b"{", "the body is not valid JSON"),
        (b'{"a": Infinity}', "the body is not valid JSON"),
        (b"\xff", "the body is not valid UTF-8"),
        (b'{"a":' * 9 + b"1" + b"}" * 9, "the body is nested too deeply"),
        (b"[" * 50_000 + b"]" * 50_000, "the body is nested too deeply"),
    ],
    ids=["array", "string", "truncated", "infinity", "utf8", "depth-9", "very-deep"],
)
def test_parse_json_object_rejects(raw: bytes, message: str) -> None:
    with pytest.raises(BadRequest, match="^" + message):
        parse_json_object(raw)


@pytest.mark.parametrize(
    ("raw", "expected"), [(b"", {}), (b"  \n", {}), (b'{"a": [1, {"b": 2}]}', {"a": [1, {"b": 2}]})]
)
def test_parse_json_object(raw: bytes, expected: dict[str, object]) -> None:
    assert parse_json_object(raw) == expected


PORTS = frozenset({27582})


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:27582", True),
        ("localhost:27582", True),
        ("LocalHost:27582", True),
        ("[::1]:27582", True),
        ("127.0.0.1:27124", False),
        ("127.0.0.1:027582", False),
        ("127.0.0.1", False),
        ("localhost.:27582", False),
        ("attacker.example:27582", False),
        ("127.0.0.1.nip.io:27582", False),
        ("localhost.attacker.example:27582", False),
        ("127.0.0.2:27582", False),
        ("192.168.1.5:27582", False),
        ("[fe80::1]:27582", False),
        ("fe80::1:27582", False),
        ("nas.local:27582", False),
        ("", False),
        (None, False),
        ("127.0.0.1:２７１２３", False),
    ],
)
def test_host_allowed(host: str | None, allowed: bool) -> None:
    """Loopback names only: another address, even an IP literal, is remote mode's (TLS) business."""
    assert host_allowed(host, PORTS) is allowed


TOKEN = "s3cr3t-token-that-is-long-enough-0123456789abc"


@pytest.mark.parametrize(
    ("headers", "ok"),
    [
        ([f"Bearer {TOKEN}"], True),
        ([f"bearer {TOKEN}"], True),
        ([f"  Bearer {TOKEN}  "], True),
        ([], False),
        ([f"Bearer {TOKEN}", f"Bearer {TOKEN}"], False),
        ([f"Bearer {TOKEN}x"], False),
        ([f"Bearer {TOKEN[:-1]}"], False),
        ([TOKEN], False),
        ([f"Basic {TOKEN}"], False),
        (["Bearer "], False),
        (["Bearer ü"], False),
    ],
    ids=[
        "exact",
        "scheme-case",
        "padded",
        "none",
        "twice",
        "longer",
        "shorter",
        "no-scheme",
        "basic",
        "empty",
        "unicode",
    ],
)
def test_bearer_matches(headers: list[str], ok: bool) -> None:
    assert bearer_matches(headers, TOKEN) is ok
