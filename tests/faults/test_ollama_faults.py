"""Ollama failing during an index run: the run still completes with keyword search, and a later run adds the vectors.

(Failures while answering and while embedding a query are covered in tests/ask and tests/embed.)
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiohttp import web

from askvault.config import Config
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from askvault.wiring import open_engine
from tests.conftest import RunningOllama, VaultWriter
from tests.fakes.ollama_server import FakeOllama, serve
from tests.faults.helpers import keyword_paths, numbered_notes

pytestmark = pytest.mark.slow

NOTES = 100
"""Enough chunks for two of the indexer's embedding batches (64 each), so Ollama can die between them."""


class MortalOllama:
    """The fake Ollama on a fixed port that can die (its port closes) and later come back on the same port."""

    def __init__(self) -> None:
        self.fake = FakeOllama()
        self.port = 0
        self._server: AsyncIterator[str] | None = None

    async def start(self) -> str:
        server = serve(self.fake, port=self.port)
        url = await anext(server)
        self.port = int(url.rsplit(":", 1)[1])
        self._server = server
        return url

    async def die(self) -> None:
        if self._server is not None:
            server, self._server = self._server, None
            await server.aclose()  # type: ignore[attr-defined]  # an async generator


@pytest.fixture
async def mortal() -> AsyncIterator[MortalOllama]:
    ollama = MortalOllama()
    yield ollama
    await ollama.die()


def die_on_embed_call(ollama: MortalOllama, call: int) -> None:
    """The `call`-th /api/embed request drops its connection and takes the whole server down with it."""
    original = ollama.fake.embed
    seen = 0

    async def embed(request: web.Request) -> web.Response:
        nonlocal seen
        seen += 1
        if seen >= call:
            assert request.transport is not None
            request.transport.close()
            asyncio.get_running_loop().create_task(ollama.die())
        return await original(request)

    ollama.fake.embed = embed  # type: ignore[method-assign]


async def test_ollama_dying_mid_embedding_keeps_keywords_and_the_next_run_adds_the_vectors(
    make_vault: VaultWriter, config_for: Callable[[Path, str], Config], mortal: MortalOllama
) -> None:
    vault = make_vault(numbered_notes(NOTES))
    # Call 1 probes the dimension; 2 and 3 carry the first 64 chunks; 4 dies with the second batch in flight.
    die_on_embed_call(mortal, 4)
    config = config_for(vault, await mortal.start())
    async with open_engine(config, sync_vectors=False) as engine:
        first = await engine.indexer.run()
        assert first.failed == []
        assert first.indexed == NOTES
        assert first.dense == "off"
        assert first.dense_problem is not None
        assert "Ollama" in first.dense_problem
        assert 0 < first.embedded < first.chunks
        assert await keyword_paths(engine, "lantern0077") == {"Notes/Note 077.md"}

        mortal.fake = FakeOllama()  # Ollama is back, on the same address
        await mortal.start()
        second = await engine.indexer.run()
        assert second.failed == []
        assert second.dense == "ready"
        assert second.embedded == first.chunks - first.embedded
        store = engine.dense.store
        assert isinstance(store, EdgeVectorStore)
        assert engine.manifest.unembedded(store.collection) == []
        assert await store.ids() == {chunk.id for chunk in engine.manifest.iter_chunks()}
        assert (await engine.searcher.search("lantern0077", 3, mode="dense")).hits


def _down(ollama: RunningOllama, closed: str) -> str:
    return closed


def _missing(ollama: RunningOllama, closed: str) -> str:
    ollama.fake.embed_models = {}
    return ollama.url


def _erroring(ollama: RunningOllama, closed: str) -> str:
    ollama.fake.embed_status = 500
    return ollama.url


def _slow(ollama: RunningOllama, closed: str) -> str:
    ollama.fake.embed_delay_s = 5.0
    return ollama.url


@pytest.mark.parametrize(
    ("break_ollama", "expected"),
    [
        (_down, "Ollama not reachable"),
        (_missing, "ollama pull nomic-embed-text"),
        (_erroring, "HTTP 500"),
        (_slow, "did not answer within"),
    ],
    ids=["down", "model-missing", "http-500", "slow"],
)
async def test_an_index_run_without_a_working_ollama_completes_keyword_only(
    make_vault: VaultWriter,
    config_for: Callable[[Path, str], Config],
    fake_ollama: RunningOllama,
    closed_port_url: str,
    break_ollama: Callable[[RunningOllama, str], str],
    expected: str,
) -> None:
    vault = make_vault(numbered_notes(12))
    config = config_for(vault, break_ollama(fake_ollama, closed_port_url))
    config = dataclasses.replace(config, ollama=dataclasses.replace(config.ollama, read_timeout_s=0.3))
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        assert report.failed == []
        assert report.indexed == 12
        assert report.dense == "off"
        assert report.dense_problem is not None
        assert expected in report.dense_problem
        assert await keyword_paths(engine, "lantern0007") == {"Notes/Note 007.md"}
        hybrid = await engine.searcher.search("lantern0007", 3)
        assert hybrid.hits[0].chunk.path == "Notes/Note 007.md"
        assert hybrid.dense_available is False
