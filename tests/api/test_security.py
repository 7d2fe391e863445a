"""The Host guard (DNS rebinding) and the exact Origin allow-list with its CORS answers, on every route."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tests.api.conftest import (
    ORIGIN,
    ROUTE_IDS,
    ROUTES,
    Sidecar,
    StartSidecar,
    assert_error,
    assert_untouched,
    raw_request,
)

BAD_HOSTS = {
    "foreign-name": "attacker.example:{port}",
    "rebinding-suffix": "127.0.0.1.nip.io:{port}",
    "localhost-prefix": "localhost.attacker.example:{port}",
    "other-port": "127.0.0.1:{other}",
    "no-port": "localhost",
    "unbracketed-v6": "::1:{port}",
    "unspecified": "0.0.0.0:{port}",
    "empty": "",
}


def _no_cors(headers: Mapping[str, str]) -> None:
    names = {n.lower() for n in headers}
    assert not {n for n in names if n.startswith("access-control-")}


@pytest.mark.parametrize("host", BAD_HOSTS.values(), ids=BAD_HOSTS.keys())
@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
async def test_foreign_host_is_refused_on_every_route(
    sidecar: Sidecar, method: str, path: str, body: object, host: str
) -> None:
    headers = sidecar.auth(Host=host.format(port=sidecar.port, other=sidecar.port + 1), Origin=ORIGIN)
    async with sidecar.session.request(method, sidecar.url(path), json=body, headers=headers) as resp:
        assert resp.status == 403
        assert_error(await resp.json(), "forbidden")
        _no_cors(resp.headers)
    assert_untouched(sidecar)


@pytest.mark.parametrize("host", BAD_HOSTS.values(), ids=BAD_HOSTS.keys())
async def test_foreign_host_is_refused_on_preflight(sidecar: Sidecar, host: str) -> None:
    headers = {"Host": host.format(port=sidecar.port, other=sidecar.port + 1), "Origin": ORIGIN}
    headers["Access-Control-Request-Method"] = "POST"
    async with sidecar.session.options(sidecar.url("/api/search"), headers=headers) as resp:
        assert resp.status == 403
        _no_cors(resp.headers)


@pytest.mark.parametrize(
    "head",
    [
        "GET /api/health HTTP/1.0\n\n",
        "GET /api/health HTTP/1.1\nHost:\nConnection: close\n\n",
        "GET /api/health HTTP/1.1\nHost:  \nConnection: close\n\n",
        "OPTIONS /api/search HTTP/1.0\nOrigin: app://obsidian.md\nAccess-Control-Request-Method: POST\n\n",
    ],
    ids=["missing-http10", "empty", "blank", "preflight-missing"],
)
async def test_missing_or_empty_host_is_refused(sidecar: Sidecar, head: str) -> None:
    resp = await raw_request(sidecar.port, head)
    assert resp.status == 403
    assert_error(resp.json(), "forbidden")
    assert not [h for h in resp.headers if h.startswith("access-control-")]


async def test_http11_without_host_never_reaches_the_app(sidecar: Sidecar) -> None:
    # aiohttp's parser refuses it (a plain 400) before any middleware or route runs.
    resp = await raw_request(sidecar.port, "GET /api/status HTTP/1.1\nConnection: close\n\n")
    assert resp.status == 400
    assert_untouched(sidecar)
    assert not [h for h in resp.headers if h.startswith("access-control-")]


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
async def test_loopback_hosts_with_our_port_pass(sidecar: Sidecar, name: str) -> None:
    headers = {"Host": f"{name}:{sidecar.port}"}
    async with sidecar.session.get(sidecar.url("/api/health"), headers=headers) as resp:
        assert resp.status == 200
        assert await resp.json() == {"ok": True}


BAD_ORIGINS = {
    "foreign": "https://evil.example",
    "null": "null",
    "look-alike-suffix": "app://obsidian.md.evil",
    "trailing-slash": "app://obsidian.md/",
    "other-scheme": "http://obsidian.md",
    "upper-case": "APP://OBSIDIAN.MD",
    "localhost-page": "http://localhost:3000",
    "empty": "",
}


@pytest.mark.parametrize("origin", BAD_ORIGINS.values(), ids=BAD_ORIGINS.keys())
@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
async def test_foreign_origin_is_refused_without_cors_headers(
    sidecar: Sidecar, method: str, path: str, body: object, origin: str
) -> None:
    headers = sidecar.auth(Origin=origin)
    async with sidecar.session.request(method, sidecar.url(path), json=body, headers=headers) as resp:
        assert resp.status == 403
        assert_error(await resp.json(), "forbidden")
        _no_cors(resp.headers)


@pytest.mark.parametrize("origin", BAD_ORIGINS.values(), ids=BAD_ORIGINS.keys())
async def test_foreign_origin_preflight_is_refused(sidecar: Sidecar, origin: str) -> None:
    headers = {"Origin": origin, "Access-Control-Request-Method": "POST"}
    async with sidecar.session.options(sidecar.url("/api/ask"), headers=headers) as resp:
        assert resp.status == 403
        _no_cors(resp.headers)


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
async def test_preflight_from_obsidian_needs_no_token(sidecar: Sidecar, method: str, path: str, body: object) -> None:
    headers = {
        "Origin": ORIGIN,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    async with sidecar.session.options(sidecar.url(path), headers=headers) as resp:
        assert resp.status == 204
        assert resp.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert "Origin" in resp.headers["Vary"]
        assert resp.headers["Access-Control-Allow-Methods"] == "GET, POST, OPTIONS"
        assert resp.headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type"
        assert resp.headers["Access-Control-Max-Age"] == "600"
        assert "Access-Control-Allow-Credentials" not in resp.headers
        assert all("*" not in value for value in resp.headers.values())
        assert await resp.read() == b""


async def test_private_network_preflight_is_answered_for_obsidian_only(sidecar: Sidecar) -> None:
    headers = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
    headers["Access-Control-Request-Private-Network"] = "true"
    async with sidecar.session.options(sidecar.url("/api/ask"), headers=headers) as resp:
        assert resp.status == 204
        assert resp.headers["Access-Control-Allow-Private-Network"] == "true"


async def test_configured_extra_origin_is_allowed_exactly(make_sidecar: StartSidecar) -> None:
    from askvault.config import ServerConfig

    extra = "http://localhost:5173"
    async with make_sidecar(server=ServerConfig(port=0, extra_origins=(extra,))) as sc:
        headers = {"Origin": extra, "Access-Control-Request-Method": "GET"}
        async with sc.session.options(sc.url("/api/status"), headers=headers) as resp:
            assert resp.status == 204
            assert resp.headers["Access-Control-Allow-Origin"] == extra
        headers = sc.auth(Origin="http://localhost:5174")
        async with sc.session.get(sc.url("/api/status"), headers=headers) as resp:
            assert resp.status == 403


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
async def test_allowed_origin_gets_exact_cors_headers(sidecar: Sidecar, method: str, path: str, body: object) -> None:
    async with sidecar.session.request(
        method, sidecar.url(path), json=body, headers=sidecar.auth(Origin=ORIGIN)
    ) as resp:
        assert resp.status in (200, 202)
        assert resp.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert resp.headers["Vary"] == "Origin"
        assert all("*" not in value for value in resp.headers.values())
        await resp.content.readline()  # enough for /api/events, which never ends by itself


async def test_errors_carry_cors_headers_so_the_plugin_can_read_them(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/status"), headers={"Origin": ORIGIN}) as resp:
        assert resp.status == 401
        assert resp.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert_error(await resp.json(), "unauthorized")


async def test_no_origin_means_no_cors_headers(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/status"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        _no_cors(resp.headers)
