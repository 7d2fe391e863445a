"""Chunks of notes read as plain text: they cover all text, cite the right lines and stay under the caps."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note
from askvault.chunk.units import is_plain, pack, plain_units, section_units, unit_maker
from askvault.config import ChunkParams
from askvault.model import Chunk, Note, Section
from askvault.parse import plain
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Big.md"])
LIMIT = plain.PLAIN_TEXT_LINES
PARAMS = ChunkParams()


def chunks_of(source: str, params: ChunkParams = PARAMS) -> tuple[Note, list[Chunk]]:
    note = parse_note("Big.md", source, RESOLVER)
    return note, chunk_note(note, params)


def cited_lines(chunks: list[Chunk], source: str) -> None:
    """Every line of each chunk's text is, verbatim, a line of the source inside the chunk's cited range."""
    lines = source.split("\n")
    for chunk in chunks:
        window = lines[chunk.start_line - 1 : chunk.end_line]
        for line in chunk.text.split("\n"):
            assert any(line in source_line for source_line in window), (line, chunk.start_line, chunk.end_line)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("l\n" * LIMIT, False, id="below"),
        pytest.param("l\n" * (LIMIT + 1), True, id="above"),
        pytest.param("- x\n" * (LIMIT // plain.MARKED_LINE_WEIGHT + 1), True, id="weighted-above"),
    ],
)
def test_plain_path_follows_parse(source: str, expected: bool) -> None:
    note = parse_note("Big.md", source, RESOLVER)
    assert is_plain(note) is expected
    assert unit_maker(note) is (plain_units if expected else section_units)


def test_a_note_that_reached_the_chunker_unparsed_is_plain_by_its_length() -> None:
    section = Section((), 0, "x\n" * LIMIT + "x", 1, LIMIT + 1)
    assert is_plain(Note("Big.md", "Big", sections=(section,)))
    assert not is_plain(Note("Big.md", "Big", sections=(Section((), 0, "x", 1, 1),)))


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("".join(f"line {i}\n" for i in range(LIMIT + 100)), id="short-lines"),
        pytest.param("".join(f"w{i} " * (i % 7) + "\n" for i in range(LIMIT + 100)), id="ragged-and-blank-lines"),
        pytest.param("intro\n" + "x" * 10_000 + "\n" + "y\n" * (LIMIT + 1), id="one-line-longer-than-a-chunk"),
        pytest.param("".join(f"# H{i}\n" + f"text {i}\n" * 40 for i in range(600)), id="headings"),
        pytest.param("\n\n\n" + "p\n\n" * (LIMIT // 2 + 10) + "\n\n", id="blank-lines-around"),
    ],
)
def test_plain_chunks_cover_the_text_at_the_right_lines(source: str) -> None:
    note, chunks = chunks_of(source)
    assert is_plain(note)
    cited_lines(chunks, source)
    assert all(len(chunk.index_text) <= PARAMS.hard_cap_chars for chunk in chunks)
    assert all(len(chunk.text) <= PARAMS.max_chars for chunk in chunks)
    text = "".join(word for line in source.split("\n") if not line.startswith("#") for word in line.split())
    assert "".join(word for chunk in chunks for word in chunk.text.split()) == text  # all text, in order, once
    assert len({chunk.id for chunk in chunks}) == len(chunks)


def test_plain_chunks_keep_the_heading_trail() -> None:
    source = "".join(f"# Part {i}\n" + "".join(f"line {i}.{j}\n" for j in range(100)) for i in range(LIMIT // 100))
    note, chunks = chunks_of(source)
    assert is_plain(note)
    assert {chunk.heading_path for chunk in chunks} == {(f"Part {i}",) for i in range(LIMIT // 100)}
    first = next(chunk for chunk in chunks if chunk.heading_path == ("Part 3",))
    assert first.start_line == 3 * 101 + 1  # the heading line
    assert first.text.startswith("line 3.0")


@pytest.mark.parametrize(
    ("text", "first", "expected"),
    [
        pytest.param("a\nb\nc", 10, [("a\nb\nc", 10, 12)], id="fits-whole"),
        pytest.param("\n\na\nb", 10, [("a\nb", 12, 13)], id="leading-blank-lines-skipped"),
        pytest.param("aaaa\nbbbb\ncccc", 1, [("aaaa\nbbbb", 1, 2), ("cccc", 3, 3)], id="cut-between-lines"),
        pytest.param("aaaa\n\n\nbbbb", 1, [("aaaa", 1, 1), ("bbbb", 4, 4)], id="blank-piece-dropped"),
        pytest.param("ab cd ef gh ij\nz", 5, [("ab cd ef", 5, 5), ("gh ij", 5, 5), ("z", 6, 6)], id="long-line"),
    ],
)
def test_plain_pieces(text: str, first: int, expected: list[tuple[str, int, int]]) -> None:
    section = Section((), 0, text, first, first + text.count("\n"))
    units = plain_units(section, 0)
    pieces = [unit for piece in pack(units, 10) for unit in piece]
    assert [(u.text, u.first, u.last) for u in pieces] == expected
