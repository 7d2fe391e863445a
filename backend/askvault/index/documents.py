"""Reading one indexed file into a `Note`: Markdown as written, a canvas by its cards, a PDF page by page."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from askvault.config import VaultConfig
from askvault.errors import NoteError
from askvault.extract.pdf import PdfText
from askvault.index.roots import Roots
from askvault.model import Note
from askvault.parse.canvas import canvas_markdown
from askvault.parse.decode import decode_note, normalize_newlines
from askvault.parse.documents import document_kind, pdf_note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note


class PdfReader(Protocol):
    """Extracts a PDF's text page by page (`extract.pdf.PdfExtractor`, in a process of its own)."""

    def extract(self, path: Path) -> PdfText: ...


@dataclass(frozen=True, slots=True)
class Loaded:
    """A file's content hash (what its fingerprint is made of) and, for text files, its bytes. A PDF is hashed
    from disk in pieces and never held whole: the extracting process reads it itself."""

    digest: str
    data: bytes | None


@dataclass(frozen=True, slots=True)
class Document:
    """A file read as a note, and the lines its sections' line numbers count (the chunk stage's `source`)."""

    note: Note
    source: list[str]


class Documents:
    """Reads the vault's notes, canvases and PDFs; without a `PdfReader` a PDF is reported, never read."""

    def __init__(self, vault: VaultConfig, pdfs: PdfReader | None) -> None:
        self._vault = vault
        self._pdfs = pdfs

    def load(self, roots: Roots, path: str) -> Loaded:
        """The file's hash and (for notes and canvases) bytes; OSError or NoteError when it cannot be read."""
        if document_kind(path) != "pdf":
            data = roots.read_bytes(path)
            return Loaded(hashlib.sha256(data).hexdigest(), data)
        with open(roots.real_path(path), "rb") as handle:
            return Loaded(hashlib.file_digest(handle, "sha256").hexdigest(), None)

    def read(self, roots: Roots, path: str, loaded: Loaded, resolver: LinkResolver) -> Document:
        """The file at this index path (`Docs:x.pdf` beside the vault) as a note; NoteError (a subclass naming what
        is wrong) when it cannot be."""
        kind = document_kind(path)
        if kind == "pdf":
            return self._pdf(roots, path)
        text = decode_note(loaded.data or b"")
        if kind == "canvas":
            text = canvas_markdown(text)
        note = parse_note(path, text, resolver, self._vault.opt_out_key)
        return Document(note, normalize_newlines(text.removeprefix("\ufeff")).split("\n"))

    def _pdf(self, roots: Roots, path: str) -> Document:
        if self._pdfs is None:
            raise NoteError("is a PDF, and PDFs are switched off (pdfs = false)")
        extracted = self._pdfs.extract(Path(roots.real_path(path)))
        note, source = pdf_note(path, extracted.pages)
        if extracted.notice:
            note = replace(note, notices=(extracted.notice,))
        return Document(note, source)
