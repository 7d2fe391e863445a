"""The indexer: keeps manifest, vectors and the BM25 index in step with the vault, one note at a time."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from askvault.chunk import CHUNKER_VERSION, params_key
from askvault.chunk.boilerplate import BOILERPLATE_VERSION, min_notes
from askvault.config import ChunkParams, VaultConfig
from askvault.embed.protocol import Embedder
from askvault.errors import StoreError, VaultError, VaultLooksEmpty
from askvault.index.changes import ChangeBatch
from askvault.index.dense_sync import VectorChores, VectorStoreFactory, start_graph, sync_dense
from askvault.index.documents import Documents, PdfReader
from askvault.index.keyword_sync import KeywordSync
from askvault.index.language import NoteLanguages
from askvault.index.note_writer import NoteWriter
from askvault.index.policy import NotePolicy
from askvault.index.privacy import IndexPrivacy, Redactions
from askvault.index.problems import PROBLEMS_META_KEY, NoteProblems
from askvault.index.refresh import KeywordRefresh
from askvault.index.report import IndexReport, Problem, Progress, ProgressFeed
from askvault.index.safety import refuse_mass_delete, refuse_watcher_deletes
from askvault.index.scan import ScanResult
from askvault.index.templates import TemplateLines
from askvault.index.worker import Worker
from askvault.parse.links import LinkResolver
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.manifest.manifest import Manifest
from askvault.store.protocol import KeywordIndex
from askvault.store.vectors.dense_index import DenseIndex

log = logging.getLogger(__name__)


class Indexer:
    """Implements the watcher's ChangeSink; `run` is a full scan + reconcile. One run at a time. What is indexed
    is the note policy's answer (`policy`, the instance the answer-time guard and explain ask too)."""

    def __init__(
        self,
        vault: VaultConfig,
        chunking: ChunkParams,
        manifest: Manifest,
        catalog: ChunkCatalog,
        keywords: KeywordIndex,
        dense: DenseIndex[Embedder],
        vectors: VectorStoreFactory,
        policy: NotePolicy,
        languages: NoteLanguages | None = None,
        pdfs: PdfReader | None = None,
    ) -> None:
        self._policy = policy
        self._manifest = manifest
        self._catalog = catalog
        self._dense = dense
        self._vectors = vectors
        self._roots = policy.roots  # where a path lives and how it is read, as the last run or batch found it
        self._lock = asyncio.Lock()
        self._feed = ProgressFeed()
        self.last_report: IndexReport | None = None
        self._chores = VectorChores()
        self._worker = Worker()
        self._removed_by_watcher = 0
        """Notes watcher batches removed since the last full run: the mass-delete guard counts them too."""
        self.problems = NoteProblems()
        """Every note's current problem, kept across runs and watcher batches (and in the manifest) until fixed."""
        self.problems.load(manifest.get_meta(PROBLEMS_META_KEY))
        self.redactions = Redactions()
        """The secrets redacted in the indexed chunks, counted as they are read into the catalog."""
        self.keyword_sync = KeywordSync(manifest, keywords, catalog, self.redactions)
        privacy, languages = IndexPrivacy(vault), languages or NoteLanguages()
        # Excluded headings and the secret rules change what is chunked, and the language rules how a chunk is
        # tokenized: part of every note's fingerprint.
        version = (
            f"{CHUNKER_VERSION}|{params_key(chunking)}|{privacy.version}|{languages.version}|{BOILERPLATE_VERSION}"
        )
        self._templates = TemplateLines(manifest)
        self._notes = NoteWriter(
            manifest,
            policy,
            Documents(vault, pdfs),
            privacy,
            chunking,
            languages,
            self._templates,
            self.problems,
            self.keyword_sync,
            self._chores,
            self._worker,
            hashlib.sha256(version.encode()).hexdigest()[:12],
        )

    # ----- observation -------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._lock.locked()

    @property
    def progress(self) -> Progress:
        return self._feed.current

    def add_listener(self, listener: Callable[[Progress], None]) -> Callable[[], None]:
        return self._feed.add(listener)

    # ----- entry points -----------------------------------------------------------------------
    async def load(self) -> None:
        """Serves the last good index at once (before any scan): catalog + BM25 from the manifest."""
        await asyncio.to_thread(self.keyword_sync.rebuild)

    async def run(self, full: bool = False, allow_mass_delete: bool = False) -> IndexReport:
        """Scans the whole vault and reconciles: new, changed, deleted and renamed notes; missing vectors."""
        async with self._lock:
            try:
                report = await self._run(full, allow_mass_delete)
            except VaultError as exc:
                # Refused (the vault looks unmounted or emptied, or is gone): the index stays as it was, and
                # the report says why, so /api/status shows it even when the watcher's reconcile was refused.
                now = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
                self.last_report = IndexReport(failed=[Problem("(vault)", exc.message)], finished_at=now)
                self._feed.emit(Progress("done", self._manifest.count_notes(), self._manifest.count_notes()))
                raise
            self._removed_by_watcher = 0
            return report

    async def apply(self, batch: ChangeBatch) -> None:
        """Applies a watcher batch: re-read some notes, remove others. Never a mass delete."""
        async with self._lock:
            started = time.perf_counter()
            report = IndexReport()
            loop = asyncio.get_running_loop()
            await self._worker.run(self._apply_sync, batch, report, loop)
            self._removed_by_watcher += report.removed
            await self._finish(report, started, watcher=True)

    async def reconcile(self) -> None:
        await self.run()

    async def drain(self) -> None:
        """Waits for a worker thread a cancelled run left behind, so the stores can close safely."""
        await self._worker.drain()

    # ----- the work ---------------------------------------------------------------------------
    async def _run(self, full: bool, allow_mass_delete: bool) -> IndexReport:
        started = time.perf_counter()
        report = IndexReport()
        loop = asyncio.get_running_loop()
        self._feed.emit(Progress("scan", 0, 0))
        await self._worker.run(self._sync_notes, full, allow_mass_delete, report, loop)
        return await self._finish(report, started)

    async def _finish(self, report: IndexReport, started: float, watcher: bool = False) -> IndexReport:
        # Keyword search first: every committed note is searchable before its vectors exist, which for a big
        # vault means hours before (embedding is the slow part).
        if self._notes.dirty or not len(self._catalog):
            # A quiet periodic reconcile changes nothing, and new vectors change no keyword: skip the rebuild.
            self._feed.emit(Progress("keyword", 0, 1))
            self._notes.dirty = False
            if watcher and len(self._catalog):
                await self._worker.run(self.keyword_sync.patch)
            else:
                await self._worker.run(self.keyword_sync.rebuild)
        # Stale vectors missed here (a crash) are swept as orphans by the next full run's dense sync; a watcher
        # batch skips the sweep, which lists every vector in the store.
        try:
            report.embedded = await sync_dense(
                self._manifest, self._dense, self._vectors, self._feed.emit, self._chores, sweep=not watcher
            )
            if not watcher:
                await start_graph(self._dense)
        except StoreError as exc:
            # A full disk or a damaged vector folder costs dense search, never the run or the keyword index:
            # the manifest holds the notes, and the next sync resumes (orphans swept, missing vectors added).
            log.warning("dense search off: %s", exc.message)
            self._dense.off(f"the vector store failed — {exc.message}")
        report.notes = self._manifest.count_notes()
        report.chunks = self._manifest.count_chunks()
        report.redactions = self.redactions.summary()
        report.template_lines, report.template_floor = len(self._templates.current), min_notes(report.notes)
        report.dense, report.dense_problem = self._dense.state, self._dense.problem
        if self.problems.changed:
            try:
                self._manifest.set_meta(PROBLEMS_META_KEY, self.problems.dump())
            except StoreError as exc:  # the list is rebuilt by the next full run; the index itself is fine
                log.warning("could not save the list of notes with problems: %s", exc.message)
        report.seconds = round(time.perf_counter() - started, 3)
        report.finished_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        self.last_report = report
        self._feed.emit(Progress("done", report.notes, report.notes))
        return report

    def _sync_notes(
        self, full: bool, allow_mass_delete: bool, report: IndexReport, loop: asyncio.AbstractEventLoop
    ) -> None:
        self._roots = self._policy.rebuild()  # app.json may have changed since the last run
        scanned = self._roots.scan()
        scan = scanned.result
        self._scan_problems(scan, report)
        stored = self._manifest.note_stats()
        on_disk = {n.path: n for n in scan.notes}
        departures = self._roots.departures(stored, scanned)  # an unreadable source keeps its notes
        refuse_mass_delete(len(stored), departures.missing, len(on_disk), allow_mass_delete)
        resolver = LinkResolver(on_disk)
        total = len(scan.notes)
        refresh = KeywordRefresh(len(self._catalog), time.monotonic())
        for done, note_file in enumerate(scan.notes, start=1):
            self._worker.check_abort()
            known = stored.get(note_file.path)
            if (
                not full
                and known is not None
                and known.size == note_file.size
                and known.mtime_ns == note_file.mtime_ns
                and known.fingerprint.endswith(self._notes.version)
                and not self.problems.unsettled(note_file.path)
            ):
                report.unchanged += 1
            else:
                chunks = self._notes.index_note(self._roots, note_file, resolver, report)
                if refresh.due(chunks, time.monotonic()):
                    # A first index of a big vault takes many minutes before embedding even starts.
                    self.keyword_sync.rebuild()
                    loop.call_soon_threadsafe(self._feed.emit, Progress("notes", done, total, note_file.path))
            if done % 25 == 0 or done == total:
                loop.call_soon_threadsafe(self._feed.emit, Progress("notes", done, total, note_file.path))
        for path in departures.gone:
            self._notes.remove(self._manifest.remove_note(path))
            report.removed += 1
        report.notices.extend(self._roots.dropped_sources(departures.gone))
        self._notes.retemplate(self._roots, resolver, report)
        # A full scan saw every note: entries of notes it did not see are of notes deleted or renamed meanwhile.
        self.problems.keep_only({n.path for n in scan.notes} | {s.path for s in scan.skipped} | departures.kept)

    def _scan_problems(self, scan: ScanResult, report: IndexReport) -> None:
        """What the scan left out goes into the report as skipped or failed, and into the current problems."""
        for entry in scan.skipped:
            (report.failed if entry.kind == "failed" else report.skipped).append(Problem(entry.path, entry.reason))
            self.problems.scanned(entry.path, entry.kind, entry.reason)

    def _apply_sync(self, batch: ChangeBatch, report: IndexReport, loop: asyncio.AbstractEventLoop) -> None:
        self._roots = self._policy.rebuild()  # Excluded files edited in Obsidian apply to the next save
        if self._batch_refused(batch, report):
            return
        for prefix in sorted(batch.deleted_prefixes):
            under = prefix.strip("/") + "/"
            notes = sum(1 for path in self._manifest.note_stats() if path.startswith(under))
            self._notes.remove(self._manifest.remove_prefix(prefix))
            self.problems.clear_under(prefix)
            report.removed += notes
        for path in sorted(batch.deletes):
            self.problems.clear(path)  # a note that never indexed (it failed) has nothing else to remove
            removed = self._manifest.remove_note(path)
            if removed:
                self._notes.remove(removed)
                report.removed += 1
        if not batch.upserts:
            self._notes.retemplate(self._roots, LinkResolver(set(self._manifest.note_stats())), report)
            return
        stored = self._manifest.note_stats()
        resolver = LinkResolver(set(stored) | set(batch.upserts))
        for path in sorted(batch.upserts):
            self._worker.check_abort()
            if not self._policy.indexed_kind(path) and path not in stored:
                continue  # a file of a kind this folder does not index (a `.txt` in the vault): nothing to say
            reason = self._policy.excluded(path)
            if reason is not None:
                # Newly excluded (or never included): whatever we had of it goes.
                self._notes.remove(self._manifest.remove_note(path))
                self.problems.clear(path)
                report.skipped.append(Problem(path, reason))
                continue
            note_file = self._roots.stat(path)
            if note_file is None:
                self._notes.remove(self._manifest.remove_note(path))
                self.problems.clear(path)
                report.removed += 1
                continue
            self._notes.index_note(self._roots, note_file, resolver, report, stored.get(path))
        self._notes.retemplate(self._roots, resolver, report)
        loop.call_soon_threadsafe(self._feed.emit, Progress("notes", len(batch.upserts), len(batch.upserts)))

    def _batch_refused(self, batch: ChangeBatch, report: IndexReport) -> bool:
        """The mass-delete guard for watcher batches: a sync client emptying the vault must not empty the index.

        Events trickle in over several batches, so the guard counts every indexed note now missing from
        disk, not only this batch's. A refused batch changes nothing; the report (and /api/status) says why.
        """
        if not (batch.deletes or batch.deleted_prefixes):
            return False
        stored = self._manifest.note_stats()
        missing = sum(1 for path in stored if self._roots.lost(path))
        arriving = len(batch.upserts - stored.keys())  # a renamed folder's notes come back under new names
        try:
            refuse_watcher_deletes(len(stored), missing, self._removed_by_watcher, arriving)
        except VaultLooksEmpty as exc:
            report.failed.append(Problem("(vault)", exc.message))
            log.warning("watcher batch refused: %s", exc.message)
            return True
        return False
