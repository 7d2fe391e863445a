"""Model failures end the answer with their own error code and the partial text; cancelling stops Ollama."""

from __future__ import annotations

import asyncio
from contextlib import aclosing

import pytest

from askvault.ask.events import ErrorEvent, TokenEvent
from tests.ask.canned import CannedSearcher, collect, kinds, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit
from tests.generate.waiting import wait_until

HITS = [make_hit(1, "Postgres listens on port 5433.", title="Postgres")]
TOKENS = ["Postgres ", "listens ", "on 5433 ", "[1]."]


async def test_missing_model(fake_ollama: RunningOllama) -> None:
    async with open_pipeline(fake_ollama.url, CannedSearcher(HITS), chat_model="mistral:7b") as pipeline:
        events = await collect(pipeline.run("What port?"))
    assert kinds(events) == ["retrieval", "error"]
    error = events[-1]
    assert isinstance(error, ErrorEvent)
    assert (error.code, error.partial) == ("model_missing", "")
    assert "ollama pull mistral:7b" in error.message


async def test_unreachable_ollama(closed_port_url: str) -> None:
    async with open_pipeline(closed_port_url, CannedSearcher(HITS)) as pipeline:
        events = await collect(pipeline.run("What port?"))
    assert kinds(events) == ["retrieval", "error"]
    error = events[-1]
    assert isinstance(error, ErrorEvent)
    assert (error.code, error.partial) == ("ollama_unreachable", "")


@pytest.mark.parametrize(
    ("script", "read_timeout_s", "code", "partial"),
    [
        (ChatScript(tokens=TOKENS, disconnect_after=2), 30.0, "ollama_stream_broken", "Postgres listens "),
        (ChatScript(tokens=TOKENS, stall_after=3), 0.3, "ollama_timeout", "Postgres listens on 5433 "),
        (ChatScript(tokens=[], status=500, error="out of memory"), 30.0, "model_error", ""),
    ],
    ids=["mid-stream-disconnect", "stall", "server-error"],
)
async def test_failure_mid_answer_keeps_partial_text(
    fake_ollama: RunningOllama, script: ChatScript, read_timeout_s: float, code: str, partial: str
) -> None:
    fake_ollama.fake.scripts.append(script)
    searcher = CannedSearcher(HITS)
    async with open_pipeline(fake_ollama.url, searcher, read_timeout_s=read_timeout_s) as pipeline:
        events = await collect(pipeline.run("What port?"))
    assert kinds(events)[0] == "retrieval"
    assert kinds(events)[-1] == "error"
    assert set(kinds(events)[1:-1]) <= {"token"}
    error = events[-1]
    assert isinstance(error, ErrorEvent)
    assert (error.code, error.partial) == (code, partial)
    assert "".join(e.text for e in events if isinstance(e, TokenEvent)) == partial


async def test_closing_the_answer_stops_generation_upstream(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["tok "] * 500, delay_s=0.02))
    async with open_pipeline(fake_ollama.url, CannedSearcher(HITS)) as pipeline:
        async with aclosing(pipeline.run("What port?")) as events:
            assert (await anext(events)).type == "retrieval"
            assert await anext(events) == TokenEvent("tok ")
        assert await wait_until(lambda: fake_ollama.fake.cancelled_streams >= 1)


async def test_cancelling_the_task_stops_generation_upstream(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["tok "] * 500, delay_s=0.02))
    seen: list[str] = []

    async with open_pipeline(fake_ollama.url, CannedSearcher(HITS)) as pipeline:

        async def consume() -> None:
            async with aclosing(pipeline.run("What port?")) as events:
                async for event in events:
                    seen.append(event.type)

        task = asyncio.create_task(consume())
        assert await wait_until(lambda: "token" in seen)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await wait_until(lambda: fake_ollama.fake.cancelled_streams >= 1)
    assert "done" not in seen
    assert "error" not in seen
