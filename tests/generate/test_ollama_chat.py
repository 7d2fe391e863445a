"""The Ollama chat model, driven through the real `ollama` client against the fake server's wire protocol."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from askvault.config import OllamaConfig
from askvault.errors import ModelError, ModelMissing, ModelStreamBroken, ModelTimeout, ModelUnreachable
from askvault.generate.ollama_chat import DEFAULT_NUM_CTX, OllamaChatModel
from askvault.generate.protocol import ChatDone, ChatEvent, ChatToken
from askvault.model import Message
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.waiting import wait_until

QUESTION = [Message("system", "be brief"), Message("user", "What port?")]


async def _open(url: str, **cfg: float | str) -> AsyncIterator[OllamaChatModel]:
    chat = OllamaChatModel(OllamaConfig(url=url, **cfg))  # type: ignore[arg-type]
    try:
        yield chat
    finally:
        await chat.aclose()


@pytest.fixture
async def chat(fake_ollama: RunningOllama) -> AsyncIterator[OllamaChatModel]:
    async for model in _open(fake_ollama.url):
        yield model


async def _collect(chat: OllamaChatModel) -> tuple[list[ChatEvent], Exception | None]:
    events: list[ChatEvent] = []
    try:
        async for event in chat.stream(QUESTION):
            events.append(event)
    except ModelError as exc:
        return events, exc
    return events, None


async def test_streams_tokens_then_done_with_counts(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Port ", "5433 ", "[1]."]))
    events, error = await _collect(chat)
    assert error is None
    assert events[:3] == [ChatToken("Port "), ChatToken("5433 "), ChatToken("[1].")]
    done = events[3]
    assert isinstance(done, ChatDone)
    assert done.completion_tokens == 3
    assert done.prompt_tokens is not None
    assert done.prompt_tokens > 0
    assert done.done_reason == "stop"
    assert done.total_duration_ms == 5.0
    assert len(events) == 4
    body = fake_ollama.fake.calls("/api/chat")[0]
    assert body["stream"] is True
    assert body["model"] == "llama3.2:3b"
    assert body["messages"] == [{"role": "system", "content": "be brief"}, {"role": "user", "content": "What port?"}]
    assert body["options"]["temperature"] <= 0.2
    assert body["options"]["num_ctx"] == DEFAULT_NUM_CTX


async def test_complete_is_one_short_unstreamed_call(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["What port does ", "Postgres use?"]))
    assert await chat.complete(QUESTION) == "What port does Postgres use?"
    body = fake_ollama.fake.calls("/api/chat")[0]
    assert body["stream"] is False
    assert body["options"]["num_predict"] > 0


async def test_missing_model_says_how_to_fix_it(fake_ollama: RunningOllama) -> None:
    async for chat in _open(fake_ollama.url, chat_model="qwen2.5:7b"):
        events, error = await _collect(chat)
        assert events == []
        assert isinstance(error, ModelMissing)
        assert error.code == "model_missing"
        assert "ollama pull qwen2.5:7b" in error.message
        with pytest.raises(ModelMissing):
            await chat.complete(QUESTION)


async def test_connection_refused_is_unreachable(closed_port_url: str) -> None:
    async for chat in _open(closed_port_url):
        events, error = await _collect(chat)
        assert events == []
        assert isinstance(error, ModelUnreachable)
        assert error.code == "ollama_unreachable"
        assert closed_port_url in error.message
        with pytest.raises(ModelUnreachable):
            await chat.complete(QUESTION)


async def test_mid_stream_disconnect_is_a_broken_stream(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["a", "b", "c", "d"], disconnect_after=2))
    events, error = await _collect(chat)
    assert events == [ChatToken("a"), ChatToken("b")]
    assert isinstance(error, ModelStreamBroken)
    assert error.code == "ollama_stream_broken"


async def test_stall_is_a_timeout(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["a", "b", "c"], stall_after=1))
    async for chat in _open(fake_ollama.url, read_timeout_s=0.3):
        events, error = await _collect(chat)
    assert events == [ChatToken("a")]
    assert isinstance(error, ModelTimeout)
    assert error.code == "ollama_timeout"
    assert await wait_until(lambda: fake_ollama.fake.cancelled_streams >= 1)


async def test_http_error_is_a_model_error(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=[], status=500, error="out of memory"))
    events, error = await _collect(chat)
    assert events == []
    assert type(error) is ModelError
    assert "500" in error.message
    assert "out of memory" in error.message


async def test_closing_the_stream_stops_generation_upstream(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["tok "] * 200, delay_s=0.02))
    stream = chat.stream(QUESTION)
    first = await anext(stream)
    assert first == ChatToken("tok ")
    await stream.aclose()
    assert await wait_until(lambda: fake_ollama.fake.cancelled_streams >= 1)
    # The client stays usable after an abandoned stream.
    fake_ollama.fake.scripts.append(ChatScript(tokens=["ok"]))
    events, error = await _collect(chat)
    assert error is None
    assert events[0] == ChatToken("ok")
