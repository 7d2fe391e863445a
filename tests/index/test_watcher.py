"""The real watcher on a real temp vault (inotify here), feeding a sink that records what it is asked to do."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from askvault.index.changes import ChangeBatch
from askvault.index.fs_events import list_notes
from askvault.index.watcher import VaultWatcher

TIMEOUT_S = 10.0
"""Generous: only bounds how long a broken watcher makes a test hang; nothing asserts on time."""


@dataclass
class Seen:
    """Everything the sink was asked to do so far, merged over batches."""

    batches: list[ChangeBatch] = field(default_factory=list)

    @property
    def upserts(self) -> set[str]:
        return {p for b in self.batches for p in b.upserts}

    @property
    def deletes(self) -> set[str]:
        return {p for b in self.batches for p in b.deletes}

    @property
    def prefixes(self) -> set[str]:
        return {p for b in self.batches for p in b.deleted_prefixes}

    @property
    def moved(self) -> set[tuple[str, str]]:
        return {m for b in self.batches for m in b.moved}

    def touching(self, path: str) -> list[ChangeBatch]:
        return [b for b in self.batches if path in b.upserts or path in b.deletes]

    def mentions(self, fragment: str) -> bool:
        every = self.upserts | self.deletes | self.prefixes | {p for m in self.moved for p in m}
        return any(fragment in p for p in every)


class RecordingSink:
    """A ChangeSink that records batches in an asyncio.Queue and counts reconciles."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[ChangeBatch] = asyncio.Queue()
        self.seen = Seen()
        self.reconciles = 0
        self._reconciled = asyncio.Condition()

    async def apply(self, batch: ChangeBatch) -> None:
        await self.queue.put(batch)

    async def reconcile(self) -> None:
        async with self._reconciled:
            self.reconciles += 1
            self._reconciled.notify_all()

    async def until(self, done: Callable[[Seen], bool]) -> Seen:
        async with asyncio.timeout(TIMEOUT_S):
            while not done(self.seen):
                self.seen.batches.append(await self.queue.get())
        return self.seen

    async def until_reconciled(self, count: int) -> None:
        async with asyncio.timeout(TIMEOUT_S), self._reconciled:
            await self._reconciled.wait_for(lambda: self.reconciles >= count)


class FlakySink(RecordingSink):
    """Fails its first apply, like an indexer whose embedder is briefly down."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = asyncio.Event()

    async def apply(self, batch: ChangeBatch) -> None:
        if not self.failed.is_set():
            self.failed.set()
            raise RuntimeError("embedder unavailable")
        await super().apply(batch)


Start = Callable[..., Awaitable[VaultWatcher]]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / ".obsidian").mkdir(parents=True)
    return root


@pytest.fixture
async def start(vault: Path) -> AsyncIterator[Start]:
    watchers: list[VaultWatcher] = []

    async def run(
        sink: RecordingSink, *, reconcile_every_s: float = 300.0, reconcile_on_start: bool = True
    ) -> VaultWatcher:
        watcher = VaultWatcher(vault, sink, reconcile_every_s=reconcile_every_s, reconcile_on_start=reconcile_on_start)
        watchers.append(watcher)
        await watcher.start()
        return watcher

    yield run
    for watcher in watchers:
        await watcher.stop()


def write(path: Path, text: str = "# Note\n\nbody\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


async def settle(vault: Path, sink: RecordingSink, name: str = "zz-sentinel.md") -> Seen:
    """Write a sentinel and wait for it: per-path deadlines never pass a later event's, so every change
    made before the sentinel has reached the sink by then."""
    write(vault / name)
    return await sink.until(lambda s: name in s.upserts)


async def test_save_is_upserted(vault: Path, start: Start) -> None:
    sink = RecordingSink()
    await start(sink)
    write(vault / "Projects" / "Plan.md")
    seen = await sink.until(lambda s: "Projects/Plan.md" in s.upserts)
    assert "Projects/Plan.md" not in seen.deletes


async def test_atomic_save_is_one_upsert_and_the_temp_file_is_invisible(vault: Path, start: Start) -> None:
    write(vault / "note.md", "old\n")
    sink = RecordingSink()
    await start(sink)
    tmp = vault / ".note.md.tmp"
    write(tmp, "new\n")
    os.replace(tmp, vault / "note.md")
    seen = await settle(vault, sink)
    assert len(seen.touching("note.md")) == 1
    assert "note.md" in seen.upserts
    assert "note.md" not in seen.deletes
    assert not seen.mentions(".tmp")


async def test_rename_deletes_old_and_upserts_new(vault: Path, start: Start) -> None:
    write(vault / "a.md")
    sink = RecordingSink()
    await start(sink)
    (vault / "a.md").rename(vault / "b.md")
    seen = await sink.until(lambda s: "a.md" in s.deletes and "b.md" in s.upserts)
    assert ("a.md", "b.md") in seen.moved


async def test_folder_move_within_vault(vault: Path, start: Start) -> None:
    write(vault / "A" / "x.md")
    write(vault / "A" / "sub" / "y.md")
    sink = RecordingSink()
    await start(sink)
    (vault / "A").rename(vault / "C")
    seen = await sink.until(lambda s: "A" in s.prefixes and {"C/x.md", "C/sub/y.md"} <= s.upserts)
    assert not any(p.startswith("A/") for p in seen.upserts)


async def test_folder_moved_out_of_vault_deletes_by_prefix(vault: Path, tmp_path: Path, start: Start) -> None:
    write(vault / "A" / "x.md")
    write(vault / "A" / "sub" / "y.md")
    outside = tmp_path / "outside"
    outside.mkdir()
    sink = RecordingSink()
    await start(sink)
    (vault / "A").rename(outside / "A")
    seen = await sink.until(lambda s: "A" in s.prefixes)
    assert not seen.upserts


async def test_folder_moved_in_upserts_its_notes_only(vault: Path, tmp_path: Path, start: Start) -> None:
    outside = tmp_path / "outside" / "B"
    write(outside / "x.md")
    write(outside / "sub" / "y.md")
    write(outside / ".obsidian" / "z.md")
    write(outside / "pic.png", "not a note")
    write(outside / "x.md~", "backup")
    sink = RecordingSink()
    await start(sink)
    outside.rename(vault / "B")
    await sink.until(lambda s: {"B/x.md", "B/sub/y.md"} <= s.upserts)
    seen = await settle(vault, sink)
    assert {p for p in seen.upserts if p.startswith("B/")} == {"B/x.md", "B/sub/y.md"}


async def test_delete(vault: Path, start: Start) -> None:
    write(vault / "gone.md")
    sink = RecordingSink()
    await start(sink)
    (vault / "gone.md").unlink()
    seen = await sink.until(lambda s: "gone.md" in s.deletes)
    assert "gone.md" not in seen.upserts


async def test_dot_folders_and_temp_files_are_ignored(vault: Path, start: Start) -> None:
    sink = RecordingSink()
    await start(sink)
    write(vault / ".obsidian" / "workspace.md")
    write(vault / ".trash" / "old.md")
    write(vault / ".#lock.md")
    write(vault / "draft.md.swp")
    write(vault / "draft.md~")
    seen = await settle(vault, sink)
    assert seen.upserts == {"zz-sentinel.md"}
    assert not seen.deletes


async def test_burst_of_writes_coalesces(vault: Path, start: Start) -> None:
    sink = RecordingSink()
    await start(sink)
    for i in range(50):
        write(vault / "busy.md", f"version {i}\n")
    seen = await settle(vault, sink)
    assert 1 <= len(seen.touching("busy.md")) <= 5
    assert "busy.md" in seen.upserts


async def test_reconcile_runs_periodically(start: Start) -> None:
    sink = RecordingSink()
    await start(sink, reconcile_every_s=0.05, reconcile_on_start=False)
    await sink.until_reconciled(3)


async def test_reconcile_runs_at_start(start: Start) -> None:
    sink = RecordingSink()
    await start(sink)
    await sink.until_reconciled(1)


async def test_event_overflow_triggers_a_reconcile(start: Start) -> None:
    sink = RecordingSink()
    await start(sink, reconcile_on_start=False)
    # watchdog's only overflow signal is this warning from its inotify reader; produce it the way it does.
    logging.getLogger("watchdog.observers.inotify_c").warning("Inotify queue overflowed; filesystem events were lost")
    await sink.until_reconciled(1)


async def test_sink_errors_do_not_stop_the_watcher(vault: Path, start: Start) -> None:
    sink = FlakySink()
    await start(sink)
    write(vault / "first.md")
    async with asyncio.timeout(TIMEOUT_S):
        await sink.failed.wait()
    seen = await settle(vault, sink, "second.md")
    assert "first.md" not in seen.upserts  # dropped: the next reconcile picks it up


class LogSignal(logging.Handler):
    """Sets an asyncio.Event when a record containing `text` is logged (the watcher logs on the loop thread)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.event.set()


