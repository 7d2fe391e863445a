"""The real sidecar end to end: engine + API + watcher on a temp vault, fake Ollama behind the real client."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from askvault.api.discovery import read_discovery
from askvault.api.token import load_or_create_token
from askvault.config import Config, load_config
from askvault.wiring.sidecar import Started, run_sidecar
from tests.conftest import RunningOllama, VaultWriter

NOTES = {
    "Homelab/Postgres.md": "# Postgres\n\n## Port\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC and scans the NAS every Sunday.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun, deep pots and patience.\n",
}
WAIT_S = 20.0


@dataclass
class Sidecar:
    url: str
    token: str
    config: Config
    session: aiohttp.ClientSession

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def search(self, query: str, k: int = 5) -> list[dict[str, object]]:
        async with self.session.post(
            f"{self.url}/api/search", json={"query": query, "k": k, "mode": "keyword"}, headers=self.headers()
        ) as response:
            assert response.status == 200, await response.text()
            body = await response.json()
        results = body["results"]
        assert isinstance(results, list)
        return results

    async def paths_for(self, query: str) -> set[str]:
        return {str(r["path"]) for r in await self.search(query)}

    async def eventually(self, check: Callable[[], Awaitable[bool]], what: str) -> None:
        """Polls until the watcher and indexer caught up; the bound is generous (no timing assertion)."""
        deadline = asyncio.get_running_loop().time() + WAIT_S
        while asyncio.get_running_loop().time() < deadline:
            if await check():
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"timed out waiting for: {what}")


@pytest.fixture
async def sidecar(make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama) -> AsyncIterator[Sidecar]:
    vault = make_vault(NOTES)
    config = load_config(
        {"vault": str(vault), "data_dir": str(tmp_path / "data"), "ollama_url": fake_ollama.url, "port": 0}, {}
    )
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=started.set_result, stop=stop, reconcile_every_s=3600, model_poll_s=3600)
    )
    info = await asyncio.wait_for(started, WAIT_S)
    token = load_or_create_token(config.store.data_dir, config.vault.root)
    async with aiohttp.ClientSession() as session:
        car = Sidecar(url=info.url, token=token, config=config, session=session)
        await car.eventually(lambda: _has(car, "5433", "Homelab/Postgres.md"), "the start-up index run")
        # Keyword search answers before the run has embedded anything: wait for the run itself to end.
        await car.eventually(lambda: _idle(car), "the start-up index run to finish")
        yield car
    stop.set()
    await asyncio.wait_for(task, WAIT_S)


async def _idle(car: Sidecar) -> bool:
    async with car.session.get(f"{car.url}/api/status", headers=car.headers()) as response:
        status = await response.json()
    return bool(status["index"]["state"] == "idle" and status["index"]["dense"] == "ready")


async def _has(car: Sidecar, query: str, path: str) -> bool:
    return path in await car.paths_for(query)


async def _lacks(car: Sidecar, query: str, path: str) -> bool:
    return path not in await car.paths_for(query)


async def test_discovery_file_while_running_and_gone_after(sidecar: Sidecar) -> None:
    found = read_discovery(sidecar.config.store.data_dir)
    assert found is not None
    assert found.pid == os.getpid()
    assert sidecar.url.endswith(f":{found.port}")


async def test_save_makes_a_note_searchable(sidecar: Sidecar) -> None:
    root = sidecar.config.vault.root
    (root / "Homelab" / "Grafana.md").write_text("# Grafana\n\nDashboards live on port 3917.\n", encoding="utf-8")
    await sidecar.eventually(lambda: _has(sidecar, "3917", "Homelab/Grafana.md"), "a new note indexed")


async def test_atomic_save_edit_is_picked_up(sidecar: Sidecar) -> None:
    root = sidecar.config.vault.root
    temp = root / "Homelab" / ".Postgres.md.tmp"
    temp.write_text("# Postgres\n\n## Port\n\nMoved to port 6544 last week.\n", encoding="utf-8")
    os.replace(temp, root / "Homelab" / "Postgres.md")
    await sidecar.eventually(lambda: _has(sidecar, "6544", "Homelab/Postgres.md"), "the edit indexed")
    await sidecar.eventually(lambda: _lacks(sidecar, "5433", "Homelab/Postgres.md"), "the old text gone")


async def test_rename_and_delete(sidecar: Sidecar) -> None:
    root = sidecar.config.vault.root
    (root / "Homelab" / "Kodi.md").rename(root / "Homelab" / "Media box.md")
    await sidecar.eventually(lambda: _has(sidecar, "LibreELEC", "Homelab/Media box.md"), "the renamed note")
    await sidecar.eventually(lambda: _lacks(sidecar, "LibreELEC", "Homelab/Kodi.md"), "the old name gone")
    (root / "Ideas" / "Gardening.md").unlink()
    await sidecar.eventually(lambda: _lacks(sidecar, "tomatoes", "Ideas/Gardening.md"), "the deleted note gone")


async def test_folder_moved_out_and_back_in(sidecar: Sidecar, tmp_path: Path) -> None:
    root = sidecar.config.vault.root
    outside = tmp_path / "outside-homelab"
    (root / "Homelab").rename(outside)
    await sidecar.eventually(lambda: _lacks(sidecar, "5433", "Homelab/Postgres.md"), "the folder moved out")
    outside.rename(root / "Servers")
    await sidecar.eventually(lambda: _has(sidecar, "5433", "Servers/Postgres.md"), "the folder moved in")


async def test_searches_keep_answering_during_a_full_reindex(sidecar: Sidecar) -> None:
    async with sidecar.session.post(
        f"{sidecar.url}/api/reindex", json={"full": True}, headers=sidecar.headers()
    ) as response:
        assert response.status == 202
    results = await asyncio.gather(*(sidecar.search("postgres port") for _ in range(20)))
    assert all(any(r["path"] == "Homelab/Postgres.md" for r in batch) for batch in results)


async def test_ask_streams_ndjson_events_in_order(sidecar: Sidecar) -> None:
    question = {"question": "Which port does the database listen on?"}
    async with sidecar.session.post(f"{sidecar.url}/api/ask", json=question, headers=sidecar.headers()) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("application/x-ndjson")
        events = [json.loads(line) async for line in response.content if line.strip()]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "retrieval"
    assert kinds[-1] == "done"
    assert set(kinds[1:-1]) == {"token"}
    assert events[0]["sources"][0]["path"] == "Homelab/Postgres.md"
    assert events[-1]["citations"] == [1]


async def test_status_reports_the_real_index(sidecar: Sidecar) -> None:
    async with sidecar.session.get(f"{sidecar.url}/api/status", headers=sidecar.headers()) as response:
        status = await response.json()
    assert status["vault"]["notes"] == 3
    assert status["index"]["dense"] == "ready"
    assert status["models"]["embed"]["ok"] is True
    assert status["store"] == "qdrant-edge (embedded)"
