"""Reading the aliases back from the header `meta_line` writes under a chunk's title."""

from __future__ import annotations

import pytest

from askvault.chunk.ids import head_lines
from askvault.chunk.notes import header_aliases

# (id, title, heading trail, meta line, aliases read back)
CASES: list[tuple[str, str, tuple[str, ...], str, tuple[str, ...]]] = [
    ("aliases-and-tags", "Home Assistant", ("Ports",), "Aliases: HA · Tags: #homelab", ("HA",)),
    ("two-aliases", "Home Assistant", (), "Aliases: HA, hass", ("HA", "hass")),
    ("aliases-only", "Forgetting curve", (), "Aliases: Ebbinghaus", ("Ebbinghaus",)),
    ("tags-only", "Kodi", (), "Tags: #kodi", ()),
    ("a-heading-that-looks-like-a-header", "Kodi", ("Aliases: not a header line",), "", ()),
    ("title-only", "Kodi", (), "", ()),
]


@pytest.mark.parametrize(("title", "trail", "meta", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_header_aliases(title: str, trail: tuple[str, ...], meta: str, expected: tuple[str, ...]) -> None:
    index_text = head_lines(title, trail, meta) + "\n\nbody"
    assert header_aliases(index_text, trail) == expected
