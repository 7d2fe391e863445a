"""Which files are indexed, and a PDF's pages as a note of page sections (pure)."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.parse.documents import document_kind, document_title, page_of, pdf_note


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("Note.md", "note"),
        ("Papers/Attention.pdf", "pdf"),
        ("SCAN.PDF", "pdf"),
        ("Boards/Plan.canvas", "canvas"),
        ("image.png", None),
        ("notes.md.bak", None),
        ("pdf", None),
    ],
)
def test_document_kind_by_suffix(path: str, kind: str | None) -> None:
    assert document_kind(path) == kind


@pytest.mark.parametrize(
    ("path", "title"),
    [("A/Note.md", "Note"), ("A/Paper.pdf", "Paper.pdf"), ("Board.canvas", "Board.canvas"), (".md", ".md")],
)
def test_a_pdf_or_canvas_keeps_its_suffix_in_its_title(path: str, title: str) -> None:
    assert document_title(path) == title


@pytest.mark.parametrize(
    ("path", "trail", "page"),
    [
        ("a.pdf", ("Page 3",), 3),
        ("a.PDF", ("Page 12",), 12),
        ("a.md", ("Page 3",), None),  # a note's own heading "Page 3" is no page
        ("a.pdf", (), None),
        ("a.pdf", ("Page 0",), None),
        ("a.pdf", ("Page three",), None),
    ],
)
def test_page_of_reads_the_generated_heading_of_a_pdf_only(path: str, trail: tuple[str, ...], page: int | None) -> None:
    assert page_of(path, trail) == page


def test_each_page_with_text_is_a_section_on_lines_of_its_own() -> None:
    note, lines = pdf_note(
        "Docs/Manual.pdf", ["\n\nFirst page\r\nsecond line\n\n", "", "   \n", "# not a heading\n```"]
    )
    assert note.title == "Manual.pdf"
    assert note.plain_text
    assert [s.heading_path for s in note.sections] == [("Page 1",), ("Page 4",)]
    assert lines == ["Page 1", "First page", "second line", "Page 4", "# not a heading", "```"]
    for section in note.sections:
        # The parse contract: one text line per source line from start_line to end_line.
        assert section.text.split("\n") == lines[section.start_line - 1 : section.end_line]


def test_chunks_of_a_pdf_start_on_their_page_and_never_read_markdown_into_it() -> None:
    pages = [
        f"Page {n} text. " + f"word{n} " * 300 + ("\n```\nnot code\nstill page two" if n == 2 else "")
        for n in range(1, 4)
    ]
    note, _ = pdf_note("Manual.pdf", pages)
    chunks = chunk_note(note, ChunkParams())
    assert {page_of(c.path, c.heading_path) for c in chunks} == {1, 2, 3}
    assert all(c.text.strip() for c in chunks)
    first_of_page = {page_of(c.path, c.heading_path): c for c in reversed(chunks)}
    assert first_of_page[2].text.lstrip().startswith("Page 2 text.")


def test_a_pdf_without_text_is_a_note_without_sections() -> None:
    note, lines = pdf_note("Scan.pdf", ["", " \n "])
    assert note.sections == ()
    assert lines == []
    assert [c.text for c in chunk_note(note, ChunkParams())] == ["Scan.pdf"]  # still found by its name


HEADER = "Journal of Tidy Examples · Vol. 3"
WORDS = ["apple", "birch", "cedar", "daisy", "elm"]


@pytest.mark.parametrize(
    ("pages", "kept"),
    [
        # A running header and a page number on every page: left out, the text of each page kept.
        (
            [f"{HEADER}\nWhat page {w} says.\n{n}" for n, w in enumerate(WORDS, start=1)],
            [f"What page {w} says." for w in WORDS],
        ),
        # `Page 3 of 40` with the numbers changing is one footer.
        (
            [f"Body {w}\nPage {n} of 40" for n, w in enumerate(["one", "two", "three", "four"], start=1)],
            ["Body one", "Body two", "Body three", "Body four"],
        ),
        # On fewer than half the pages (2 of 5), or in two pages only: kept.
        (
            [f"{HEADER}\nA", f"{HEADER}\nB", "C", "D", "E"],
            [f"{HEADER}\nA", f"{HEADER}\nB", "C", "D", "E"],
        ),
        ([f"{HEADER}\nA", f"{HEADER}\nB"], [f"{HEADER}\nA", f"{HEADER}\nB"]),
        # A line repeated in the middle of pages is the pages' text, not a header; so is a long one at an end.
        (
            [f"{w} begins\n{w} here\n{w} too\nSee the warranty.\n{w} and\n{w} so\n{w} ends" for w in WORDS[:3]],
            [f"{w} begins\n{w} here\n{w} too\nSee the warranty.\n{w} and\n{w} so\n{w} ends" for w in WORDS[:3]],
        ),
        (
            [f"{'A long opening line. ' * 7}\n{w}" for w in WORDS[:4]],
            [f"{('A long opening line. ' * 7).rstrip()}\n{w}" for w in WORDS[:4]],
        ),
        # A page of nothing but such lines keeps them (a slide of one line, a chapter's title page).
        (
            [f"{HEADER}\nText {w}\n{n}" for n, w in enumerate(WORDS[:3], start=1)] + [f"{HEADER}\n\n4"],
            [*(f"Text {w}" for w in WORDS[:3]), f"{HEADER}\n\n4"],
        ),
        ([f"Chapter {n} of the handbook" for n in range(1, 6)], [f"Chapter {n} of the handbook" for n in range(1, 6)]),
    ],
)
def test_running_headers_and_footers_are_left_out(pages: list[str], kept: list[str]) -> None:
    note, _ = pdf_note("Paper.pdf", pages)
    assert [s.text.split("\n", 1)[1] for s in note.sections] == kept
