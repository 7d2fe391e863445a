"""The one error shape on every route and every failure; no paths, no note text, no tracebacks leak."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from yarl import URL

from askvault.api.errors import redact_paths
from askvault.errors import ModelUnreachable, StoreError
from tests.api.conftest import Sidecar, assert_error, raw_request

JSON = {"Content-Type": "application/json"}

# (id, method, path, body bytes or None, status, code): one row per way a request can fail.
FAILURES = [
    ("unknown-route", "GET", "/api/nope", None, 404, "not_found"),
    ("unknown-root", "GET", "/", None, 404, "not_found"),
    ("wrong-method", "GET", "/api/search", None, 405, "method_not_allowed"),
    ("delete", "DELETE", "/api/chunks/c8a1f0e29b7d4a36", None, 405, "method_not_allowed"),
    ("search-k", "POST", "/api/search", b'{"query": "kodi", "k": 51}', 400, "bad_request"),
    ("search-mode", "POST", "/api/search", b'{"query": "kodi", "mode": "fuzzy"}', 400, "bad_request"),
    ("search-empty", "POST", "/api/search", b'{"query": ""}', 400, "bad_request"),
    (
        "search-date",
        "POST",
        "/api/search",
        b'{"query": "x", "filters": {"modified_after": "last week"}}',
        400,
        "bad_request",
    ),
    ("ask-history", "POST", "/api/ask", b'{"question": "x", "history": "all of it"}', 400, "bad_request"),
    ("reindex-full", "POST", "/api/reindex", b'{"full": "yes"}', 400, "bad_request"),
    ("invalid-json", "POST", "/api/search", b'{"query": ', 400, "bad_request"),
    ("not-object", "POST", "/api/search", b'["kodi"]', 400, "bad_request"),
    ("nan", "POST", "/api/search", b'{"query": "x", "k": NaN}', 400, "bad_request"),
    ("bad-utf8", "POST", "/api/search", b'{"query": "\xff\xfe"}', 400, "bad_request"),
    ("deep-array", "POST", "/api/search", b"[" * 100_000 + b"]" * 100_000, 400, "bad_request"),
    (
        "deep-object",
        "POST",
        "/api/ask",
        b'{"question": "x", "filters": ' + b'{"a": ' * 40 + b"1" + b"}" * 41,
        400,
        "bad_request",
    ),
    ("chunk-missing", "GET", "/api/chunks/ffffffffffffffff", None, 404, "not_found"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"), [f[1:] for f in FAILURES], ids=[f[0] for f in FAILURES]
)
async def test_every_failure_has_the_one_error_shape(
    sidecar: Sidecar, method: str, path: str, body: bytes | None, status: int, code: str
) -> None:
    headers = sidecar.auth(**JSON) if body is not None else sidecar.auth()
    async with sidecar.session.request(method, sidecar.url(path), data=body, headers=headers) as resp:
        assert resp.status == status
        assert resp.content_type == "application/json"
        assert_error(await resp.json(), code)


async def test_k_message_matches_the_contract(sidecar: Sidecar) -> None:
    async with sidecar.session.post(
        sidecar.url("/api/search"), json={"query": "kodi", "k": 0}, headers=sidecar.auth()
    ) as resp:
        assert await resp.json() == {"error": {"code": "bad_request", "message": "k must be between 1 and 50"}}


TRAVERSALS = [
    "..%2f..%2fetc%2fpasswd",
    "..%2F..%2Fetc",
    "%2e%2e",
    "%2e%2e%2f%2e%2e%2fetc",
    "..",
    "..%5c..%5cwindows",
    "c8a1f0e29b7d4a36%00",
    "c8a1f0e29b7d4a36.md",
    ".obsidian",
    "note.md:stream",
    "a" * 65,
    "%2fetc%2fpasswd",
    "~root",
]


@pytest.mark.parametrize("raw_id", TRAVERSALS)
async def test_chunk_ids_are_validated_before_any_lookup(sidecar: Sidecar, raw_id: str) -> None:
    url = URL(sidecar.url("/api/chunks/") + raw_id, encoded=True)
    async with sidecar.session.get(url, headers=sidecar.auth()) as resp:
        assert resp.status == 404
        body = await resp.json()
    assert_error(body, "not_found")
    assert "passwd" not in json.dumps(body)
    assert "etc" not in body["error"]["message"]
    assert sidecar.index.chunk_lookups == []


async def test_raw_dot_segments_never_reach_a_lookup(sidecar: Sidecar) -> None:
    head = f"GET /api/chunks/../../etc/passwd HTTP/1.1\nHost: 127.0.0.1:{sidecar.port}\n"
    head += f"Authorization: Bearer {sidecar.token}\nConnection: close\n\n"
    resp = await raw_request(sidecar.port, head)
    assert resp.status == 404
    assert_error(resp.json(), "not_found")
    assert sidecar.index.chunk_lookups == []


async def test_unexpected_errors_are_generic(sidecar: Sidecar, tmp_path: Path) -> None:
    secret_note = "my bank PIN is 4711"
    sidecar.searcher.fail_with = RuntimeError(f"cannot open {tmp_path}/index.sqlite: {secret_note}")
    async with sidecar.session.post(sidecar.url("/api/search"), json={"query": "x"}, headers=sidecar.auth()) as resp:
        assert resp.status == 500
        text = await resp.text()
    assert_error(json.loads(text), "internal")
    assert str(tmp_path) not in text
    assert secret_note not in text
    assert "Traceback" not in text


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (StoreError("the vector store at {dir}/qdrant is corrupt"), 500, "store_error"),
        (
            ModelUnreachable("cannot reach Ollama at http://127.0.0.1:11434 (socket {dir}/ollama.sock)"),
            503,
            "ollama_unreachable",
        ),
    ],
    ids=["store", "ollama"],
)
async def test_engine_errors_keep_their_code_but_lose_paths(
    sidecar: Sidecar, tmp_path: Path, error: Exception, status: int, code: str
) -> None:
    sidecar.searcher.fail_with = type(error)(str(error).format(dir=tmp_path))
    async with sidecar.session.post(sidecar.url("/api/search"), json={"query": "x"}, headers=sidecar.auth()) as resp:
        assert resp.status == status
        text = await resp.text()
    assert_error(json.loads(text), code)
    assert str(tmp_path) not in text
    assert "<path>" in text


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("the vector store at /home/ana/.local/share/askvault is corrupt", "the vector store at <path> is corrupt"),
        ("cannot read '/tmp/x/y.md'", "cannot read '<path>'"),
        ("config in ~/.config/askvault.toml", "config in <path>"),
        (r"cannot open C:\Users\ana\AppData\askvault", "cannot open <path>"),
        (r"share \\nas\vault is offline", "share <path> is offline"),
        ("Homelab/Kodi.md: invalid UTF-8 at byte 12", "Homelab/Kodi.md: invalid UTF-8 at byte 12"),
        ("cannot reach http://127.0.0.1:11434/api/chat", "cannot reach http://127.0.0.1:11434/api/chat"),
        ("k must be between 1 and 50", "k must be between 1 and 50"),
        ("read 3/4 notes", "read 3/4 notes"),
        ("a / b", "a / b"),
    ],
    ids=["posix", "quoted", "home", "windows", "unc", "vault-relative", "url", "plain", "fraction", "slash"],
)
def test_redact_paths(message: str, expected: str) -> None:
    assert redact_paths(message) == expected
