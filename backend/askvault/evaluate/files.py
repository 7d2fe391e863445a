"""An evaluated file's text as the indexer reads it, so evidence and line numbers mean here what they mean there.

A chunk's `start_line`/`end_line` count the lines the indexer's chunk stage was given (`index.documents.Document`'s
`source`): a note's or a text file's own lines, a canvas's Markdown (`parse.canvas.canvas_markdown`), a PDF's
synthetic text of `Page N` headings and page lines (`parse.documents.pdf_note`). `EvalFiles` reads each file of the
vault that way, once per run: notes and text files by the parser's own decoding, as the evaluation always has;
canvases and PDFs through `index.documents.Documents`, the indexer's reader itself, with a PDF's pages extracted by
one `PdfExtractor` (a child process) started at the first PDF and stopped by `close()`. The question check, the
evidence lookup of the hits and the reference mode all read through it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

from askvault.config import VaultConfig
from askvault.errors import NoteError
from askvault.extract.pdf import DEFAULT_LIMITS, PdfExtractor, PdfLimits, PdfText
from askvault.index.documents import Documents
from askvault.index.roots import Roots
from askvault.parse.decode import decode_note
from askvault.parse.documents import SUFFIXES, DocumentKind, document_kind
from askvault.parse.links import LinkResolver

EVAL_SUFFIXES: tuple[str, ...] = tuple(SUFFIXES)
"""The suffixes an expected path may end in (any case): every file type the indexer reads."""


def is_eval_file(path: str) -> bool:
    """Whether a vault path names a file of a type the indexer reads (`.md`, `.pdf`, `.canvas`, `.txt`)."""
    return document_kind(path) is not None


class Page(NamedTuple):
    """One PDF page that has text, on `FileText.lines[start_line - 1 : end_line]` (its heading line first)."""

    heading: str
    """`Page N`, the page's heading in the index (a chunk's `heading_path[0]`)."""
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class FileText:
    """A file as the indexer sees it: the lines its chunks' line numbers count and, for a PDF, its pages."""

    kind: DocumentKind | None
    lines: tuple[str, ...]
    pages: tuple[Page, ...] = ()
    """A PDF's pages with text, in order; () for every other kind."""

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class _LazyExtractor:
    """A `PdfExtractor` started at the first PDF (a vault without PDFs never starts the child process)."""

    def __init__(self, limits: PdfLimits) -> None:
        self._limits = limits
        self._extractor: PdfExtractor | None = None
        self._closed = False

    def extract(self, path: Path) -> PdfText:
        if self._closed:
            raise RuntimeError("these EvalFiles are closed; they read no more PDFs")
        if self._extractor is None:
            self._extractor = PdfExtractor(self._limits)
        return self._extractor.extract(path)

    def close(self) -> None:
        self._closed = True
        if self._extractor is not None:
            self._extractor.close()


class EvalFiles:
    """Reads the vault's files as the indexer does, each once (its text or why it cannot be read is kept).

    Safe to share between threads. Use it as a context manager, or call `close()`: that stops the PDF extractor,
    after which reading a PDF not read before raises RuntimeError.
    """

    def __init__(self, vault: Path, limits: PdfLimits = DEFAULT_LIMITS) -> None:
        self._vault = vault
        self._pdfs = _LazyExtractor(limits)
        self._lock = threading.Lock()
        self._cache: dict[str, FileText | NoteError] = {}
        self._reader: tuple[Roots, Documents] | None = None

    @property
    def vault(self) -> Path:
        return self._vault

    def read(self, path: str) -> FileText:
        """The file at this vault-relative path; NoteError saying why it cannot be read (gone, not UTF-8, a PDF
        that gives no text...)."""
        with self._lock:
            if path not in self._cache:
                try:
                    self._cache[path] = self._read(path)
                except NoteError as exc:
                    self._cache[path] = exc
                except OSError as exc:
                    self._cache[path] = NoteError(f"cannot be read: {exc.strerror or exc}")
            got = self._cache[path]
        if isinstance(got, NoteError):
            raise got
        return got

    def lines(self, path: str) -> tuple[str, ...] | None:
        """The file's lines (`read`), None when it cannot be read."""
        try:
            return self.read(path).lines
        except NoteError:
            return None

    def _read(self, path: str) -> FileText:
        kind = document_kind(path)
        if kind in ("note", "text", None):
            # The parser's own decoding (BOM dropped, line ends to LF), exactly what the indexer numbers a note by.
            return FileText(kind, tuple(decode_note((self._vault / path).read_bytes()).split("\n")))
        roots, documents = self._documents()
        document = documents.read(roots, path, documents.load(roots, path), LinkResolver(()))
        pages = tuple(
            Page(section.heading_path[0], section.start_line, section.end_line)
            for section in document.note.sections
            if kind == "pdf" and section.heading_path
        )
        return FileText(kind, tuple(document.source), pages)

    def _documents(self) -> tuple[Roots, Documents]:
        if self._reader is None:
            config = VaultConfig(root=self._vault)
            self._reader = Roots(config), Documents(config, self._pdfs)
        return self._reader

    def close(self) -> None:
        """Stops the PDF extractor, if one was started; files already read stay readable."""
        with self._lock:
            self._pdfs.close()

    def __enter__(self) -> EvalFiles:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
