"""The real sidecar (`run_sidecar`: engine, API, watcher) on port 0 over a temp vault, and helpers to call it."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from askvault.api.token import load_or_create_token
from askvault.config import Config, PromptParams, RetrievalParams, ServerConfig, VaultConfig
from askvault.wiring import Engine
from askvault.wiring.sidecar import Started, run_sidecar
from tests.engine_helpers import engine_config, write_notes

WAIT_S = 30.0
Json = dict[str, object]


def results_of(body: Json) -> list[Json]:
    """The `results` of a search or related-notes body, each an object."""
    results = body["results"]
    assert isinstance(results, list)
    return [r for r in results if isinstance(r, dict)]


@dataclass
class EngineSidecar:
    engine: Engine
    base: str
    token: str
    session: aiohttp.ClientSession

    def url(self, path: str) -> str:
        return self.base + path

    def auth(self, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **extra}

    async def post(self, path: str, body: object, **headers: str) -> tuple[int, Json]:
        async with self.session.post(self.url(path), json=body, headers=self.auth(**headers)) as resp:
            return resp.status, await resp.json()

    async def explain(self, question: str, note: str, **extra: object) -> Json:
        status, body = await self.post("/api/explain", {"question": question, "note": note, **extra})
        assert status == 200, body
        return body

    async def ask(self, question: str, **extra: object) -> list[Json]:
        """The /api/ask stream's events."""
        body = {"question": question, **extra}
        async with self.session.post(self.url("/api/ask"), json=body, headers=self.auth()) as resp:
            assert resp.status == 200, await resp.text()
            return [json.loads(line) async for line in resp.content if line.strip()]


def sidecar_config(
    vault: Path,
    data_dir: Path,
    ollama_url: str,
    *,
    exclude: tuple[str, ...] = (),
    exclude_headings: tuple[str, ...] = (),
    max_note_bytes: int = 4 * 1024 * 1024,
    retrieval: RetrievalParams | None = None,
    prompt: PromptParams | None = None,
    embed_model: str = "nomic-embed-text",
) -> Config:
    config = engine_config(vault, data_dir, ollama_url, embed_model=embed_model, retrieval=retrieval)
    return dataclasses.replace(
        config,
        vault=VaultConfig(
            root=vault, exclude_globs=exclude, exclude_headings=exclude_headings, max_note_bytes=max_note_bytes
        ),
        prompt=prompt or PromptParams(),
        server=ServerConfig(port=0),
    )


@contextlib.asynccontextmanager
async def engine_sidecar(
    config: Config, notes: Mapping[str, str | bytes], *, dense: bool = True
) -> AsyncIterator[EngineSidecar]:
    """Writes the notes, starts the sidecar and waits for its start-up index run (and dense search, if `dense`)."""
    write_notes(config.vault.root, notes)
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=started.set_result, stop=stop, reconcile_every_s=3600, model_poll_s=3600)
    )
    try:
        info = await asyncio.wait_for(started, WAIT_S)
        engine = info.engine
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while engine.indexer.running or engine.indexer.last_report is None or (dense and not engine.dense.usable):
            assert loop.time() < deadline, "the sidecar's start-up index run did not finish"
            await asyncio.sleep(0.05)
        token = load_or_create_token(config.store.data_dir, config.vault.root)
        async with aiohttp.ClientSession() as session:
            yield EngineSidecar(engine=engine, base=info.url, token=token, session=session)
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT_S)
