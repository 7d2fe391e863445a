"""A real sidecar (`run_sidecar`, as `askvault serve` runs it) on port 0 in the test's loop, for commands beside it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from askvault.api.token import load_or_create_token
from askvault.config import Config, load_config
from askvault.wiring.sidecar import Started, run_sidecar
from tests.cli.cli_helpers import OLLAMA_EMBED_MODEL

WAIT_S = 30.0
Json = dict[str, object]


@dataclass
class RunningSidecar:
    url: str
    token: str
    config: Config
    stop: asyncio.Event
    task: asyncio.Task[None]
    remote_url: str | None = None
    fingerprint: str | None = None

    async def call(self, method: str, route: str, body: Json | None = None) -> tuple[int, Json]:
        headers = {"Authorization": f"Bearer {self.token}"}
        async with (
            aiohttp.ClientSession() as session,
            session.request(method, self.url + route, json=body, headers=headers) as response,
        ):
            return response.status, await response.json()

    async def idle(self) -> bool:
        _, status = await self.call("GET", "/api/status")
        index = status["index"]
        assert isinstance(index, dict)
        return bool(index["state"] == "idle" and index["last_run"] and index["dense"] == "ready")

    async def wait_idle(self) -> None:
        """Until the start-up run has ended and dense search is on; the bound is generous (no timing assertion)."""
        deadline = asyncio.get_running_loop().time() + WAIT_S
        while not await self.idle():
            assert asyncio.get_running_loop().time() < deadline, "the sidecar's start-up index run did not end"
            await asyncio.sleep(0.05)

    async def shutdown(self) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, WAIT_S)


@contextlib.asynccontextmanager
async def running_sidecar(
    vault: Path, data_root: Path, ollama_url: str, *, remote: str | None = None
) -> AsyncIterator[RunningSidecar]:
    """Serves `vault` (embedding with the fake Ollama's model) until the block ends; waits for its first index.
    `remote` (ADDRESS:PORT) turns remote mode on, as `serve --remote` does."""
    flags: dict[str, object] = {
        "vault": str(vault),
        "data_dir": str(data_root),
        "ollama_url": ollama_url,
        "embed_model": OLLAMA_EMBED_MODEL,
        "port": 0,
        "remote": remote,
    }
    config = load_config(flags, {})
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=started.set_result, stop=stop, reconcile_every_s=3600, model_poll_s=3600)
    )
    try:
        info = await asyncio.wait_for(started, WAIT_S)
        token = load_or_create_token(config.store.data_dir, config.vault.root)
        car = RunningSidecar(
            url=info.url,
            token=token,
            config=config,
            stop=stop,
            task=task,
            remote_url=info.remote_url,
            fingerprint=info.fingerprint,
        )
        await car.wait_idle()
        yield car
    finally:
        if not task.done():
            stop.set()
            await asyncio.wait_for(task, WAIT_S)


def beside(vault: Path, data_root: Path) -> list[str]:
    """The flags a user gives beside a running sidecar: which vault and where its index lives (and an empty
    --config, so the developer's own config file does not count). Settings the sidecar keeps are left out."""
    config_file = data_root.parent / "askvault-test-config.toml"
    if not config_file.exists():
        config_file.write_text("", encoding="utf-8")
    return ["--vault", str(vault), "--data-dir", str(data_root), "--config", str(config_file)]
