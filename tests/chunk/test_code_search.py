"""The chunker skips markdown-it on sections that cannot hold code; that skip never changes which lines are code."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askvault.chunk.units import _code_blocks, _may_hold_code

# Everything that makes structure except a tab, four spaces in a row, or a fence: lists, quotes, HTML, tables.
PIECES = ["", " ", "  ", "   ", "-", "- ", "* ", "1. ", "> ", ">", "#", "x", "text", "<div>", "|", "---", "``", "~~"]


@pytest.mark.parametrize(
    ("text", "may"),
    [
        pytest.param("plain\n\n- list\n  - nested\n> quote", False, id="no-code-possible"),
        pytest.param("para\n\n    indented", True, id="four-spaces"),
        pytest.param("para\n\n\tindented", True, id="tab"),
        pytest.param("```\ncode\n```", True, id="backtick-fence"),
        pytest.param("~~~\ncode", True, id="tilde-fence"),
        pytest.param(">     quoted code", True, id="quoted-code"),
        pytest.param("-     item code", True, id="list-item-code"),
    ],
)
def test_may_hold_code(text: str, may: bool) -> None:
    assert _may_hold_code(text) is may
    if not may:
        assert _code_blocks(text.split("\n")) == {}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=6).map("".join), min_size=1, max_size=30))
def test_text_that_cannot_hold_code_has_none(lines: list[str]) -> None:
    text = "\n".join(lines)
    if not _may_hold_code(text):
        assert _code_blocks(lines) == {}
