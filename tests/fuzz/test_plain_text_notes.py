"""The largest notes the indexer reads (4 MiB) go through decode → parse → chunk → tokenize as plain text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askvault.parse.plain import PLAIN_TEXT_NOTICE
from askvault.store.text.tokenize import _COMPOUND, Tokenizer
from reliability.pathological import GENERATORS, through_pipeline

pytestmark = pytest.mark.slow


@pytest.mark.timeout(60)
def test_a_note_of_two_million_lines_is_chunked() -> None:
    data = GENERATORS["lines-2m-at-cap"]()
    assert data.count(b"\n") > 2_000_000
    outcome = through_pipeline("lines-2m-at-cap", data)
    assert outcome.refused is None
    assert outcome.chunks > 2_000  # ~4 MiB in chunks of at most 1,500 characters
    assert outcome.terms >= 2 * 1024 * 1024 - 1  # every `l` (plus each chunk's title line)
    assert [w for w in outcome.warnings if w.startswith(f"{PLAIN_TEXT_NOTICE} (2097151 lines)")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aAbZz09_-.:/@'’,;!?()[]#` \n\tÄßİϒǅＡ²")), max_size=40))
def test_tokenizer_shortcuts_match_the_full_rules(text: str) -> None:
    tokenizer = Tokenizer()
    for piece in unicodedata.normalize("NFKC", text).replace("’", "'").split():
        slow: list[str] = []
        for raw in _COMPOUND.findall(piece):
            tokenizer._add_raw(raw, slow)
        assert tokenizer.tokenize(piece) == slow
