"""The fake Ollama server answers the real `ollama` client exactly as Ollama does."""

from __future__ import annotations

import aiohttp
import pytest
from ollama import AsyncClient, ResponseError

from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript


async def test_embed_through_real_client(fake_ollama: RunningOllama) -> None:
    async with AsyncClient(host=fake_ollama.url) as client:
        response = await client.embed(model="nomic-embed-text", input=["kodi maintenance", "kodi maintenance"])
    assert len(response.embeddings) == 2
    assert response.embeddings[0] == response.embeddings[1]
    assert len(response.embeddings[0]) == 64


async def test_missing_model_is_ollamas_404(fake_ollama: RunningOllama) -> None:
    async with AsyncClient(host=fake_ollama.url) as client:
        with pytest.raises(ResponseError) as info:
            await client.embed(model="nope", input=["x"])
    assert info.value.status_code == 404
    assert 'model "nope" not found' in info.value.error


async def test_chat_streams_ndjson(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["a", "b"]))
    async with AsyncClient(host=fake_ollama.url) as client:
        stream = await client.chat(model="llama3.2:3b", messages=[{"role": "user", "content": "hi"}], stream=True)
        parts = [part async for part in stream]
    assert [p.message.content for p in parts] == ["a", "b", ""]
    assert parts[-1].done
    assert parts[-1].eval_count == 2
    assert fake_ollama.fake.calls("/api/chat")[0]["stream"] is True


@pytest.mark.parametrize(
    "fmt",
    [
        pytest.param({"type": "object", "properties": {"ranking": {"type": "array"}}}, id="schema"),
        pytest.param("json", id="json"),
        pytest.param("", id="empty-means-none"),
    ],
)
async def test_chat_accepts_format_as_ollama_does(fake_ollama: RunningOllama, fmt: dict[str, object] | str) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ["c1"]}']))
    async with AsyncClient(host=fake_ollama.url) as client:
        response = await client.chat(
            model="llama3.2:3b", messages=[{"role": "user", "content": "rank"}], stream=False, format=fmt
        )
    assert response.message.content == '{"ranking": ["c1"]}'
    assert fake_ollama.fake.calls("/api/chat")[0]["format"] == fmt


async def test_chat_refuses_an_unknown_format_with_ollamas_message(fake_ollama: RunningOllama) -> None:
    # The real client refuses such a request itself, so this one goes over plain HTTP.
    body = {
        "model": "llama3.2:3b",
        "messages": [{"role": "user", "content": "rank"}],
        "stream": False,
        "format": "yaml",
    }
    async with aiohttp.ClientSession() as session, session.post(f"{fake_ollama.url}/api/chat", json=body) as resp:
        assert resp.status == 500
        error = (await resp.json())["error"]
    assert error == 'invalid format: "\\"yaml\\""; expected "json" or a valid JSON Schema object'
