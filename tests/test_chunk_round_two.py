"""chunk_note's round-two switches: alias header, note-level chunk, boilerplate lines kept out of index text."""

from __future__ import annotations

import pytest

from askvault.chunk import boilerplate_candidates, chunk_note, note_outline
from askvault.config import ChunkParams
from askvault.model import Note, Section
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Homelab/Home Assistant.md", "Home.md", "Index.md"])
PARAMS = ChunkParams(max_chars=300, min_chars=60, hard_cap_chars=800)
FRONT = "---\naliases: [HA, Hass]\ntags: [homelab]\n---\n"
BODY = "# Setup\n" + " ".join(f"word{i}" for i in range(20)) + "\n"
FOOTER = "\n[[Home]] · [[Index]]\n"


def parse(source: str, path: str = "Homelab/Home Assistant.md") -> Note:
    return parse_note(path, source, RESOLVER)


@pytest.mark.parametrize(
    ("source", "header", "second_line"),
    [
        (FRONT + BODY, True, "Aliases: HA, Hass · Tags: #homelab"),
        ("---\ntags: [homelab]\n---\n" + BODY, True, "Tags: #homelab"),
        (BODY, True, "Setup"),
        (FRONT + BODY, False, "Setup"),
    ],
    ids=["aliases-and-tags", "tags-only", "neither", "off"],
)
def test_alias_header(source: str, header: bool, second_line: str) -> None:
    params = ChunkParams(max_chars=300, min_chars=60, hard_cap_chars=800, alias_header=header, tag_header=header)
    (chunk,) = chunk_note(parse(source), params)
    assert chunk.index_text.split("\n")[:2] == ["Home Assistant", second_line]
    assert "Aliases" not in chunk.text


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (FRONT + BODY, "Home Assistant\nAliases: HA, Hass\nTags: #homelab\nHeadings: Setup"),
        (
            "# A\nsee [[Home]] and [[Index|the index]]\n## B\n| Port | Host |\n| --- | --- |\n| 1 | x |\n",
            "Home Assistant\nHeadings: A; B\nTable columns: Port, Host\nLinks: Home, Index",
        ),
        ("plain text only\n", "Home Assistant"),
    ],
    ids=["metadata-and-outline", "tables-and-links", "bare"],
)
def test_note_outline(source: str, expected: str) -> None:
    assert note_outline(parse(source)) == expected


def test_note_chunk_comes_first_with_its_own_id_and_line_one() -> None:
    note = parse(FRONT + BODY)
    plain = chunk_note(note, PARAMS)
    with_outline = chunk_note(note, ChunkParams(max_chars=300, min_chars=60, hard_cap_chars=800, note_chunk=True))
    assert with_outline[1:] == plain
    outline = with_outline[0]
    assert outline.text == outline.index_text == note_outline(note)
    assert (outline.start_line, outline.end_line, outline.heading_path) == (1, 1, ())
    assert outline.id not in {c.id for c in plain}
    assert outline.tags == ("homelab",)


def test_note_without_text_gets_no_second_outline() -> None:
    params = ChunkParams(note_chunk=True)
    assert len(chunk_note(Note("a.md", "Empty", aliases=("E",)), params)) == 1


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "intro line here\n\n```\ncode line here\n```\n| Col | B |\n| - | - |\n| row value | 1 |\n",
            {"intro line here"},
        ),
        ("# A heading long enough\nshort\n" + FOOTER, {"Home · Index"}),
        ("  spaced    out   words  \n", {"spaced out words"}),
    ],
    ids=["prose-only", "no-headings-or-short-lines", "whitespace-normalised"],
)
def test_boilerplate_candidates(source: str, expected: set[str]) -> None:
    assert boilerplate_candidates(parse(source)) == expected


@pytest.mark.parametrize(
    ("source", "boilerplate", "chunk_texts"),
    [
        (BODY + FOOTER, frozenset({"Home · Index"}), [" ".join(f"word{i}" for i in range(20))]),
        (BODY + FOOTER, frozenset(), [" ".join(f"word{i}" for i in range(20)) + "\n\nHome · Index"]),
        ("Home · Index\n", frozenset({"Home · Index"}), ["Home Assistant"]),
    ],
    ids=["footer-dropped", "no-set-no-change", "all-boilerplate-still-findable-by-name"],
)
def test_boilerplate_lines_leave_index_text(source: str, boilerplate: frozenset[str], chunk_texts: list[str]) -> None:
    chunks = chunk_note(parse(source), PARAMS, boilerplate=boilerplate)
    assert [c.text for c in chunks] == chunk_texts
    assert all("Home · Index" not in c.index_text for c in chunks) == bool(boilerplate)


@pytest.mark.parametrize(
    ("title", "aliases", "tags", "line"),
    [
        (
            "Kodi workflow",
            ("Kodi cleanup", "Kodi housekeeping"),
            ("kodi", "n8n"),
            "Aliases: cleanup, housekeeping · Tags: #n8n",
        ),
        ("Home Assistant", ("HA",), ("homelab",), "Aliases: HA · Tags: #homelab"),
        ("Forgetting curve", ("forgetting curve",), (), ""),
        ("Net", (), ("homelab", "homelab/network", "network"), "Tags: #homelab #homelab/network"),
    ],
    ids=["title-words-dropped", "all-new", "alias-only-repeats-title", "tag-repeats-earlier-tag"],
)
def test_header_new_words_only(title: str, aliases: tuple[str, ...], tags: tuple[str, ...], line: str) -> None:
    note = Note("a.md", title, aliases=aliases, tags=tags, sections=(Section(("H",), 1, "H\n" + "x " * 40, 1, 2),))
    params = ChunkParams(alias_header=True, tag_header=True, header_new_words_only=True)
    (chunk,) = chunk_note(note, params)
    expected = [title, line, "H"] if line else [title, "H"]
    assert chunk.index_text.split("\n")[:-1] == expected


@pytest.mark.parametrize(
    ("first_only", "headers"),
    [(False, ["Aliases: HA, Hass · Tags: #homelab"] * 2), (True, ["Aliases: HA, Hass · Tags: #homelab", "Part two"])],
    ids=["every-chunk", "first-chunk-only"],
)
def test_header_first_chunk_only(first_only: bool, headers: list[str]) -> None:
    source = FRONT + BODY + "# Part two\n" + " ".join(f"other{i}" for i in range(20)) + "\n"
    params = ChunkParams(
        max_chars=300, min_chars=60, alias_header=True, tag_header=True, header_first_chunk_only=first_only
    )
    chunks = chunk_note(parse(source), params)
    assert [c.index_text.split("\n")[1] for c in chunks] == headers
