"""The Ollama embedder against the fake Ollama server, through the real `ollama` client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from aiohttp import web

from askvault.config import OllamaConfig
from askvault.embed.ollama import DEFAULT_KEEP_ALIVE, OllamaEmbedder
from askvault.errors import ModelError, ModelMissing, ModelTimeout, ModelUnreachable
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import FakeOllama, fake_embedding, serve

MakeEmbedder = Callable[[OllamaConfig], OllamaEmbedder]


@pytest.fixture
async def make_embedder() -> AsyncIterator[MakeEmbedder]:
    made: list[OllamaEmbedder] = []

    def make(cfg: OllamaConfig) -> OllamaEmbedder:
        embedder = OllamaEmbedder(cfg)
        made.append(embedder)
        return embedder

    yield make
    for embedder in made:
        await embedder.aclose()


def embed_inputs(fake: FakeOllama) -> list[list[str]]:
    return [list(body["input"]) for body in fake.calls("/api/embed")]


async def test_documents_are_batched_in_order_with_prefix(
    fake_ollama: RunningOllama, make_embedder: MakeEmbedder
) -> None:
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url, embed_batch=4))
    texts = [f"note {i} about the kodi maintenance workflow" for i in range(10)]

    vectors = await embedder.embed_documents(texts)

    assert embed_inputs(fake_ollama.fake) == [
        [f"search_document: {t}" for t in texts[0:4]],
        [f"search_document: {t}" for t in texts[4:8]],
        [f"search_document: {t}" for t in texts[8:10]],
    ]
    assert vectors == [pytest.approx(fake_embedding(f"search_document: {t}", 64)) for t in texts]
    body = fake_ollama.fake.calls("/api/embed")[0]
    assert body["model"] == "nomic-embed-text"
    assert body["truncate"] is True
    assert body["keep_alive"] == DEFAULT_KEEP_ALIVE


async def test_query_prefix_and_unprefixed_model(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    nomic = make_embedder(OllamaConfig(url=fake_ollama.url))
    minilm = make_embedder(OllamaConfig(url=fake_ollama.url, embed_model="all-minilm"))

    await nomic.embed_query("which port does postgres use")
    await minilm.embed_query("which port does postgres use")
    await minilm.embed_documents(["Postgres listens on 5433"])

    assert embed_inputs(fake_ollama.fake) == [
        ["search_query: which port does postgres use"],
        ["which port does postgres use"],
        ["Postgres listens on 5433"],
    ]


async def test_empty_input_makes_no_request(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url))

    assert await embedder.embed_documents([]) == []
    assert fake_ollama.fake.requests == []


async def test_dimension_is_probed_once_and_fingerprint(
    fake_ollama: RunningOllama, make_embedder: MakeEmbedder
) -> None:
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url, embed_model="nomic-embed-text:latest"))

    dims = await asyncio.gather(*(embedder.dimension() for _ in range(5)))

    assert dims == [64] * 5
    assert await embedder.fingerprint() == "nomic-embed-text@64"
    assert len(fake_ollama.fake.calls("/api/embed")) == 1


async def test_vector_size_change_is_an_error(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url))
    assert await embedder.dimension() == 64
    fake_ollama.fake.embed_models["nomic-embed-text"] = 32

    with pytest.raises(ModelError, match=r"size \[32\], expected \[64\]"):
        await embedder.embed_query("anything")


async def test_missing_model(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url, embed_model="mxbai-embed-large"))

    with pytest.raises(ModelMissing, match="ollama pull mxbai-embed-large") as caught:
        await embedder.embed_documents(["text"])
    assert caught.value.model == "mxbai-embed-large"


async def test_chat_model_cannot_embed(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url, embed_model="llama3.2:3b"))

    with pytest.raises(ModelError, match="is a chat model") as caught:
        await embedder.dimension()
    assert type(caught.value) is ModelError


async def test_refused_connection(closed_port_url: str, make_embedder: MakeEmbedder) -> None:
    embedder = make_embedder(OllamaConfig(url=closed_port_url))

    with pytest.raises(ModelUnreachable) as caught:
        await embedder.embed_query("hello")
    assert caught.value.message == (
        f"Ollama not reachable at {closed_port_url} — start it with `ollama serve`, or set --ollama-url / OLLAMA_HOST"
    )


async def test_unknown_host(make_embedder: MakeEmbedder) -> None:
    # .invalid never resolves (RFC 6761), so this is a DNS failure, not a refused port.
    embedder = make_embedder(OllamaConfig(url="http://ollama.invalid:11434", connect_timeout_s=2.0))

    with pytest.raises(ModelUnreachable, match=r"not reachable at http://ollama\.invalid:11434"):
        await embedder.embed_query("hello")


async def test_read_timeout(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    fake_ollama.fake.embed_delay_s = 2.0
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url, read_timeout_s=0.05))

    with pytest.raises(ModelTimeout, match=r"did not answer within 0\.05 s"):
        await embedder.embed_documents(["slow"])


async def test_http_error_carries_ollama_text(fake_ollama: RunningOllama, make_embedder: MakeEmbedder) -> None:
    fake_ollama.fake.embed_status = 500
    embedder = make_embedder(OllamaConfig(url=fake_ollama.url, embed_batch=2))

    with pytest.raises(ModelError, match=r"HTTP 500\): embedding failed") as caught:
        await embedder.embed_documents([f"text {i}" for i in range(7)])
    assert type(caught.value) is ModelError


@dataclass
class GatedOllama(FakeOllama):
    """Holds each embed call until `width` calls are in flight at once, and records the peak."""

    width: int = 2
    in_flight: int = 0
    peak: int = 0
    wide: asyncio.Event = field(default_factory=asyncio.Event)

    async def embed(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        if self.in_flight >= self.width:
            self.wide.set()
        # Bounded wait: if the client never opens `width` requests at once, the test still ends.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wide.wait(), timeout=2.0)
        try:
            return await super().embed(request)
        finally:
            self.in_flight -= 1


async def with_server(fake: FakeOllama, body: Callable[[str], Awaitable[None]]) -> None:
    async for url in serve(fake):
        await body(url)


async def test_concurrency_is_bounded(make_embedder: MakeEmbedder) -> None:
    fake = GatedOllama(width=2)
    texts = [f"text number {i}" for i in range(12)]

    async def run(url: str) -> None:
        embedder = make_embedder(OllamaConfig(url=url, embed_batch=2, embed_concurrency=2))
        vectors = await embedder.embed_documents(texts)
        assert vectors == [pytest.approx(fake_embedding(f"search_document: {t}", 64)) for t in texts]

    await with_server(fake, run)

    assert fake.peak == 2
    assert len(fake.calls("/api/embed")) == 6
