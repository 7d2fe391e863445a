"""The fake Ollama server answers the real `ollama` client exactly as Ollama does."""

from __future__ import annotations

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
