"""Events lost in an inotify overflow: the real watcher and the real indexer catch up through the reconcile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from watchdog.events import FileSystemEvent

from askvault.config import Config
from askvault.index.fs_events import OVERFLOW_LOGGER, Forwarder
from askvault.index.watcher import VaultWatcher
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import keyword_paths, numbered_notes

pytestmark = pytest.mark.slow

WAIT_S = 20.0
"""Only bounds a broken test; nothing asserts on time."""


async def _until(engine: Engine, query: str, expected: set[str]) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while asyncio.get_running_loop().time() < deadline:
        if await keyword_paths(engine, query) == expected:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{query!r} never found {expected}")


async def test_changes_whose_events_were_lost_are_indexed_after_the_overflow_signal(
    make_vault: VaultWriter,
    config_for: Callable[[Path, str], Config],
    fake_ollama: RunningOllama,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dropped: list[FileSystemEvent] = []
    # The kernel's queue overflowed: every event from here on is lost before it reaches us.
    monkeypatch.setattr(Forwarder, "dispatch", lambda self, event: dropped.append(event))
    vault = make_vault(numbered_notes(5))
    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        await engine.indexer.run()
        watcher = VaultWatcher(vault, engine.indexer, debounce_s=0.05, reconcile_every_s=3600, reconcile_on_start=False)
        await watcher.start()
        try:
            (vault / "Notes" / "New.md").write_text("# New\n\nThe comet0500 note.\n", encoding="utf-8")
            (vault / "Notes" / "Note 001.md").write_text("# Note 1\n\nNow the glacier0001 note.\n", encoding="utf-8")
            (vault / "Notes" / "Note 002.md").unlink()
            async with asyncio.timeout(WAIT_S):
                while True:
                    if dropped:
                        break
                    await asyncio.sleep(0.05)
            assert await keyword_paths(engine, "comet0500") == set()  # no event arrived, so nothing changed yet

            logging.getLogger(OVERFLOW_LOGGER).warning("Inotify queue overflowed; filesystem events were lost")
            await _until(engine, "comet0500", {"Notes/New.md"})
            await _until(engine, "glacier0001", {"Notes/Note 001.md"})
            await _until(engine, "lantern0002", set())
            assert await keyword_paths(engine, "lantern0003") == {"Notes/Note 003.md"}
        finally:
            await watcher.stop()
