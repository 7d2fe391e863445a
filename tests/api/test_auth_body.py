"""The bearer token and the body rules: every protected route, every way to get them wrong."""

from __future__ import annotations

import hmac
import json
from collections.abc import AsyncIterator

import pytest
from yarl import URL

from tests.api.conftest import (
    POST_IDS,
    POSTS,
    PROTECTED,
    PROTECTED_IDS,
    Sidecar,
    assert_error,
    assert_untouched,
    raw_request,
)

BAD_AUTH = {
    "missing": {},
    "wrong": {"Authorization": "Bearer not-the-token"},
    "prefix-of-token": {"Authorization": "Bearer test-token"},
    "basic-scheme": {"Authorization": "Basic dGVzdDp0ZXN0"},
    "raw-token": {"Authorization": "test-token-0123456789abcdefghijklmnopqrstuvwxyzAB"},
    "non-ascii": {"Authorization": "Bearer tökén"},
}


@pytest.mark.parametrize("headers", BAD_AUTH.values(), ids=BAD_AUTH.keys())
@pytest.mark.parametrize(("method", "path", "body"), PROTECTED, ids=PROTECTED_IDS)
async def test_protected_routes_need_the_bearer_token(
    sidecar: Sidecar, method: str, path: str, body: object, headers: dict[str, str]
) -> None:
    async with sidecar.session.request(method, sidecar.url(path), json=body, headers=headers) as resp:
        assert resp.status == 401
        assert resp.headers["WWW-Authenticate"] == "Bearer"
        assert_error(await resp.json(), "unauthorized")
    assert_untouched(sidecar)


@pytest.mark.parametrize(("method", "path", "body"), PROTECTED, ids=PROTECTED_IDS)
async def test_token_in_the_url_is_never_accepted(sidecar: Sidecar, method: str, path: str, body: object) -> None:
    url = URL(sidecar.url(path)).with_query(token=sidecar.token, access_token=sidecar.token)
    async with sidecar.session.request(method, url, json=body) as resp:
        assert resp.status == 401


async def test_two_authorization_headers_are_refused(sidecar: Sidecar) -> None:
    head = (
        f"GET /api/status HTTP/1.1\nHost: 127.0.0.1:{sidecar.port}\nAuthorization: Bearer {sidecar.token}\n"
        f"Authorization: Bearer {sidecar.token}\nConnection: close\n\n"
    )
    assert (await raw_request(sidecar.port, head)).status in (400, 401)


async def test_token_is_compared_in_constant_time(sidecar: Sidecar, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    async with sidecar.session.get(sidecar.url("/api/status"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
    assert seen == [(sidecar.token.encode(), sidecar.token.encode())]


async def test_health_needs_no_token_and_says_nothing_else(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/health")) as resp:
        assert resp.status == 200
        assert await resp.json() == {"ok": True}


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
        None,
    ],
    ids=["text-plain", "form", "multipart", "latin1-json", "missing"],
)
@pytest.mark.parametrize(("method", "path", "body"), POSTS, ids=POST_IDS)
async def test_non_json_posts_are_refused_even_with_the_token(
    sidecar: Sidecar, method: str, path: str, body: object, content_type: str | None
) -> None:
    headers = sidecar.auth()
    if content_type is not None:
        headers["Content-Type"] = content_type
    data = json.dumps(body).encode()
    skip = () if content_type is not None else ("Content-Type",)
    async with sidecar.session.request(
        method, sidecar.url(path), data=data, headers=headers, skip_auto_headers=skip
    ) as resp:
        assert resp.status == 415
        assert_error(await resp.json(), "unsupported_media_type")
    assert_untouched(sidecar)


@pytest.mark.parametrize(("method", "path", "body"), POSTS, ids=POST_IDS)
async def test_oversized_bodies_are_refused(sidecar: Sidecar, method: str, path: str, body: object) -> None:
    big = json.dumps({"query": "x" * (300 * 1024)}).encode()
    async with sidecar.session.request(
        method, sidecar.url(path), data=big, headers=sidecar.auth(**{"Content-Type": "application/json"})
    ) as resp:
        assert resp.status == 413
        assert_error(await resp.json(), "payload_too_large")


async def test_oversized_chunked_body_is_refused(sidecar: Sidecar) -> None:
    async def pieces() -> AsyncIterator[bytes]:
        yield b'{"query": "'
        for _ in range(40):
            yield b"x" * 8192
        yield b'"}'

    headers = sidecar.auth(**{"Content-Type": "application/json"})
    async with sidecar.session.post(sidecar.url("/api/search"), data=pieces(), headers=headers) as resp:
        assert resp.status == 413
        assert_error(await resp.json(), "payload_too_large")
    assert_untouched(sidecar)
