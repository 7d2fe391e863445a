"""Helpers for the fault, load and probe tests: numbered notes, keyword lookups, the real sidecar on port 0."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from askvault.api.token import load_or_create_token
from askvault.config import Config
from askvault.wiring import Engine
from askvault.wiring.sidecar import Started, run_sidecar


def numbered_notes(count: int, word: str = "lantern") -> dict[str, str]:
    """`count` small notes, each with a unique searchable code word (`<word>0007`)."""
    return {
        f"Notes/Note {n:03d}.md": f"# Note {n}\n\nThe {word}{n:04d} entry talks about topic {n} at some length.\n"
        for n in range(count)
    }


async def keyword_paths(engine: Engine, query: str, k: int = 10) -> set[str]:
    result = await engine.searcher.search(query, k, mode="keyword")
    return {hit.chunk.path for hit in result.hits}


WAIT_S = 20.0
"""Only bounds how long a broken test waits; nothing asserts on time."""


@dataclass
class LiveSidecar:
    """The real sidecar (`run_sidecar`) on port 0, and an HTTP session that talks to it with its token."""

    url: str
    port: int
    token: str
    config: Config
    engine: Engine
    session: aiohttp.ClientSession

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def get(self, path: str) -> tuple[int, Any]:
        async with self.session.get(self.url + path, headers=self.headers()) as response:
            return response.status, await response.json()

    async def post(self, path: str, body: object) -> tuple[int, Any]:
        async with self.session.post(self.url + path, json=body, headers=self.headers()) as response:
            return response.status, await response.json()

    async def search(self, query: str) -> set[str]:
        status, body = await self.post("/api/search", {"query": query, "k": 10, "mode": "keyword"})
        assert status == 200, body
        return {str(hit["path"]) for hit in body["results"]}

    async def until(self, check: Callable[[], Awaitable[bool]], what: str) -> None:
        """Polls until `check` holds; fails naming `what` after WAIT_S."""
        deadline = asyncio.get_running_loop().time() + WAIT_S
        while asyncio.get_running_loop().time() < deadline:
            if await check():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}")


@contextlib.asynccontextmanager
async def live_sidecar(config: Config) -> AsyncIterator[LiveSidecar]:
    """Runs `run_sidecar` until the block ends; waits for its start-up index run first."""
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=started.set_result, stop=stop, reconcile_every_s=3600, model_poll_s=3600)
    )
    try:
        waiting: set[asyncio.Future[Started] | asyncio.Task[None]] = {started, task}
        await asyncio.wait(waiting, timeout=WAIT_S, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # raises what stopped the sidecar
        assert started.done(), "the sidecar did not start"
        info = started.result()
        token = load_or_create_token(config.store.data_dir, config.vault.root)
        async with aiohttp.ClientSession() as session:
            car = LiveSidecar(info.url, info.port, token, config, info.engine, session)

            async def idle() -> bool:
                status, body = await car.get("/api/status")
                return status == 200 and body["index"]["state"] == "idle" and body["index"]["last_run"] is not None

            await car.until(idle, "the start-up index run")
            yield car
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT_S)
