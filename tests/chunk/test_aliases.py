"""Every chunk carries its note's frontmatter aliases as a field, beside the alias header in its index text."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

FRONT = "---\naliases: [HA, 'Home, Assistant']\ntags: [homelab]\n---\n"
LONG = "\n\n".join(f"## Part {i}\n\n" + " ".join(f"word{i}x{j}" for j in range(40)) for i in range(3))

# (id, note text, chunk switches, the second line of every chunk's index text)
CASES: list[tuple[str, str, ChunkParams, str]] = [
    ("sections", FRONT + "# Home Assistant\n\n" + LONG, ChunkParams(), "Aliases: HA, Home, Assistant · Tags: #homelab"),
    ("no-text", FRONT, ChunkParams(), "Aliases: HA, Home, Assistant"),
    ("header-off", FRONT + LONG, ChunkParams(alias_header=False, tag_header=False), "Part 0"),
]


@pytest.mark.parametrize(("source", "params", "second_line"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_chunk_has_the_aliases_as_written(source: str, params: ChunkParams, second_line: str) -> None:
    chunks = chunk_note(parse_note("Home Assistant.md", source, LinkResolver([])), params)

    assert chunks
    assert {chunk.aliases for chunk in chunks} == {("HA", "Home, Assistant")}  # one alias, though it holds ", "
    assert chunks[0].index_text.split("\n")[1] == second_line  # the index text is what it was


def test_a_note_without_aliases_has_none() -> None:
    chunks = chunk_note(parse_note("Kodi.md", "# Kodi\n\nThe media box.\n", LinkResolver([])), ChunkParams())

    assert [chunk.aliases for chunk in chunks] == [()]
