"""A PDF's page texts, read by a long-lived child process under a memory cap and a time limit (`PdfExtractor`).

PDFium is C++ that inflates whatever a file asks for: one crafted page (a content stream that decompresses to
gigabytes) would take the sidecar's memory, and a bug would take the process. So the sidecar never loads PDFium:
a child started with "spawn" (never fork, the sidecar has threads) caps its own address space, reads one file per
request and streams each page's text back over a pipe. The parent waits with a deadline; a child that overruns it,
dies (a segfault, PDFium aborting on an allocation over the cap) or runs out of memory is killed, the file gets a
`PdfProblem`, and the next call starts a fresh child. The parent only ever holds the extracted text.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import os
import sys
import threading
import time
import types
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import TracebackType
from typing import cast, get_args

from askvault.errors import NoteError
from askvault.extract import pdf_messages as messages
from askvault.extract.pdf_messages import ProblemKind
from askvault.extract.pdf_worker import PageState, serve

log = logging.getLogger(__name__)

_START_SECONDS = 30.0  # a fresh child's interpreter start and imports; not charged to the file's max_seconds
_STOP_SECONDS = 5.0  # how long a child asked to stop (or already dying) may take before it is killed
_MIN_MEMORY_MB = 64  # the interpreter and PDFium alone take about 30 MB of address space
_PAGE_STATES: frozenset[str] = frozenset(get_args(PageState))


@dataclass(frozen=True, slots=True)
class PdfLimits:
    """How much one PDF may cost; each limit names the setting that raises it in the messages."""

    max_pages: int = 1000  # pages extracted; later pages are left out and reported (pdf_max_pages)
    max_seconds: float = 120.0  # wall time for one PDF (pdf_max_seconds)
    max_memory_mb: int = 1024  # address-space cap of the extracting process (pdf_max_memory_mb)
    max_chars_per_page: int = 200_000  # a page's text past this is cut and reported

    def __post_init__(self) -> None:
        if self.max_pages < 1:
            raise ValueError(f"max_pages must be at least 1, not {self.max_pages}")
        if not 0 < self.max_seconds < math.inf:
            raise ValueError(f"max_seconds must be above 0 and finite, not {self.max_seconds}")
        if self.max_memory_mb < _MIN_MEMORY_MB:
            raise ValueError(f"max_memory_mb must be at least {_MIN_MEMORY_MB}, not {self.max_memory_mb}")
        if self.max_chars_per_page < 1:
            raise ValueError(f"max_chars_per_page must be at least 1, not {self.max_chars_per_page}")


DEFAULT_LIMITS = PdfLimits()


@dataclass(frozen=True, slots=True)
class PdfText:
    """What a PDF gave: `pages` holds the text of pages 1..n (n <= max_pages), "" for a page without text."""

    pages: tuple[str, ...]
    page_count: int  # pages in the document, extracted or not
    notice: str | None  # one user-facing sentence (a predicate, like a problem's) on what was left out, or None


class PdfProblem(NoteError):
    """A PDF that gave no text: `skipped` when the file is fine but locked (a password), `failed` otherwise. The
    message is one sentence naming the problem and the fix, without the path (the caller puts it first)."""

    def __init__(self, message: str, kind: ProblemKind) -> None:
        super().__init__(message)
        self.kind: ProblemKind = kind


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    conn: Connection  # the parent's end of the pipe
    finalizer: weakref.finalize[[BaseProcess], PdfExtractor]  # kills the child if the extractor is dropped unclosed


class PdfExtractor:
    """Extracts PDFs' text in one child process, one file at a time; safe to share between threads (calls queue).

    Use it as a context manager, or call `close()`: that stops the child, and a closed extractor refuses to work.
    """

    def __init__(self, limits: PdfLimits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._closed = False
        self._warned_uncapped = False

    @property
    def worker_pid(self) -> int | None:
        """The child's process id, None while there is none (before the first call, after a failure or close)."""
        worker = self._worker
        return worker.process.pid if worker is not None else None

    def extract(self, path: Path) -> PdfText:
        """The text of the PDF at `path`, page by page; raises PdfProblem saying why a file gave none."""
        with self._lock:
            if self._closed:
                raise RuntimeError("this PdfExtractor is closed")
            worker = self._send(path)
            try:
                return self._receive_text(worker)
            except PdfProblem:
                raise
            except BaseException:
                # Interrupted mid-answer (KeyboardInterrupt, a bug here): the pipe is out of step, so the child goes.
                self._stop(worker, wait=0)
                raise

    def close(self) -> None:
        """Stop the child (waiting for a call in progress to end first); later calls raise RuntimeError."""
        with self._lock:
            self._closed = True
            worker = self._worker
            if worker is not None:
                with contextlib.suppress(OSError):  # already gone: _stop reaps it all the same
                    worker.conn.send(None)
                self._stop(worker, wait=_STOP_SECONDS)

    def __enter__(self) -> PdfExtractor:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def _send(self, path: Path) -> _Worker:
        """Hand the request to a live child; one that died while idle is replaced, so this file is not blamed."""
        request = (os.fspath(path), self.limits.max_pages, self.limits.max_chars_per_page)
        worker = self._worker
        if worker is not None and worker.process.is_alive():
            try:
                worker.conn.send(request)
                return worker
            except OSError:
                pass
        if worker is not None:
            self._stop(worker, wait=0)
        worker = self._start()
        try:
            worker.conn.send(request)
        except OSError as exc:
            self._stop(worker, wait=0)
            raise PdfProblem(messages.not_started(str(exc)), "failed") from None
        return worker

    def _receive_text(self, worker: _Worker) -> PdfText:
        limits = self.limits
        deadline = time.monotonic() + limits.max_seconds
        pages: list[str] = []
        states: list[PageState] = []
        while True:
            reply = self._receive(worker, deadline)
            match reply:
                case ("page", str() as text, str() as state) if state in _PAGE_STATES:
                    pages.append(text)
                    states.append(cast(PageState, state))  # checked against PageState just above
                case ("done", int() as page_count):
                    notice = messages.notice(states, page_count, limits.max_chars_per_page)
                    return PdfText(pages=tuple(pages), page_count=page_count, notice=notice)
                case ("refused", str() as code, str() as detail):
                    kind, message = messages.refusal(code, detail, limits.max_memory_mb)
                    if code in ("memory", "internal"):
                        # The child ends itself after these (its state is suspect); reap it now.
                        self._stop(worker, wait=_STOP_SECONDS)
                    raise PdfProblem(message, kind)
                case _:
                    self._stop(worker, wait=0)
                    kind, message = messages.refusal(
                        "internal", f"unexpected reply {reply!r:.80}", limits.max_memory_mb
                    )
                    raise PdfProblem(message, kind)

    def _receive(self, worker: _Worker, deadline: float) -> object:
        """The child's next reply; kills it and raises PdfProblem when the deadline passes or the child died."""
        remaining = deadline - time.monotonic()
        try:
            if remaining > 0 and worker.conn.poll(remaining):
                reply: object = worker.conn.recv()
                return reply
        except (EOFError, OSError):
            exitcode = self._stop(worker, wait=_STOP_SECONDS)
            raise PdfProblem(messages.crashed(exitcode, self.limits.max_memory_mb), "failed") from None
        self._stop(worker, wait=0)
        raise PdfProblem(messages.too_slow(self.limits.max_seconds), "failed")

    def _start(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        parent_end, child_end = context.Pipe(duplex=True)
        process = context.Process(
            target=serve, args=(child_end, self.limits.max_memory_mb), name="askvault-pdf", daemon=True
        )
        try:
            with _no_main_module():
                process.start()
        except (OSError, RuntimeError) as exc:
            parent_end.close()
            raise PdfProblem(messages.not_started(f"{type(exc).__name__}: {exc}"), "failed") from None
        finally:
            # The parent must not hold the child's end: only then does a dead child read as EOF.
            child_end.close()
        worker = _Worker(process, parent_end, weakref.finalize(self, _kill, process))
        self._worker = worker
        reply: object = None
        try:
            if parent_end.poll(_START_SECONDS):
                reply = parent_end.recv()
        except (EOFError, OSError):
            pass
        match reply:
            case ("ready", bool() as capped):
                if not capped and not self._warned_uncapped:
                    self._warned_uncapped = True
                    log.warning("PDFs are read without a memory cap: this platform does not support RLIMIT_AS")
                return worker
            case _:
                exitcode = self._stop(worker, wait=0)
                raise PdfProblem(messages.not_started(f"exit code {exitcode}"), "failed")

    def _stop(self, worker: _Worker, *, wait: float) -> int | None:
        """End the child (after `wait` seconds for it to end by itself) and forget it; returns its exit code."""
        if self._worker is worker:
            self._worker = None
        worker.finalizer.detach()
        process = worker.process
        if wait > 0:
            process.join(wait)
        if process.is_alive():
            process.kill()
            process.join()
        exitcode = process.exitcode
        worker.conn.close()
        process.close()
        return exitcode


@contextlib.contextmanager
def _no_main_module() -> Iterator[None]:
    """A "spawn" child imports its parent's main module again before it runs anything: a host whose main is heavy
    (a benchmark suite: 1.4 s and 194 MB instead of 0.06 s and 30 MB) or not a file at all (`python -` reading
    stdin: the child fails to start) would pay for it or break. The child needs nothing from it (its target is
    `pdf_worker.serve`, imported by name), so while it starts, the main module is a bare one with no file."""
    bare = types.ModuleType("__main__")
    bare.__spec__ = None
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = bare
    try:
        yield
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def _kill(process: BaseProcess) -> None:
    """A child outliving its extractor (dropped without close, or the interpreter exiting) is killed."""
    try:
        if process.is_alive():
            process.kill()
            process.join(_STOP_SECONDS)
    except ValueError:
        pass  # already closed
