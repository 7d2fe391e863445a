"""The reranker over the wire: /api/ask's retrieval event carries `rerank`; /api/search never reranks."""

from __future__ import annotations

import aiohttp

from askvault.api.app import create_app
from askvault.api.server import serve
from askvault.api.services import ApiServices
from askvault.config import RetrievalParams, ServerConfig
from tests.api.conftest import TOKEN
from tests.api.fakes import FakeIndex
from tests.api.test_ask import read_ndjson
from tests.ask.canned import CannedSearcher, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit

HITS = [make_hit(n, f"Text of note {n}.") for n in range(1, 10)]
AUTH = {"Authorization": f"Bearer {TOKEN}"}


async def _post(port: int, path: str, body: dict[str, object]) -> list[dict[str, object]]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"http://127.0.0.1:{port}{path}", json=body, headers=AUTH) as resp,
    ):
        assert resp.status == 200
        if path == "/api/ask":
            return await read_ndjson(resp)
        return [await resp.json()]


async def test_ask_reports_the_rerank_and_search_does_not_rerank(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ["c2", "c1", "c3"]}']))
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Answer [1]."]))
    searcher = CannedSearcher(list(HITS))
    params = RetrievalParams(rerank=True, rerank_candidates=3)
    async with open_pipeline(fake_ollama.url, searcher, retrieval=params) as pipeline:
        server = ServerConfig(port=0)
        app = create_app(ApiServices(searcher, pipeline, FakeIndex()), server, TOKEN, 0)
        async with serve(app, server) as listening:
            events = await _post(listening.port, "/api/ask", {"question": "What is in note 2?", "k": 3})
            (search,) = await _post(listening.port, "/api/search", {"query": "note 2", "k": 3})

    retrieval = events[0]
    assert retrieval["type"] == "retrieval"
    assert retrieval["sent"] == ["chunk-2", "chunk-1", "chunk-3"]
    rerank = retrieval["rerank"]
    assert isinstance(rerank, dict)
    assert isinstance(rerank.pop("ms"), float)
    assert rerank == {
        "applied": True,
        "model": "llama3.2:3b",
        "candidates": 3,
        "fallback_reason": None,
        "detail": None,
        "order_changed": True,
        "omitted": 0,
        "fused_order": ["chunk-1", "chunk-2", "chunk-3"],
    }
    assert [e["type"] for e in events] == ["retrieval", "token", "done"]

    # /api/search is the inspector's fast path: fused order, no model call.
    results = search["results"]
    assert isinstance(results, list)
    assert [r["id"] for r in results] == ["chunk-1", "chunk-2", "chunk-3"]
    assert "rerank" not in search
    assert len(fake_ollama.fake.calls("/api/chat")) == 2