@pytest.fixture
def watch_gone() -> Iterator[LogSignal]:
    signal = LogSignal("cannot watch")
    logger = logging.getLogger("askvault.index.watcher")
    logger.addHandler(signal)
    yield signal
    logger.removeHandler(signal)


async def test_vault_folder_deleted_and_restored_restarts_watching(
    vault: Path, start: Start, watch_gone: LogSignal
) -> None:
    write(vault / "a.md")
    sink = RecordingSink()
    await start(sink, reconcile_on_start=False)
    shutil.rmtree(vault)
    async with asyncio.timeout(TIMEOUT_S):
        await watch_gone.event.wait()
    assert sink.reconciles == 0  # a missing vault is never reconciled (it may be a failed mount)
    (vault / ".obsidian").mkdir(parents=True)
    await sink.until_reconciled(1)  # watching again, and catching up on whatever happened meanwhile
    await settle(vault, sink, "after.md")


async def test_vault_folder_replaced_restarts_watching(vault: Path, tmp_path: Path, start: Start) -> None:
    sink = RecordingSink()
    await start(sink, reconcile_on_start=False)
    os.rename(vault, tmp_path / "vault-old")
    (vault / ".obsidian").mkdir(parents=True)
    await sink.until_reconciled(1)
    seen = await settle(vault, sink, "fresh.md")
    assert "fresh.md" in seen.upserts


async def test_stop_leaves_no_threads_and_start_stop_are_idempotent(vault: Path) -> None:
    before = set(threading.enumerate())
    sink = RecordingSink()
    watcher = VaultWatcher(vault, sink)
    await watcher.start()
    await watcher.start()
    write(vault / "n.md")
    await sink.until(lambda s: "n.md" in s.upserts)
    await watcher.stop()
    await watcher.stop()
    assert not watcher.running
    assert [t.name for t in threading.enumerate() if t not in before] == []
    # and it can be started again
    await watcher.start()
    try:
        write(vault / "m.md")
        await sink.until(lambda s: "m.md" in s.upserts)
    finally:
        await watcher.stop()
    assert [t.name for t in threading.enumerate() if t not in before] == []


def test_list_notes_skips_hidden_folders_and_non_notes(vault: Path) -> None:
    for rel in ["F/a.md", "F/sub/b.md", "F/.hidden/c.md", "F/d.png", "F/e.md~", "G/x.md"]:
        write(vault / rel)
    assert list_notes(vault, "F") == ["F/a.md", "F/sub/b.md"]
    assert list_notes(vault, "missing") == []
