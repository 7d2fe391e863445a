"""Which files of a vault are documents to index, and a PDF's pages as a `Note` whose sections are its pages (pure).

A PDF's text is not Markdown: a `#` or a ```` ``` ```` at the start of an extracted line is the page's, not a
heading or a fence, so a PDF is never run through the Markdown parser. Each page becomes one section under a
generated heading `Page N`, on lines of a synthetic text (the heading line, then the page's lines), so the chunker
cuts within pages and a chunk's `heading_path` names the page it starts on (`page_of`). The note is marked
`plain_text`, so the chunker cuts it by size alone, and `paged`, so it never joins two pages in one chunk. A canvas
is Markdown once `parse.canvas` has read its cards.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Literal

from askvault.model import Note, Section

DocumentKind = Literal["note", "pdf", "canvas", "text"]

SUFFIXES: dict[str, DocumentKind] = {".md": "note", ".pdf": "pdf", ".canvas": "canvas", ".txt": "text"}
"""What each indexed file type is (lower-case suffix); anything else in a vault is an attachment left alone."""

PAGE_HEADING = "Page {}"
_PAGE = re.compile(r"Page ([1-9][0-9]{0,6})")


def document_kind(path: str) -> DocumentKind | None:
    """The kind of file at this vault path, by its suffix (any case); None for a file that is not indexed."""
    return SUFFIXES.get(posixpath.splitext(path)[1].lower())


def document_title(path: str) -> str:
    """A note's title is its file name without `.md` (as Obsidian shows it); a PDF or canvas keeps its suffix, so
    `Report.pdf` and `Report.md` stay apart in a list of sources."""
    name = posixpath.basename(path)
    return (name[:-3] if name.lower().endswith(".md") else name) or path


def page_of(path: str, heading_path: Sequence[str]) -> int | None:
    """The page a chunk of a PDF starts on (1-based), read from the heading `pdf_note` gave it; None for a note."""
    if document_kind(path) != "pdf" or not heading_path:
        return None
    found = _PAGE.fullmatch(heading_path[0])
    return int(found.group(1)) if found else None


def pdf_note(path: str, pages: Sequence[str]) -> tuple[Note, list[str]]:
    """A PDF's extracted pages as a note (one section per page that has text) and the synthetic lines its
    sections are numbered by (the `source` the chunk stage's line maps read)."""
    lines: list[str] = []
    sections: list[Section] = []
    for number, page in enumerate(pages, start=1):
        body = [line.rstrip() for line in page.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
        while body and not body[-1]:
            body.pop()
        while body and not body[0]:
            body.pop(0)
        if not body:
            continue
        heading = PAGE_HEADING.format(number)
        start = len(lines) + 1
        lines.append(heading)
        lines.extend(body)
        sections.append(Section((heading,), 1, "\n".join([heading, *body]), start, len(lines)))
    note = Note(path=path, title=document_title(path), sections=tuple(sections), plain_text=True, paged=True)
    return note, lines
