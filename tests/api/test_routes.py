"""The routes as docs/api.md states them: bodies, statuses, what reaches the services."""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest

from askvault import API_VERSION, __version__
from askvault.api import server as server_module
from askvault.api.app import ApiSettings
from askvault.model import SearchFilters
from tests.api.conftest import Sidecar, StartSidecar, assert_error
from tests.api.samples import KODI, STATUS


async def test_health(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/health")) as resp:
        assert resp.status == 200
        assert resp.content_type == "application/json"
        assert await resp.json() == {"ok": True}
    assert sidecar.index.status_calls == 0


async def test_status_adds_version_and_capabilities(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/status"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        body = await resp.json()
    assert list(body) == ["api_version", "version", "capabilities", "vault", "index", "models", "embedder", "store"]
    assert body["api_version"] == API_VERSION
    assert body["version"] == __version__
    assert body["capabilities"] == ["search", "ask", "reindex", "events", "chunks", "explain", "related"]
    assert {k: body[k] for k in STATUS} == STATUS


async def test_search_passes_the_request_to_the_searcher(sidecar: Sidecar) -> None:
    request = {
        "query": "  kodi maintenance ",
        "k": 2,
        "mode": "keyword",
        "filters": {"folder": "Homelab/", "tag": "media", "modified_after": "2026-01-01", "modified_before": 1.8e9},
    }
    async with sidecar.session.post(sidecar.url("/api/search"), json=request, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        body = await resp.json()
    assert sidecar.searcher.calls == [
        ("kodi maintenance", 2, "keyword", SearchFilters("Homelab/", "media", 1767225600.0, 1.8e9))
    ]
    assert list(body) == ["query", "terms", "counts", "results", "timings_ms", "date_scope", "relevance"]
    assert [r["id"] for r in body["results"]] == ["c8a1f0e29b7d4a36", "9d4e6a10b3c25f78"]
    first = body["results"][0]
    assert first == {
        "id": KODI.id,
        "path": "Homelab/Kodi.md",
        "title": "Kodi",
        "heading_path": ["Kodi", "Maintenance"],
        "start_line": 12,
        "end_line": 30,
        "text": KODI.text,
        "dense_rank": 2,
        "keyword_rank": 1,
        "fused_score": first["fused_score"],
        "dense_score": 0.71,
        "keyword_score": 9.4,
    }
    assert body["relevance"] is None, "the decision is calibrated on hybrid searches only"


async def test_search_defaults(sidecar: Sidecar) -> None:
    async with sidecar.session.post(sidecar.url("/api/search"), json={"query": "kodi"}, headers=sidecar.auth()) as r:
        assert r.status == 200
        body = await r.json()
    assert sidecar.searcher.calls == [("kodi", 8, "hybrid", None)]
    assert body["results"][2]["keyword_rank"] is None


async def test_reindex_accepts_then_conflicts(sidecar: Sidecar) -> None:
    async with sidecar.session.post(sidecar.url("/api/reindex"), json={"full": True}, headers=sidecar.auth()) as r:
        assert r.status == 202
        assert await r.json() == {"accepted": True}
    async with sidecar.session.post(sidecar.url("/api/reindex"), json={}, headers=sidecar.auth()) as r:
        assert r.status == 409
        assert_error(await r.json(), "conflict")
    assert sidecar.index.reindex_calls == [True, False]


async def test_reindex_accepts_an_empty_json_body(sidecar: Sidecar) -> None:
    headers = sidecar.auth(**{"Content-Type": "application/json"})
    async with sidecar.session.post(sidecar.url("/api/reindex"), data=b"", headers=headers) as r:
        assert r.status == 202
    assert sidecar.index.reindex_calls == [False]


async def test_chunk_by_id(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url(f"/api/chunks/{KODI.id}"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        body = await resp.json()
    assert body == {
        "id": KODI.id,
        "path": KODI.path,
        "title": KODI.title,
        "heading_path": list(KODI.heading_path),
        "start_line": KODI.start_line,
        "end_line": KODI.end_line,
        "text": KODI.text,
    }


async def test_unknown_chunk_is_404(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/chunks/0000000000000000"), headers=sidecar.auth()) as resp:
        assert resp.status == 404
        assert_error(await resp.json(), "not_found")


async def _lines(resp: aiohttp.ClientResponse, count: int) -> list[dict[str, object]]:
    return [json.loads(await resp.content.readline()) for _ in range(count)]


async def test_events_stream_status_then_events_then_heartbeats(make_sidecar: StartSidecar) -> None:
    async with make_sidecar(settings=ApiSettings(heartbeat_s=0.05)) as sc:
        async with sc.session.get(sc.url("/api/events"), headers=sc.auth()) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/x-ndjson"
            [first] = await _lines(resp, 1)
            assert first["type"] == "status"
            assert isinstance(first["status"], dict)
            assert first["status"]["api_version"] == API_VERSION
            assert first["status"]["index"] == STATUS["index"]
            assert (await _lines(resp, 1)) == [{"type": "heartbeat"}]
            sc.index.publish({"type": "index", "state": "indexing", "done": 3, "total": 152})
            sc.index.publish({"type": "models", "models": STATUS["models"]})
            seen = [line for line in await _lines(resp, 4) if line["type"] != "heartbeat"]
            assert seen[:2] == [
                {"type": "index", "state": "indexing", "done": 3, "total": 152},
                {"type": "models", "models": STATUS["models"]},
            ]
        await asyncio.wait_for(sc.index.unsubscribed.wait(), 30)
        assert sc.index.closed_subscriptions == 1
        assert sc.index.queues == []


async def test_events_stream_ends_when_the_source_ends(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/events"), headers=sidecar.auth()) as resp:
        await sidecar.index.subscribed.wait()
        sidecar.index.publish({"type": "index", "state": "idle", "done": 152, "total": 152})
        sidecar.index.publish(None)
        lines = (await resp.read()).decode().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["status", "index"]


async def test_shutdown_closes_open_event_streams(make_sidecar: StartSidecar, monkeypatch: pytest.MonkeyPatch) -> None:
    # With no grace period to fall back on, only the shutdown hook can end the stream (else: test timeout).
    monkeypatch.setattr(server_module, "SHUTDOWN_TIMEOUT_S", 3600.0)
    async with aiohttp.ClientSession() as own:
        async with make_sidecar() as sc:
            resp = await own.get(sc.url("/api/events"), headers=sc.auth())
            assert json.loads(await resp.content.readline())["type"] == "status"
            assert sc.index.closed_subscriptions == 0
        # The server stopped with this client still connected: its stream was ended, not left hanging.
        assert sc.index.closed_subscriptions == 1
        with pytest.raises(aiohttp.ClientPayloadError):
            await resp.read()
        resp.release()


@pytest.mark.parametrize("path", ["/api/events", "/api/status"])
async def test_get_routes_refuse_post(sidecar: Sidecar, path: str) -> None:
    async with sidecar.session.post(sidecar.url(path), json={}, headers=sidecar.auth()) as resp:
        assert resp.status == 405
        assert_error(await resp.json(), "method_not_allowed")


class _BrokenSource:
    """An event source that fails on its second event."""

    def __init__(self) -> None:
        self.closed = False
        self.sent = 0

    def __aiter__(self) -> _BrokenSource:
        return self

    async def __anext__(self) -> dict[str, object]:
        self.sent += 1
        if self.sent > 1:
            raise RuntimeError("watcher crashed")
        return {"type": "index", "state": "indexing", "done": 1, "total": 2}

    async def aclose(self) -> None:
        self.closed = True


async def test_a_failing_event_source_ends_the_stream_cleanly(
    sidecar: Sidecar, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _BrokenSource()
    monkeypatch.setattr(sidecar.index, "subscribe", lambda: source)
    async with sidecar.session.get(sidecar.url("/api/events"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        lines = [json.loads(line) for line in (await resp.read()).decode().splitlines()]
    assert [line["type"] for line in lines] == ["status", "index"]
    assert source.closed


async def test_a_failing_status_is_a_plain_500(sidecar: Sidecar, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> dict[str, object]:
        raise RuntimeError("manifest unreadable")

    monkeypatch.setattr(sidecar.index, "status", broken)
    for path in ("/api/status", "/api/events"):
        async with sidecar.session.get(sidecar.url(path), headers=sidecar.auth()) as resp:
            assert resp.status == 500
            body = await resp.json()
        assert_error(body, "internal")
        assert "manifest" not in body["error"]["message"]
    assert sidecar.index.closed_subscriptions == 1


@pytest.mark.parametrize("path", ["/api/health", "/api/status", "/api/events", "/api/chunks/c8a1f0e29b7d4a36"])
async def test_head_is_not_served(sidecar: Sidecar, path: str) -> None:
    async with sidecar.session.head(sidecar.url(path), headers=sidecar.auth()) as resp:
        assert resp.status == 405


async def test_the_token_never_reaches_the_log(sidecar: Sidecar, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        for headers in (sidecar.auth(), {"Authorization": "Bearer wrong"}, {}):
            async with sidecar.session.get(sidecar.url("/api/status"), headers=headers) as resp:
                await resp.read()
        sidecar.searcher.fail_with = RuntimeError("boom")
        async with sidecar.session.post(sidecar.url("/api/search"), json={"query": "x"}, headers=sidecar.auth()) as r:
            assert r.status == 500
    assert "boom" in caplog.text  # the traceback is logged locally…
    assert sidecar.token not in caplog.text  # …but never the token
