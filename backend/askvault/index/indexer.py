"""The indexer: keeps manifest, vectors and the BM25 index in step with the vault, one note at a time."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import ParamSpec, TypeVar

from askvault.chunk import CHUNKER_VERSION, chunk_note
from askvault.config import ChunkParams, VaultConfig
from askvault.errors import AskVaultError, NoteError, VaultLooksEmpty
from askvault.index.changes import ChangeBatch
from askvault.index.dense_sync import VectorStoreFactory, sync_dense
from askvault.index.report import IndexReport, Problem, Progress
from askvault.index.scan import NoteFile, VaultFilter, read_note_bytes, scan_vault
from askvault.parse.decode import decode_note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.retrieve.dense import DenseIndex
from askvault.store.catalog import ChunkCatalog
from askvault.store.manifest import Manifest
from askvault.store.protocol import KeywordIndex

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


class _Aborted(Exception):
    """Raised inside the worker thread when the run was cancelled: stop between two notes."""


MASS_DELETE_MIN_NOTES = 20
"""Below this many indexed notes, losing most of them at once is ordinary pruning, not a failed mount."""
MASS_DELETE_SHARE = 0.5


class Indexer:
    """Implements the watcher's ChangeSink; `run` is a full scan + reconcile. One run at a time."""

    def __init__(
        self,
        vault: VaultConfig,
        chunking: ChunkParams,
        manifest: Manifest,
        catalog: ChunkCatalog,
        keywords: KeywordIndex,
        dense: DenseIndex,
        vectors: VectorStoreFactory,
    ) -> None:
        self._vault = vault
        self._chunking = chunking
        self._manifest = manifest
        self._catalog = catalog
        self._keywords = keywords
        self._dense = dense
        self._vectors = vectors
        self._filter = VaultFilter(vault)
        self._lock = asyncio.Lock()
        self._listeners: list[Callable[[Progress], None]] = []
        self.last_report: IndexReport | None = None
        self._stale: list[str] = []
        self._abort = threading.Event()
        self._dirty = False
        self._inflight: asyncio.Future[object] | None = None
        self.progress = Progress("done", 0, 0)
        self._version = hashlib.sha256(f"{CHUNKER_VERSION}|{chunking}".encode()).hexdigest()[:12]

    # ----- observation -------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._lock.locked()

    def add_listener(self, listener: Callable[[Progress], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _emit(self, progress: Progress) -> None:
        self.progress = progress
        for listener in list(self._listeners):
            try:
                listener(progress)
            except Exception:  # a broken listener must never stop indexing
                log.exception("progress listener failed")

    # ----- entry points -----------------------------------------------------------------------
    async def load(self) -> None:
        """Serves the last good index at once (before any scan): catalog + BM25 from the manifest."""
        await asyncio.to_thread(self._rebuild_keyword)

    async def run(self, full: bool = False, allow_mass_delete: bool = False) -> IndexReport:
        """Scans the whole vault and reconciles: new, changed, deleted and renamed notes; missing vectors."""
        async with self._lock:
            return await self._run(full, allow_mass_delete)

    async def apply(self, batch: ChangeBatch) -> None:
        """Applies a watcher batch: re-read some notes, remove others. Never a mass delete."""
        async with self._lock:
            started = time.perf_counter()
            report = IndexReport()
            loop = asyncio.get_running_loop()
            await self._in_thread(self._apply_sync, batch, report, loop)
            await self._finish(report, started)

    async def reconcile(self) -> None:
        await self.run()

    async def drain(self) -> None:
        """Waits for a worker thread a cancelled run left behind, so the stores can close safely."""
        inflight = self._inflight
        if inflight is not None and not inflight.done():
            self._abort.set()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await inflight

    async def _in_thread(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Runs blocking work off the event loop; a cancel stops it between two notes, never mid-note."""
        self._abort.clear()
        future: asyncio.Future[T] = asyncio.ensure_future(asyncio.to_thread(func, *args, **kwargs))
        self._inflight = future  # type: ignore[assignment]
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            self._abort.set()
            with contextlib.suppress(Exception):
                await future
            raise

    def _check_abort(self) -> None:
        if self._abort.is_set():
            raise _Aborted()

    # ----- the work ---------------------------------------------------------------------------
    async def _run(self, full: bool, allow_mass_delete: bool) -> IndexReport:
        started = time.perf_counter()
        report = IndexReport()
        loop = asyncio.get_running_loop()
        self._emit(Progress("scan", 0, 0))
        await self._in_thread(self._sync_notes, full, allow_mass_delete, report, loop)
        return await self._finish(report, started)

    async def _finish(self, report: IndexReport, started: float) -> IndexReport:
        stale, self._stale = self._stale, []
        store = self._dense.store
        if stale and store is not None:
            # Anything missed here (a crash) is swept as an orphan by the next dense sync.
            await store.delete(stale)
        report.embedded = await sync_dense(self._manifest, self._dense, self._vectors, self._emit)
        if self._dirty or report.embedded or not len(self._catalog):
            # A quiet periodic reconcile changes nothing: skip the keyword rebuild.
            self._emit(Progress("keyword", 0, 1))
            self._dirty = False
            await self._in_thread(self._rebuild_keyword)
        report.notes = self._manifest.count_notes()
        report.chunks = self._manifest.count_chunks()
        report.dense, report.dense_problem = self._dense.state, self._dense.problem
        report.seconds = round(time.perf_counter() - started, 3)
        report.finished_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        self.last_report = report
        self._emit(Progress("done", report.notes, report.notes))
        return report

    def _sync_notes(
        self, full: bool, allow_mass_delete: bool, report: IndexReport, loop: asyncio.AbstractEventLoop
    ) -> None:
        self._filter = VaultFilter(self._vault)  # app.json may have changed since the last run
        scan = scan_vault(self._vault)
        report.skipped.extend(Problem(s.path, s.reason) for s in scan.skipped)
        stored = self._manifest.note_stats()
        on_disk = {n.path: n for n in scan.notes}
        gone = [path for path in stored if path not in on_disk]
        self._refuse_mass_delete(len(stored), len(gone), len(on_disk), allow_mass_delete)
        resolver = LinkResolver(on_disk)
        total = len(scan.notes)
        for done, note_file in enumerate(scan.notes, start=1):
            self._check_abort()
            known = stored.get(note_file.path)
            if (
                not full
                and known is not None
                and known.size == note_file.size
                and known.mtime_ns == note_file.mtime_ns
                and known.fingerprint.endswith(self._version)
            ):
                report.unchanged += 1
            else:
                self._index_note(note_file, resolver, report)
            if done % 25 == 0 or done == total:
                loop.call_soon_threadsafe(self._emit, Progress("notes", done, total, note_file.path))
        for path in gone:
            self._remove(self._manifest.remove_note(path))
            report.removed += 1

    def _apply_sync(self, batch: ChangeBatch, report: IndexReport, loop: asyncio.AbstractEventLoop) -> None:
        for prefix in sorted(batch.deleted_prefixes):
            removed = self._manifest.remove_prefix(prefix)
            self._remove(removed)
            report.removed += len(removed)
        for path in sorted(batch.deletes):
            removed = self._manifest.remove_note(path)
            if removed:
                self._remove(removed)
                report.removed += 1
        if not batch.upserts:
            return
        resolver = LinkResolver(set(self._manifest.note_stats()) | set(batch.upserts))
        for path in sorted(batch.upserts):
            self._check_abort()
            reason = self._filter.excluded(path)
            if reason is not None:
                # Newly excluded (or never included): whatever we had of it goes.
                self._remove(self._manifest.remove_note(path))
                report.skipped.append(Problem(path, reason))
                continue
            note_file = NoteFile.stat(self._vault.root, path)
            if note_file is None:
                self._remove(self._manifest.remove_note(path))
                report.removed += 1
                continue
            self._index_note(note_file, resolver, report)
        loop.call_soon_threadsafe(self._emit, Progress("notes", len(batch.upserts), len(batch.upserts)))

    def _index_note(self, note_file: NoteFile, resolver: LinkResolver, report: IndexReport) -> None:
        """Parse, chunk and commit one note in one transaction; on any failure its old chunks stay."""
        try:
            if note_file.size > self._vault.max_note_bytes:
                raise NoteError(f"larger than the {self._vault.max_note_bytes // 1024} KiB cap")
            data = read_note_bytes(self._vault.root, note_file.path)
            fingerprint = hashlib.sha256(data).hexdigest() + ":" + self._version
            text = decode_note(data)
            note = parse_note(note_file.path, text, resolver, self._vault.opt_out_key)
            if note.opted_out:
                self._remove(self._manifest.remove_note(note_file.path))
                report.skipped.append(Problem(note_file.path, f"opted out ({self._vault.opt_out_key}: false)"))
                return
            chunks = chunk_note(note, self._chunking, mtime=note_file.mtime_ns / 1e9)
            delta = self._manifest.replace_note(
                note_file.path, fingerprint, note_file.mtime_ns, note_file.size, note.title, chunks
            )
        except AskVaultError as exc:
            report.failed.append(Problem(note_file.path, exc.message))
            log.warning("skipped %s: %s", note_file.path, exc.message)
            return
        except OSError as exc:
            report.failed.append(Problem(note_file.path, exc.strerror or type(exc).__name__))
            log.warning("could not read %s: %s", note_file.path, exc.strerror)
            return
        self._dirty = True
        self._remove(delta.removed + delta.changed)
        report.indexed += 1

    def _remove(self, chunk_ids: Iterable[str]) -> None:
        """Queues stale vectors for deletion once the worker thread is done (see `_finish`)."""
        ids = list(chunk_ids)
        if ids:
            self._dirty = True
            self._stale.extend(ids)

    def _refuse_mass_delete(self, stored: int, gone: int, on_disk: int, allow: bool) -> None:
        if allow or stored == 0 or gone == 0:
            return
        if on_disk == 0 or (stored >= MASS_DELETE_MIN_NOTES and gone / stored > MASS_DELETE_SHARE):
            raise VaultLooksEmpty(
                f"the vault now shows {on_disk} notes but {stored} are indexed ({gone} would be deleted); "
                "this looks like an unmounted or emptied folder, so the index was left as it is. "
                "If the notes really are gone, run `askvault index --full --allow-mass-delete`."
            )

    def _rebuild_keyword(self) -> None:
        chunks = {chunk.id: chunk for chunk in self._manifest.iter_chunks()}
        self._keywords.rebuild((chunk.id, chunk.index_text) for chunk in chunks.values())
        self._catalog.replace(chunks)
