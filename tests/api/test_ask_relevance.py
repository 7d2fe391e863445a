"""The relevance decision over the wire: /api/ask's retrieval event carries `relevance` and `closest`, `force`
sends the notes anyway, and /api/search never abstains."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from askvault.api.app import create_app
from askvault.api.server import serve
from askvault.api.services import ApiServices
from askvault.ask.pipeline import NOT_COVERED_ANSWER
from askvault.ask.relevance import FALLBACK
from askvault.config import ServerConfig
from askvault.model import TermStat
from askvault.wire.search_scored import SearchRelevance
from tests.api.conftest import TOKEN, assert_error
from tests.api.fakes import FakeIndex
from tests.api.test_ask import read_ndjson
from tests.ask.canned import CannedSearcher, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit

AUTH = {"Authorization": f"Bearer {TOKEN}"}
QUESTION = "What is the wifi password of the boat?"
WEAK = [
    make_hit(1, "Backups run nightly at 02:00.", title="Backups", legs="dense", dense_score=0.31),
    make_hit(2, "Kodi runs in the living room.", title="Kodi", legs="dense", dense_score=0.22),
]
TERMS = [TermStat("wifi", 0, 0.0), TermStat("password", 0, 0.0), TermStat("boat", 0, 0.0)]


@pytest.fixture
async def api(fake_ollama: RunningOllama) -> AsyncIterator[str]:
    """The real app in front of the real pipeline (fake Ollama, canned weak hits); yields its base URL."""
    searcher = CannedSearcher(list(WEAK), terms=list(TERMS))
    async with open_pipeline(fake_ollama.url, searcher) as pipeline:
        server = ServerConfig(port=0)
        judge = SearchRelevance(FALLBACK, 8)  # the pipeline's own calibration (open_pipeline's default)
        app = create_app(ApiServices(searcher, pipeline, FakeIndex(), search_relevance=judge), server, TOKEN, 0)
        async with serve(app, server) as listening:
            yield f"http://127.0.0.1:{listening.port}"


async def _ask(base: str, body: dict[str, object]) -> list[dict[str, object]]:
    async with aiohttp.ClientSession() as session, session.post(f"{base}/api/ask", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        return await read_ndjson(resp)


async def test_an_abstention_reports_the_decision_and_the_closest_notes(api: str, fake_ollama: RunningOllama) -> None:
    events = await _ask(api, {"question": QUESTION})

    assert [e["type"] for e in events] == ["retrieval", "token", "done"]
    retrieval = events[0]
    relevance = retrieval["relevance"]
    assert isinstance(relevance, dict)
    assert set(relevance) == {"answer", "score", "threshold", "signals", "calibration", "forced", "reason"}
    assert (relevance["answer"], relevance["forced"], relevance["threshold"]) == (False, False, 0.5)
    assert relevance["signals"] == {
        "top_dense": 0.31,
        "keyword_strength": None,
        "term_coverage": None,
        "legs_agree": False,
        "dense_gap": None,
        "dense_available": True,
    }
    assert relevance["calibration"] == {"model": "*", "source": "fallback (no calibration for this embedding model)"}
    closest = retrieval["closest"]
    assert isinstance(closest, list)
    assert [(c["path"], c["sent"], c["dense_score"]) for c in closest] == [
        ("Notes/Backups.md", False, 0.31),
        ("Notes/Kodi.md", False, 0.22),
    ]
    assert (retrieval["sent"], retrieval["prompt"]) == ([], [])
    assert events[-1]["answer"] == NOT_COVERED_ANSWER
    assert events[-1]["no_results"] is True
    assert fake_ollama.fake.calls("/api/chat") == []


async def test_force_sends_them_anyway(api: str, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Nothing about boats [1]."]))
    events = await _ask(api, {"question": QUESTION, "force": True})

    relevance = events[0]["relevance"]
    assert isinstance(relevance, dict)
    assert (relevance["answer"], relevance["forced"]) == (True, True)
    assert events[0]["closest"] == []
    assert events[0]["sent"] == ["chunk-1", "chunk-2"]
    assert events[-1]["answer"] == "Nothing about boats [1]."
    assert len(fake_ollama.fake.calls("/api/chat")) == 1


async def test_force_must_be_a_boolean(api: str) -> None:
    body = {"question": QUESTION, "force": "yes"}
    async with aiohttp.ClientSession() as session, session.post(f"{api}/api/ask", json=body, headers=AUTH) as resp:
        assert resp.status == 400
        assert_error(await resp.json(), "bad_request")


async def test_search_never_abstains(api: str) -> None:
    body = {"query": QUESTION, "k": 5}
    async with aiohttp.ClientSession() as session, session.post(f"{api}/api/search", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        found = await resp.json()
    # Search reports the decision ask would make, and still returns everything it found.
    assert [r["id"] for r in found["results"]] == ["chunk-1", "chunk-2"]
    assert found["relevance"]["answer"] is False
