"""`askvault mcp` beside a running sidecar: answers come through its API, the index lock stays the sidecar's."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from askvault.api.private_files import write_private
from askvault.api.token import TOKEN_FILE
from askvault.config import load_config
from askvault.index.lock import OWNER_NAME
from askvault.model import SearchFilters, SearchMode, SearchResult
from askvault.retrieve.trace import SearchTrace
from askvault.wiring import Engine
from askvault.wiring.sidecar import Started, run_sidecar
from tests.conftest import RunningOllama
from tests.mcp.harness import WAIT_S, mcp_client
from tests.mcp.vaults import CANARY, VaultOnDisk, build_vault

pytestmark = pytest.mark.slow


@dataclass
class RunningSidecar:
    vault: VaultOnDisk
    engine: Engine
    stop: asyncio.Event
    task: asyncio.Task[None]
    searched: list[str]
    """Every query the sidecar's own searcher ran (searches and the retrieval step of answers)."""


@pytest.fixture
async def sidecar(
    tmp_path: Path, fake_ollama: RunningOllama, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[RunningSidecar]:
    vault = build_vault(tmp_path)
    config = load_config(
        {"vault": str(vault.root), "data_dir": str(vault.data_root), "ollama_url": fake_ollama.url, "port": 0}, {}
    )
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=started.set_result, stop=stop, reconcile_every_s=3600, model_poll_s=3600)
    )
    engine = (await asyncio.wait_for(started, WAIT_S)).engine
    searched: list[str] = []
    search = engine.searcher.search

    async def recording(
        query: str,
        k: int,
        mode: SearchMode = "hybrid",
        filters: SearchFilters | None = None,
        trace: SearchTrace | None = None,
    ) -> SearchResult:
        searched.append(query)
        return await search(query, k, mode, filters, trace)

    # The real searcher still answers; this only notes who asked.
    monkeypatch.setattr(engine.searcher, "search", recording)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while engine.indexer.running or engine.indexer.last_report is None or engine.dense.state != "ready":
        assert loop.time() < deadline, "the sidecar's start-up index run did not finish"
        await asyncio.sleep(0.05)
    running = RunningSidecar(vault=vault, engine=engine, stop=stop, task=task, searched=searched)
    try:
        yield running
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT_S)


async def test_answers_through_the_sidecar(sidecar: RunningSidecar) -> None:
    vault, engine = sidecar.vault, sidecar.engine
    log = vault.root.parent / "mcp.log"
    own = await engine.searcher.search("port 5433", 8, "hybrid", None)
    sidecar.searched.clear()
    async with mcp_client(vault.root, vault.data_root, engine.config.ollama.url, log) as client:
        found = await client.search("port 5433")
        answer = await client.ask("Which port does Postgres listen on?")
        section = await client.section("Homelab/Postgres.md", "Backups")
        refused = await client.error("get_note_section", {"path": "Private/Diary.md", "heading": "Diary"})
        owner = (engine.config.store.data_dir / OWNER_NAME).read_text(encoding="utf-8")
    assert [hit.id for hit in found.results] == [hit.chunk.id for hit in own.hits]
    assert answer.sources
    assert answer.answer
    # Both went through the sidecar's own engine, and the index lock stayed with it.
    assert sidecar.searched == ["port 5433", "Which port does Postgres listen on?"]
    assert owner == str(os.getpid())
    assert "02:00" in section.text
    assert "excluded from Ask Vault" in refused
    assert CANARY not in refused


async def test_force_travels_to_the_sidecar(sidecar: RunningSidecar, fake_ollama: RunningOllama) -> None:
    vault = sidecar.vault
    question = "Which regatta did the yacht Zephyrine win?"
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, vault.root.parent / "mcp.log") as client:
        abstained = await client.ask(question)
        forced = await client.ask(question, force=True)
    assert (abstained.abstained, bool(abstained.closest)) == (True, True)
    assert (forced.abstained, bool(forced.sources)) == (False, True)
    assert sidecar.searched == [question, question]
    # Only the forced question reached the chat model.
    assert len(fake_ollama.fake.calls("/api/chat")) == 1


async def test_a_stopped_sidecar_is_a_readable_error(sidecar: RunningSidecar) -> None:
    vault, engine = sidecar.vault, sidecar.engine
    log = vault.root.parent / "mcp.log"
    async with mcp_client(vault.root, vault.data_root, engine.config.ollama.url, log) as client:
        assert (await client.search("port 5433")).results
        sidecar.stop.set()
        await asyncio.wait_for(sidecar.task, WAIT_S)
        stopped = await client.error("search_vault", {"query": "port 5433"})
        # Reading sections needs no index, so it still works.
        section = await client.section("Homelab/Kodi.md", "maintenance")
    assert "the Ask Vault sidecar for this vault has stopped" in stopped
    assert section.heading == "Kodi › Maintenance"


async def test_sidecar_errors_are_relayed_readably(sidecar: RunningSidecar, fake_ollama: RunningOllama) -> None:
    vault, engine = sidecar.vault, sidecar.engine
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, vault.root.parent / "mcp.log") as client:
        fake_ollama.fake.chat_models.clear()
        missing = await client.error("ask_vault", {"question": "Which port does Postgres listen on?"})
        # A token file that no longer matches the running sidecar's token.
        write_private(engine.config.store.data_dir / TOKEN_FILE, secrets.token_urlsafe(32).encode("ascii"))
        refused = await client.error("search_vault", {"query": "port 5433"})
    assert "ollama pull llama3.2:3b" in missing
    assert "did not accept this vault's token" in refused
