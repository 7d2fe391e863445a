"""The alias/tag header under every chunk's title in its index text, and the chunking parameters' fingerprint."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note, params_key
from askvault.config import ChunkParams
from askvault.model import Note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Homelab/Home Assistant.md", "Home.md", "Index.md"])
FRONT = "---\naliases: [HA, Hass]\ntags: [homelab]\n---\n"
BODY = "# Setup\n" + " ".join(f"word{i}" for i in range(20)) + "\n"


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


def test_the_header_is_on_every_chunk_of_the_note() -> None:
    source = FRONT + BODY + "# Part two\n" + " ".join(f"other{i}" for i in range(20)) + "\n"
    chunks = chunk_note(parse(source), ChunkParams(max_chars=300, min_chars=60))
    assert [c.index_text.split("\n")[1] for c in chunks] == ["Aliases: HA, Hass · Tags: #homelab"] * 2


@pytest.mark.parametrize(
    ("params", "key"),
    [
        (
            ChunkParams(),
            "ChunkParams(max_chars=1500, min_chars=150, hard_cap_chars=4000, overlap=True, alias_header=True, "
            "tag_header=True, header_new_words_only=False, header_first_chunk_only=False, note_chunk=False, "
            "boilerplate_min_notes=0)",
        ),
        (
            ChunkParams(max_chars=300, tag_header=False),
            "ChunkParams(max_chars=300, min_chars=150, hard_cap_chars=4000, overlap=True, alias_header=True, "
            "tag_header=False, header_new_words_only=False, header_first_chunk_only=False, note_chunk=False, "
            "boilerplate_min_notes=0)",
        ),
    ],
    ids=["defaults", "changed"],
)
def test_params_key_reads_as_before_the_switches_were_removed(params: ChunkParams, key: str) -> None:
    # Each note's fingerprint holds this key: an index built with the defaults before stays valid (no re-index).
    assert params_key(params) == key
