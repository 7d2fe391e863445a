"""The tests' fake Ollama (`tests/fakes/ollama_server.py`) served from a background thread, for child processes."""

from __future__ import annotations

import asyncio
import threading
from types import TracebackType

from aiohttp import web

from tests.fakes.ollama_server import ChatScript, FakeOllama, serve

START_TIMEOUT_S = 30.0


class FakeOllamaThread:
    """Runs `fake` on a loopback port in its own thread and event loop; `with` it to get its URL."""

    def __init__(self, fake: FakeOllama | None = None) -> None:
        self.fake = fake or FakeOllama()
        self.url = ""
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="fake-ollama", daemon=True)
        self._error: BaseException | None = None

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported to the starting thread instead of dying silently
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async for url in serve(self.fake):
            self.url = url
            self._ready.set()
            await self._stop.wait()

    def start(self) -> str:
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S) or self._error is not None:
            raise RuntimeError(f"the fake Ollama did not start: {self._error!r}")
        return self.url

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(START_TIMEOUT_S)

    def __enter__(self) -> FakeOllamaThread:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def slow_answers(fake: FakeOllama, delay_s: float) -> None:
    """Every chat answer (unless a test scripted one) streams its tokens `delay_s` apart, like a real model."""
    original = fake.chat

    async def chat(request: web.Request) -> web.StreamResponse:
        if not fake.scripts:
            fake.scripts.append(ChatScript(tokens=list(fake.default_answer), delay_s=delay_s))
        return await original(request)

    fake.chat = chat  # type: ignore[method-assign]
