"""One note into the index: parse, chunk and commit it in one transaction, or report why not; and the re-cut of
the notes a change to the vault's template lines touches."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace

from askvault.chunk import chunk_note
from askvault.chunk.boilerplate import NoteLines, annotate, body_lines
from askvault.config import ChunkParams
from askvault.errors import AskVaultError
from askvault.extract.pdf import PdfProblem
from askvault.index.dense_sync import VectorChores
from askvault.index.documents import Documents
from askvault.index.keyword_sync import KeywordSync
from askvault.index.language import NoteLanguages
from askvault.index.policy import NotePolicy
from askvault.index.privacy import IndexPrivacy
from askvault.index.problems import NoteProblems, ProblemKind
from askvault.index.report import IndexReport, Problem
from askvault.index.roots import Roots
from askvault.index.scan import NoteFile
from askvault.index.templates import TemplateLines
from askvault.index.worker import Worker
from askvault.parse.decode import NotText
from askvault.parse.links import LinkResolver
from askvault.store.manifest.manifest import Manifest, NoteStat

log = logging.getLogger(__name__)


class NoteWriter:
    """Commits notes for the indexer (its full runs and its watcher batches alike). `dirty` says a commit or a
    removal changed the chunks since the indexer last rebuilt the keyword index; `version` is the part of every
    note's fingerprint that the chunking rules make (a changed rule re-cuts every note once)."""

    def __init__(
        self,
        manifest: Manifest,
        policy: NotePolicy,
        documents: Documents,
        privacy: IndexPrivacy,
        chunking: ChunkParams,
        languages: NoteLanguages,
        templates: TemplateLines,
        problems: NoteProblems,
        keyword_sync: KeywordSync,
        chores: VectorChores,
        worker: Worker,
        version: str,
    ) -> None:
        self._manifest = manifest
        self._policy = policy
        self._documents = documents
        self._privacy = privacy
        self._chunking = chunking
        self._languages = languages
        self._templates = templates
        self._problems = problems
        self._keyword_sync = keyword_sync
        self._chores = chores
        self._worker = worker
        self.version = version
        self.dirty = False

    def retemplate(self, roots: Roots, resolver: LinkResolver, report: IndexReport) -> None:
        """After the notes changed: re-cut the notes holding a line that became, or stopped being, a template line."""
        templates, notes = self._templates.pending()
        quiet = IndexReport()  # these notes did not change: the run's summary counts them once, as it found them
        for path in notes:
            self._worker.check_abort()
            note_file = roots.stat(path)
            if note_file is not None and self._policy.excluded(path) is None:
                self.index_note(roots, note_file, resolver, quiet, templates=templates)
        report.failed.extend(quiet.failed)
        self._templates.settle(templates)

    def index_note(
        self,
        roots: Roots,
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
            self.remove(self._manifest.remove_note(note_file.path))  # as a full run's scan leaves it out
            self.problem(report.skipped, note_file.path, too_big.reason, "skipped")
            return 0
        try:
            loaded = self._documents.load(roots, note_file.path)
            fingerprint = loaded.digest + ":" + self.version
            if known is not None and (known.fingerprint, known.size, known.mtime_ns) == (
                fingerprint,
                note_file.size,
                note_file.mtime_ns,
            ):
                report.unchanged += 1
                self._problems.settle(note_file.path)
                return 0
            document = self._documents.read(roots, note_file.path, loaded, resolver)
            note = document.note
            opted_out = self._policy.opt_out_rule(note)
            if opted_out is not None:
                self.remove(self._manifest.remove_note(note_file.path))
                self._problems.clear(note_file.path)
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
            self.problem(report.skipped if kind == "skipped" else report.failed, note_file.path, exc.message, kind)
            return 0
        except AskVaultError as exc:
            self.problem(report.failed, note_file.path, exc.message, "failed")
            return 0
        except OSError as exc:
            self.problem(report.failed, note_file.path, exc.strerror or type(exc).__name__, "failed")
            return 0
        except Exception as exc:  # a bug in one stage must cost one note, never the run (its old chunks stay)
            log.exception("indexing %s failed", note_file.path)
            self.problem(report.failed, note_file.path, f"internal error ({type(exc).__name__}: {exc})", "failed")
            return 0
        report.notices.extend(Problem(note_file.path, notice) for notice in note.notices)
        self._problems.replace(note_file.path, "notice", note.notices)  # indexed: a failure before is fixed
        self.dirty = True
        self._keyword_sync.committed(note_file.path, [chunk.id for chunk in chunks])
        self.remove(delta.removed + delta.changed)
        self._chores.restamped.update(delta.restamped)
        report.indexed += 1
        return len(chunks)

    def problem(self, found: list[Problem], path: str, reason: str, kind: ProblemKind) -> None:
        """Reports one note's problem in this run and keeps it as current (the serve log says it once)."""
        found.append(Problem(path, reason))
        self._problems.replace(path, kind, (reason,))

    def remove(self, chunk_ids: Iterable[str]) -> None:
        """Queues stale vectors for deletion by the next dense sync (`Indexer._finish`)."""
        ids = list(chunk_ids)
        if ids:
            self.dirty = True
            self._chores.stale.update(ids)
            self._keyword_sync.removed(ids)
