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


RUNNING_LINES = 2
"""Lines at each end of a page that may be a running header or footer (a journal's name, `Page 3 of 40`)."""
RUNNING_MIN_PAGES = 3
RUNNING_MAX_CHARS = 120
"""A longer line is text, however often it repeats."""
_DIGITS = re.compile(r"\d+")


def _running_key(line: str) -> str:
    """A header or footer line as it repeats from page to page: numbers, case and spacing aside."""
    return " ".join(_DIGITS.sub("0", line).casefold().split())


def _trimmed(page: str) -> list[str]:
    body = [line.rstrip() for line in page.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while body and not body[-1]:
        body.pop()
    while body and not body[0]:
        body.pop(0)
    return body


def _ends(body: Sequence[str]) -> set[int]:
    """The places of the first and last RUNNING_LINES non-blank lines of a page."""
    filled = [n for n, line in enumerate(body) if line.strip()]
    return {*filled[:RUNNING_LINES], *filled[-RUNNING_LINES:]}


def running_lines(pages: Sequence[Sequence[str]]) -> frozenset[str]:
    """The keys of the lines a PDF repeats at the top or bottom of at least half its pages (never fewer than
    RUNNING_MIN_PAGES): its running headers, footers and page numbers. They say nothing of the page, and a chunk of
    one would be matched by every question about the document. Lines longer than RUNNING_MAX_CHARS never count."""
    held: dict[str, int] = {}
    for body in pages:
        for key in {_running_key(body[n]) for n in _ends(body) if len(body[n].strip()) <= RUNNING_MAX_CHARS}:
            held[key] = held.get(key, 0) + 1
    floor = max(RUNNING_MIN_PAGES, (len(pages) + 1) // 2)
    return frozenset(key for key, count in held.items() if count >= floor and key)


def pdf_note(path: str, pages: Sequence[str]) -> tuple[Note, list[str]]:
    """A PDF's extracted pages as a note (one section per page that has text) and the synthetic lines its
    sections are numbered by (the `source` the chunk stage's line maps read). Running headers and footers
    (`running_lines`) are left out of both."""
    bodies = [_trimmed(page) for page in pages]
    running = running_lines(bodies)
    lines: list[str] = []
    sections: list[Section] = []
    for number, whole in enumerate(bodies, start=1):
        ends = _ends(whole)
        kept = "\n".join(line for n, line in enumerate(whole) if n not in ends or _running_key(line) not in running)
        # A page of nothing but such lines keeps them: a slide of one line, a chapter page, is still a page.
        body = _trimmed(kept) if kept.strip() else whole
        if not body:
            continue
        heading = PAGE_HEADING.format(number)
        start = len(lines) + 1
        lines.append(heading)
        lines.extend(body)
        sections.append(Section((heading,), 1, "\n".join([heading, *body]), start, len(lines)))
    note = Note(path=path, title=document_title(path), sections=tuple(sections), plain_text=True, paged=True)
    return note, lines
