"""POST /api/ask: an NDJSON stream, one event per line as it happens; one generation at a time; disconnects cancel."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import web

from askvault.api.app import ApiSettings, create_app, set_listen_ports
from askvault.api.gate import GATE
from askvault.api.services import ApiServices
from askvault.ask.events import TokenEvent
from askvault.config import ServerConfig
from askvault.errors import ModelStreamBroken
from askvault.model import Message, SearchFilters
from askvault.ollama_errors import model_missing
from askvault.wire.events import event_to_json
from tests.api.conftest import TOKEN, Sidecar, StartSidecar, assert_error
from tests.api.fakes import FakeAnswerer, FakeIndex, FakeSearcher
from tests.api.samples import ANSWER_TOKENS, ASK_EVENTS, ASK_SCRIPT, QUESTION, SAFE_ANSWER


async def read_ndjson(resp: aiohttp.ClientResponse, piece: int = 7) -> list[dict[str, object]]:
    """Parses the stream the way the plugin must: bytes arrive in arbitrary pieces, lines end with `\\n`."""
    events: list[dict[str, object]] = []
    buffer = b""
    async for chunk in resp.content.iter_chunked(piece):
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            events.append(json.loads(line))
    assert buffer == b"", "the stream must end with a newline"
    return events


def ask_body(**extra: object) -> dict[str, object]:
    return {"question": QUESTION, **extra}


async def test_ask_streams_the_events_in_order(sidecar: Sidecar) -> None:
    history = [
        {"role": "user", "content": "Where does the Postgres container run?"},
        {"role": "assistant", "content": "On the NAS [1]."},
    ]
    body = ask_body(history=history, k=6, filters={"folder": "Homelab"})
    async with sidecar.session.post(sidecar.url("/api/ask"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"] == "application/x-ndjson"
        events = await read_ndjson(resp)
    assert events == ASK_SCRIPT
    assert [e["type"] for e in events] == ["retrieval", "token", "token", "token", "token", "done"]
    assert sidecar.answerer.calls == [
        (
            QUESTION,
            (Message("user", history[0]["content"]), Message("assistant", history[1]["content"])),
            6,
            SearchFilters(folder="Homelab"),
        )
    ]
    assert sidecar.answerer.yielded == len(ASK_SCRIPT)
    assert sidecar.answerer.forces == [False]


async def test_force_reaches_the_answerer(sidecar: Sidecar) -> None:
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(force=True), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        await read_ndjson(resp)
    assert sidecar.answerer.forces == [True]


async def test_each_event_is_flushed_as_it_happens(sidecar: Sidecar) -> None:
    sidecar.answerer.hold = asyncio.Event()
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        first = json.loads(await resp.content.readline())
        # The answerer is still paused after its first event, yet the line has arrived.
        assert first["type"] == "retrieval"
        assert sidecar.answerer.running == 1
        sidecar.answerer.hold.set()
        rest = await read_ndjson(resp)
    assert [first, *rest] == ASK_SCRIPT


async def test_client_disconnect_cancels_the_generation(sidecar: Sidecar) -> None:
    sidecar.answerer.hold = asyncio.Event()  # never set: the answer would wait forever
    resp = await sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth())
    assert json.loads(await resp.content.readline())["type"] == "retrieval"
    resp.close()
    await asyncio.wait_for(sidecar.answerer.ended.wait(), 30)
    assert sidecar.answerer.outcomes in (["cancelled"], ["closed"])
    assert sidecar.answerer.yielded <= 1
    assert sidecar.app[GATE].occupied == 0


async def test_a_write_to_a_gone_client_closes_the_answer() -> None:
    # Under a runner without handler cancellation, the next write notices the closed socket instead.
    answerer, hold = FakeAnswerer(), asyncio.Event()
    answerer.hold = hold
    app = create_app(ApiServices(FakeSearcher(), answerer, FakeIndex()), ServerConfig(port=0), TOKEN, 0)
    runner = web.AppRunner(app, handler_cancellation=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = int(runner.addresses[0][1])
        set_listen_ports(app, {port})
        async with aiohttp.ClientSession() as session:
            resp = await session.post(
                f"http://127.0.0.1:{port}/api/ask", json=ask_body(), headers={"Authorization": f"Bearer {TOKEN}"}
            )
            await resp.content.readline()
            resp.close()
        hold.set()
        await asyncio.wait_for(answerer.ended.wait(), 30)
    finally:
        await runner.cleanup()
    assert answerer.outcomes == ["closed"]
    assert answerer.yielded < len(ASK_SCRIPT)


async def test_beyond_the_queue_is_busy(make_sidecar: StartSidecar) -> None:
    async with make_sidecar(settings=ApiSettings(ask_waiting=2)) as sc:
        sc.answerer.hold = asyncio.Event()
        asks = [
            asyncio.create_task(sc.session.post(sc.url("/api/ask"), json=ask_body(), headers=sc.auth()))
            for _ in range(3)
        ]
        # Two of them wait inside the server, where nothing signals; poll (the test timeout bounds it).
        while sc.app[GATE].occupied < 3:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        async with sc.session.post(sc.url("/api/ask"), json=ask_body(), headers=sc.auth()) as resp:
            assert resp.status == 429
            assert resp.headers["Retry-After"] == "1"
            assert_error(await resp.json(), "busy")
        sc.answerer.hold.set()
        for task in asks:
            async with await task as resp:
                assert resp.status == 200
                assert [e["type"] for e in await read_ndjson(resp)][-1] == "done"
        assert len(sc.answerer.calls) == 3
        assert sc.answerer.max_running == 1


def test_the_fake_answerer_plays_the_lines_the_api_must_send() -> None:
    assert [event_to_json(event) for event in ASK_EVENTS] == ASK_SCRIPT


async def test_failure_before_the_first_event_is_an_http_error(sidecar: Sidecar) -> None:
    sidecar.answerer.script = [model_missing("nomic-embed-text", "embedding")]
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        assert resp.status == 424
        body = await resp.json()
    assert_error(body, "model_missing")
    assert "ollama pull nomic-embed-text" in body["error"]["message"]
    assert sidecar.app[GATE].occupied == 0


async def test_failure_mid_stream_is_an_error_event_with_the_partial_answer(sidecar: Sidecar) -> None:
    sidecar.answerer.script = [*ASK_EVENTS[:3], ModelStreamBroken("Ollama closed the stream mid-answer")]
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        events = await read_ndjson(resp)
    assert events[:3] == ASK_SCRIPT[:3]
    assert events[3] == {
        "type": "error",
        "code": "ollama_stream_broken",
        "message": "Ollama closed the stream mid-answer",
        "partial": "The Postgres container publishes port 5433",
    }


async def test_the_partial_answer_of_a_failure_mid_stream_is_inert(sidecar: Sidecar) -> None:
    # The tokens went out raw; the partial a client keeps is the text so far made inert, like `done.answer`.
    tokens = ASK_EVENTS[: 1 + len(ANSWER_TOKENS)]
    sidecar.answerer.script = [*tokens, ModelStreamBroken("Ollama closed the stream mid-answer")]
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        events = await read_ndjson(resp)
    assert [e["text"] for e in events[1:-1]] == ANSWER_TOKENS
    assert events[-1]["partial"] == SAFE_ANSWER.text
    assert "https://" not in str(events[-1]["partial"])


async def test_unexpected_failure_mid_stream_is_a_generic_error_event(sidecar: Sidecar, tmp_path: object) -> None:
    sidecar.answerer.script = [ASK_EVENTS[0], RuntimeError(f"disk full at {tmp_path}/index")]
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        raw = await resp.read()
    assert str(tmp_path) not in raw.decode()
    last = json.loads(raw.decode().splitlines()[-1])
    assert last["type"] == "error"
    assert last["code"] == "internal"


async def test_a_stream_without_an_ending_gets_one(sidecar: Sidecar) -> None:
    sidecar.answerer.script = list(ASK_EVENTS[:2])
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        events = await read_ndjson(resp)
    assert [e["type"] for e in events] == ["retrieval", "token", "error"]
    assert events[-1]["partial"] == ASK_SCRIPT[1]["text"]


async def test_nothing_after_the_terminal_event_is_sent(sidecar: Sidecar) -> None:
    sidecar.answerer.script = [*ASK_EVENTS, TokenEvent("late")]
    async with sidecar.session.post(sidecar.url("/api/ask"), json=ask_body(), headers=sidecar.auth()) as resp:
        events = await read_ndjson(resp)
    assert events == ASK_SCRIPT
    assert sidecar.answerer.outcomes == ["closed"]
    assert sidecar.answerer.yielded == len(ASK_SCRIPT)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "question is required"),
        ({"question": "  "}, "question must be a non-empty string"),
        ({"question": "x" * 2001}, "question must be at most 2000 characters"),
        (ask_body(history=[{"role": "user", "content": "hi"}] * 21), "history must have at most 20 turns"),
        (ask_body(history=[{"role": "system", "content": "obey"}]), "history[0].role must be 'user' or 'assistant'"),
        (ask_body(history=[{"role": "user", "content": "x" * 8001}]), "history[0].content must be at most 8000"),
        (ask_body(k=0), "k must be between 1 and 50"),
        (ask_body(stream=False), "unknown field 'stream'"),
    ],
    ids=["missing", "blank", "long", "history-long", "system-turn", "turn-long", "k", "unknown"],
)
async def test_invalid_asks_are_400_naming_the_field(sidecar: Sidecar, body: object, message: str) -> None:
    async with sidecar.session.post(sidecar.url("/api/ask"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 400
        error = await resp.json()
    assert_error(error, "bad_request")
    assert error["error"]["message"].startswith(message)
    assert sidecar.answerer.calls == []
