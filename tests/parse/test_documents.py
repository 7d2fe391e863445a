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
    pages = [f"Page {n} text. " + "word " * 300 + "\n```\nnot code" for n in range(1, 4)]
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
