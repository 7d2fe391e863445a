"""Live watching: an asyncio consumer coalesces watchdog's events into ChangeBatches for a ChangeSink."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final, TypeVar

from watchdog.events import FileSystemEvent
from watchdog.observers.api import BaseObserver

from askvault.index.changes import Change, ChangeBatch, ChangeKind, ChangeSink, Coalescer, map_event
from askvault.index.fs_events import (
    Item,
    Overflow,
    Post,
    list_notes,
    listen_for_overflow,
    root_identity,
    shutdown_observer,
    start_observer,
    threadsafe_poster,
    to_raw_event,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

HEALTH_EVERY_S: Final = 1.0
"""How often the observer threads and the vault root's identity are checked."""
MAX_RETRY_S: Final = 30.0
"""Longest pause between attempts to watch a missing vault folder again (doubling from HEALTH_EVERY_S).
A folder that exists but cannot be watched (inotify watch limit) is retried at the reconcile cadence."""


class VaultWatcher:
    """Keeps a ChangeSink in step with the vault while running.

    Events are a hint, not a ledger (watchdog can drop them): the sink also reconciles at start
    (`reconcile_on_start`), every `reconcile_every_s`, after an event-queue overflow, and after the
    observer is restarted. Sink errors are logged and never stop the watcher; a failed batch is
    repaired by the next reconcile. The sink is only awaited, one call at a time.
    """

    def __init__(
        self,
        root: Path,
        sink: ChangeSink,
        debounce_s: float = 0.3,
        max_wait_s: float = 2.0,
        reconcile_every_s: float = 300.0,
        *,
        reconcile_on_start: bool = True,
    ) -> None:
        self.root = root.resolve()  # watchdog does not follow a symlinked root
        self._root_str = str(self.root)
        self._sink = sink
        self._debounce_s = debounce_s
        self._max_wait_s = max_wait_s
        self._reconcile_every_s = reconcile_every_s
        self._reconcile_on_start = reconcile_on_start
        self._task: asyncio.Task[None] | None = None
        self._observer: BaseObserver | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._unlisten: Callable[[], None] | None = None
        self._root_id: tuple[int, int] | None = None
        self._warned = False
        self._missing = False
        self._watching = False
        self._retry_s = HEALTH_EVERY_S
        self._reconcile_at = 0.0
        self._health_at = 0.0

    @property
    def running(self) -> bool:
        return self._executor is not None

    async def start(self) -> None:
        """Start watching (no-op if running). A vault that cannot be watched yet is retried, never raised."""
        if self._executor is not None:
            return
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Item] = asyncio.Queue()
        post = threadsafe_poster(loop, queue)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="askvault-watch")
        self._unlisten = listen_for_overflow(post)
        try:
            self._watching = await self._start_observer(post)
        except BaseException:
            await self.stop()
            raise
        self._retry_s = HEALTH_EVERY_S
        self._task = asyncio.create_task(self._consume(queue, post), name="askvault-watcher")

    async def stop(self) -> None:
        """Stop the consumer, the observer threads and the worker thread (no-op if not running).

        A sink call in flight is cancelled (the sink's per-note transactions make that safe); changes
        not yet applied are picked up by the reconcile at the next start."""
        if self._executor is None:
            return
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait({task})
            if not task.cancelled() and task.exception() is not None:
                log.error("watcher consumer had failed", exc_info=task.exception())
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        await self._run(self._stop_observer)
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        assert self._executor is not None
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def _start_observer(self, post: Post) -> bool:
        self._missing = False
        try:
            await self._run(self._replace_observer, post)
        except Exception as exc:
            self._missing = isinstance(exc, FileNotFoundError)
            # A missing vault (unmounted disk) or an exhausted inotify watch limit: keep retrying,
            # the periodic reconcile keeps the index fresh meanwhile.
            level, self._warned = logging.DEBUG if self._warned else logging.WARNING, True
            log.log(level, "cannot watch %s (%s); will retry", self.root, exc, exc_info=not isinstance(exc, OSError))
            return False
        self._warned = False
        return True

    # The observer is only ever created, replaced, probed and stopped on the single worker thread, in
    # submission order: a stop() that cancels a start in flight still finds and stops what it built.

    def _replace_observer(self, post: Post) -> None:
        self._stop_observer()
        self._observer, self._root_id = start_observer(self.root, post)

    def _stop_observer(self) -> None:
        observer, self._observer = self._observer, None
        if observer is not None:
            shutdown_observer(observer)

    def _healthy(self) -> bool:
        observer = self._observer
        if observer is None or not observer.is_alive():
            return False
        if not all(emitter.is_alive() for emitter in list(observer.emitters)):
            return False  # e.g. the emitter stops itself when the vault folder is deleted
        # Same path, different folder (remounted, replaced by a sync tool): the watches are stale.
        return root_identity(self.root) == self._root_id

    async def _ensure_watching(self, post: Post) -> bool:
        """Restart the observer if it died or watches a stale folder; True when it was (re)started."""
        if self._watching and await self._run(self._healthy):
            return False
        if self._watching:
            log.warning("vault watcher stopped (%s); restarting it", self.root)
        self._watching = await self._start_observer(post)
        if self._watching:
            self._retry_s = HEALTH_EVERY_S
            log.info("watching %s", self.root)
        elif self._missing:
            self._retry_s = min(self._retry_s * 2, MAX_RETRY_S)
        else:  # each attempt walks the whole vault adding watches: do not hammer
            self._retry_s = max(self._reconcile_every_s, HEALTH_EVERY_S)
        return self._watching

    async def _consume(self, queue: asyncio.Queue[Item], post: Post) -> None:
        loop = asyncio.get_running_loop()
        coalescer = Coalescer(debounce_s=self._debounce_s, max_wait_s=self._max_wait_s)
        self._reconcile_at = loop.time() + (0.0 if self._reconcile_on_start else self._reconcile_every_s)
        self._health_at = loop.time() + HEALTH_EVERY_S
        getter: asyncio.Task[Item] | None = None
        try:
            while True:
                wake = min(t for t in (coalescer.next_deadline(), self._reconcile_at, self._health_at) if t is not None)
                getter = getter or asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter}, timeout=max(0.0, wake - loop.time()))
                items: list[Item] = []
                if done:
                    items.append(getter.result())
                    getter = None
                    while not queue.empty():
                        items.append(queue.get_nowait())
                try:
                    await self._step(items, coalescer, post)
                except Exception:
                    # Our own bug must not end live indexing either; the reconcile repairs what it skipped.
                    log.exception("watcher step failed")
                    await asyncio.sleep(HEALTH_EVERY_S)
        finally:
            if getter is not None:
                getter.cancel()

    async def _step(self, items: list[Item], coalescer: Coalescer, post: Post) -> None:
        loop = asyncio.get_running_loop()
        for item in items:
            if isinstance(item, Overflow):
                log.warning("filesystem events were lost; reconciling %s", self.root)
                self._reconcile_at = loop.time()
                continue
            try:
                if await self._ingest(item, coalescer):
                    self._health_at = loop.time()
            except Exception:  # one odd event must not cost the rest; the reconcile covers it
                log.exception("could not handle filesystem event %r", item)
        batch = coalescer.take_ready(loop.time())
        if batch is not None:
            await self._apply(batch)
        if loop.time() >= self._health_at:
            if await self._ensure_watching(post):
                self._reconcile_at = loop.time()  # events may have been missed while not watching
            self._health_at = loop.time() + (HEALTH_EVERY_S if self._watching else self._retry_s)
        if loop.time() >= self._reconcile_at:
            await self._reconcile()
            self._reconcile_at = loop.time() + self._reconcile_every_s

    async def _ingest(self, event: FileSystemEvent, coalescer: Coalescer) -> bool:
        """Feed one event to the coalescer; True when the vault root itself changed."""
        rescan = False
        for change in map_event(to_raw_event(event), self._root_str):
            if change.kind is ChangeKind.RESCAN:
                rescan = True
            elif change.kind is ChangeKind.UPSERT_TREE:
                # A folder that appears whole (moved in) may bring no per-file events on some platforms.
                for path in await self._run(list_notes, self.root, change.path):
                    coalescer.add(Change(ChangeKind.UPSERT, path), asyncio.get_running_loop().time())
            else:
                coalescer.add(change, asyncio.get_running_loop().time())
        return rescan

    async def _apply(self, batch: ChangeBatch) -> None:
        try:
            await self._sink.apply(batch)
        except Exception:
            log.exception(
                "indexing %d changed and %d removed notes failed; the next reconcile retries them",
                len(batch.upserts),
                len(batch.deletes) + len(batch.deleted_prefixes),
            )

    async def _reconcile(self) -> None:
        if await self._run(root_identity, self.root) is None:
            # An absent vault is a failed mount far more often than a deleted one: do not let the
            # sink compare an empty disk with the index.
            log.warning("vault folder %s is missing; reconcile postponed", self.root)
            return
        try:
            await self._sink.reconcile()
        except Exception:
            log.exception("reconciling the index with %s failed; will retry", self.root)
