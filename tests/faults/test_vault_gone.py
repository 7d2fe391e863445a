"""The vault folder unmounted, gone or emptied under a running sidecar: the index stays, the status says why."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from askvault.config import Config
from askvault.errors import VaultLooksEmpty
from askvault.index.changes import ChangeBatch
from askvault.wiring import open_engine
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import LiveSidecar, live_sidecar, numbered_notes

pytestmark = pytest.mark.slow

NOTES = 30
"""Above the indexer's mass-delete threshold (20 notes), where an empty vault reads as a failed mount."""


def _unmounted(vault: Path, aside: Path) -> None:
    # What an unmounted drive leaves: the mount point, an empty folder.
    vault.rename(aside)
    vault.mkdir()


def _gone(vault: Path, aside: Path) -> None:
    vault.rename(aside)


def _emptied(vault: Path, aside: Path) -> None:
    # A sync client that lost its mind: every note deleted, one by one, while the watcher looks on.
    shutil.copytree(vault, aside)
    for note in sorted(vault.rglob("*.md")):
        note.unlink()


def _restore(vault: Path, aside: Path) -> None:
    shutil.rmtree(vault, ignore_errors=True)
    aside.rename(vault)


async def _refusal(car: LiveSidecar) -> str:
    status, body = await car.get("/api/status")
    assert status == 200
    reasons = [f["reason"] for f in body["index"]["failures"] if f["path"] == "(vault)"]
    return reasons[0] if reasons else ""


@pytest.mark.parametrize(
    ("lose_vault", "ask", "expected"),
    [
        (_unmounted, False, "unmounted or emptied"),
        (_gone, True, "does not exist"),
        (_emptied, False, "unmounted or emptied"),
    ],
    ids=["unmounted-watcher-notices", "folder-gone-reindex-asked", "emptied-by-deletes-watcher-notices"],
)
async def test_a_lost_vault_is_refused_and_the_sidecar_keeps_serving_the_old_index(
    make_vault: VaultWriter,
    config_for: Callable[[Path, str], Config],
    fake_ollama: RunningOllama,
    tmp_path: Path,
    lose_vault: Callable[[Path, Path], None],
    ask: bool,
    expected: str,
) -> None:
    vault = make_vault(numbered_notes(NOTES))
    aside = tmp_path / "elsewhere"
    async with live_sidecar(config_for(vault, fake_ollama.url)) as car:
        assert await car.search("lantern0017") == {"Notes/Note 017.md"}
        lose_vault(vault, aside)
        if ask:  # a missing folder is not even reconciled by the watcher; the user's reindex says why
            status, _ = await car.post("/api/reindex", {})
            assert status in (202, 409)  # 409: the watcher's own run got there first

        async def refused() -> bool:
            return expected in await _refusal(car)

        await car.until(refused, "the refusal in /api/status")
        async with car.session.get(car.url + "/api/health") as health:
            assert health.status == 200
        # Let the watcher finish whatever it was doing with the events, then check that nothing was dropped.
        await car.until(lambda: _idle(car), "the watcher's batch")
        assert await car.search("lantern0017") == {"Notes/Note 017.md"}
        status, body = await car.get("/api/status")
        assert body["vault"]["notes"] == NOTES
        assert car.engine.manifest.count_notes() == NOTES

        _restore(vault, aside)

        async def recovered() -> bool:
            status, _ = await car.post("/api/reindex", {})
            return status == 202 or (await _refusal(car) == "" and status == 409)

        await car.until(recovered, "a reindex after the vault came back")
        await car.until(lambda: _no_refusal(car), "the refusal cleared")
        assert await car.search("lantern0017") == {"Notes/Note 017.md"}


async def _no_refusal(car: LiveSidecar) -> bool:
    _, body = await car.get("/api/status")
    return await _refusal(car) == "" and body["index"]["state"] == "idle"


async def _idle(car: LiveSidecar) -> bool:
    await asyncio.sleep(0.5)  # the watcher's debounce: a batch due now has been taken by then
    _, body = await car.get("/api/status")
    return bool(body["index"]["state"] == "idle")


async def test_a_vault_emptied_slowly_batch_by_batch_loses_at_most_half_before_the_guard_stops_it(
    make_vault: VaultWriter, config_for: Callable[[Path, str], Config], fake_ollama: RunningOllama
) -> None:
    vault = make_vault(numbered_notes(NOTES))
    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        await engine.indexer.run()
        refused = 0
        for note in sorted(vault.rglob("*.md")):
            note.unlink()
            await engine.indexer.apply(ChangeBatch(deletes=frozenset({note.relative_to(vault).as_posix()})))
            report = engine.indexer.last_report
            assert report is not None
            refused += any(p.path == "(vault)" and "unmounted or emptied" in p.reason for p in report.failed)
        assert refused > 0
        assert engine.manifest.count_notes() >= NOTES // 2
        with pytest.raises(VaultLooksEmpty):
            await engine.indexer.run()
        assert engine.manifest.count_notes() >= NOTES // 2
