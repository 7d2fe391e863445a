"""The indexer: keeps manifest, vectors and the BM25 index in step with the vault, one note at a time."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime

from askvault.chunk import CHUNKER_VERSION, chunk_note, params_key
from askvault.chunk.boilerplate import BOILERPLATE_VERSION, NoteLines, annotate, body_lines, min_notes
from askvault.config import ChunkParams, VaultConfig
from askvault.embed.protocol import Embedder
from askvault.errors import AskVaultError, StoreError, VaultError, VaultLooksEmpty
from askvault.extract.pdf import PdfProblem
from askvault.index.changes import ChangeBatch
from askvault.index.dense_sync import VectorChores, VectorStoreFactory, start_graph, sync_dense
from askvault.index.documents import Documents, PdfReader
from askvault.index.keyword_sync import KeywordSync
from askvault.index.language import NoteLanguages
from askvault.index.policy import NotePolicy
from askvault.index.privacy import IndexPrivacy, Redactions
from askvault.index.problems import PROBLEMS_META_KEY, NoteProblems, ProblemKind
from askvault.index.refresh import KeywordRefresh
from askvault.index.report import IndexReport, Problem, Progress, ProgressFeed
from askvault.index.safety import refuse_mass_delete, refuse_watcher_deletes
from askvault.index.scan import NoteFile, ScanResult
from askvault.index.templates import TemplateLines
from askvault.index.worker import Worker
from askvault.parse.decode import NotText
from askvault.parse.links import LinkResolver
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.manifest.manifest import Manifest, NoteStat
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
        self._chunking = chunking
        self._manifest = manifest
        self._catalog = catalog
        self._dense = dense
        self._vectors = vectors
        self._roots = policy.roots  # where a path lives and how it is read, as the last run or batch found it
        self._documents = Documents(vault, pdfs)
        self._lock = asyncio.Lock()
        self._feed = ProgressFeed()
        self.last_report: IndexReport | None = None
        self._chores = VectorChores()
        self._worker = Worker()
        self._dirty = False
        self._removed_by_watcher = 0
        """Notes watcher batches removed since the last full run: the mass-delete guard counts them too."""
        self.problems = NoteProblems()
        """Every note's current problem, kept across runs and watcher batches (and in the manifest) until fixed."""
        self.problems.load(manifest.get_meta(PROBLEMS_META_KEY))
        self._privacy = IndexPrivacy(vault)
        self.redactions = Redactions()
        """The secrets redacted in the indexed chunks, counted as they are read into the catalog."""
        self.keyword_sync = KeywordSync(manifest, keywords, catalog, self.redactions)
        self._languages = languages or NoteLanguages()
        # Excluded headings and the secret rules change what is chunked, and the language rules how a chunk is
        # tokenized: part of every note's fingerprint.
        version = (
            f"{CHUNKER_VERSION}|{params_key(chunking)}|{self._privacy.version}|{self._languages.version}"
            f"|{BOILERPLATE_VERSION}"
        )
        self._version = hashlib.sha256(version.encode()).hexdigest()[:12]
        self._templates = TemplateLines(manifest)

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
        if self._dirty or not len(self._catalog):
            # A quiet periodic reconcile changes nothing, and new vectors change no keyword: skip the rebuild.
            self._feed.emit(Progress("keyword", 0, 1))
            self._dirty = False
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
                and known.fingerprint.endswith(self._version)
                and not self.problems.unsettled(note_file.path)
            ):
                report.unchanged += 1
            else:
                chunks = self._index_note(note_file, resolver, report)
                if refresh.due(chunks, time.monotonic()):
                    # A first index of a big vault takes many minutes before embedding even starts.
                    self.keyword_sync.rebuild()
                    loop.call_soon_threadsafe(self._feed.emit, Progress("notes", done, total, note_file.path))
            if done % 25 == 0 or done == total:
                loop.call_soon_threadsafe(self._feed.emit, Progress("notes", done, total, note_file.path))
        for path in departures.gone:
            self._remove(self._manifest.remove_note(path))
            report.removed += 1
        report.notices.extend(self._roots.dropped_sources(departures.gone))
        self._retemplate(resolver, report)
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
            self._remove(self._manifest.remove_prefix(prefix))
            self.problems.clear_under(prefix)
            report.removed += notes
        for path in sorted(batch.deletes):
            self.problems.clear(path)  # a note that never indexed (it failed) has nothing else to remove
            removed = self._manifest.remove_note(path)
            if removed:
                self._remove(removed)
                report.removed += 1
        if not batch.upserts:
            self._retemplate(LinkResolver(set(self._manifest.note_stats())), report)
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
                self._remove(self._manifest.remove_note(path))
                self.problems.clear(path)
                report.skipped.append(Problem(path, reason))
                continue
            note_file = self._roots.stat(path)
            if note_file is None:
                self._remove(self._manifest.remove_note(path))
                self.problems.clear(path)
                report.removed += 1
                continue
            self._index_note(note_file, resolver, report, stored.get(path))
        self._retemplate(resolver, report)
        loop.call_soon_threadsafe(self._feed.emit, Progress("notes", len(batch.upserts), len(batch.upserts)))

    def _retemplate(self, resolver: LinkResolver, report: IndexReport) -> None:
        """After the notes changed: re-cut the notes holding a line that became, or stopped being, a template line."""
        templates, notes = self._templates.pending()
        quiet = IndexReport()  # these notes did not change: the run's summary counts them once, as it found them
        for path in notes:
            self._worker.check_abort()
            note_file = self._roots.stat(path)
            if note_file is not None and self._policy.excluded(path) is None:
                self._index_note(note_file, resolver, quiet, templates=templates)
        report.failed.extend(quiet.failed)
        self._templates.settle(templates)

    def _index_note(
        self,
        note_file: NoteFile,
        resolver: LinkResolver,
        report: IndexReport,
        known: NoteStat | None = None,
        templates: frozenset[int] | None = None,
    ) -> int:
        """Parse, chunk and commit one note in one transaction; on any failure its old chunks stay. Returns how
        many chunks it committed.

        With `known` (a watcher event), a note whose bytes, size and mtime are all as recorded is left alone.
        """
        too_big = self._policy.size_rule(note_file.path, note_file.size)
        if too_big is not None:  # grown past the limit since the scan, or a watcher event
            self._remove(self._manifest.remove_note(note_file.path))  # as a full run's scan leaves it out
            self._problem(report.skipped, note_file.path, too_big.reason, "skipped")
            return 0
        try:
            loaded = self._documents.load(self._roots, note_file.path)
            fingerprint = loaded.digest + ":" + self._version
            if known is not None and (known.fingerprint, known.size, known.mtime_ns) == (
                fingerprint,
                note_file.size,
                note_file.mtime_ns,
            ):
                report.unchanged += 1
                self.problems.settle(note_file.path)
                return 0
            document = self._documents.read(self._roots, note_file.path, loaded, resolver)
            note = document.note
            opted_out = self._policy.opt_out_rule(note)
            if opted_out is not None:
                self._remove(self._manifest.remove_note(note_file.path))
                self.problems.clear(note_file.path)
                report.skipped.append(Problem(note_file.path, opted_out.reason))
                return 0
            note = self._privacy.prepare(note).note  # excluded headings dropped, secrets redacted
            templates = self._templates.current if templates is None else templates
            chunks = chunk_note(note, self._chunking, note_file.mtime_ns / 1e9, templates)
            read = NoteLines.of(body_lines(note))
            chunks = annotate(chunks, note, document.source, templates, read)
            language = self._languages.of(note)
            if language:
                chunks = [replace(chunk, language=language) for chunk in chunks]
            delta = self._manifest.replace_note(
                note_file.path,
                fingerprint,
                note_file.mtime_ns,
                note_file.size,
                note.title,
                chunks,
                read.counted(),
            )
        except (NotText, PdfProblem) as exc:  # binary, a locked PDF: out on purpose (`index.problems` has the words)
            kind: ProblemKind = "failed" if isinstance(exc, PdfProblem) and exc.kind == "failed" else "skipped"
            self._problem(report.skipped if kind == "skipped" else report.failed, note_file.path, exc.message, kind)
            return 0
        except AskVaultError as exc:
            self._problem(report.failed, note_file.path, exc.message, "failed")
            return 0
        except OSError as exc:
            self._problem(report.failed, note_file.path, exc.strerror or type(exc).__name__, "failed")
            return 0
        except Exception as exc:  # a bug in one stage must cost one note, never the run (its old chunks stay)
            log.exception("indexing %s failed", note_file.path)
            self._problem(report.failed, note_file.path, f"internal error ({type(exc).__name__}: {exc})", "failed")
            return 0
        report.notices.extend(Problem(note_file.path, notice) for notice in note.notices)
        self.problems.replace(note_file.path, "notice", note.notices)  # indexed: a failure before is fixed
        self._dirty = True
        self.keyword_sync.committed(note_file.path, [chunk.id for chunk in chunks])
        self._remove(delta.removed + delta.changed)
        self._chores.restamped.update(delta.restamped)
        report.indexed += 1
        return len(chunks)

    def _problem(self, found: list[Problem], path: str, reason: str, kind: ProblemKind) -> None:
        """Reports one note's problem in this run and keeps it as current (the serve log says it once)."""
        found.append(Problem(path, reason))
        self.problems.replace(path, kind, (reason,))

    def _remove(self, chunk_ids: Iterable[str]) -> None:
        """Queues stale vectors for deletion by the next dense sync (see `_finish`)."""
        ids = list(chunk_ids)
        if ids:
            self._dirty = True
            self._chores.stale.update(ids)
            self.keyword_sync.removed(ids)

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
