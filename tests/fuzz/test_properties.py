"""Property-based tests (hypothesis): Markdown-ish noise never breaks decode, parse, chunk or tokenize contracts."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.errors import NoteError
from askvault.model import Note
from askvault.parse.decode import decode_note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.store.text.tokenize import Tokenizer

pytestmark = pytest.mark.slow

FRAGMENTS = [
    "#", "## ", "###### ", "\n", "\n\n", "- ", "* ", "+ ", "1. ", "> ", "> [!note] ", "> [!tip]- ", "```", "~~~",
    "```python\n", "    ", "\t", "[[", "]]", "![[", "|", "#tag", "#", "[", "](", ")", "![", "<", ">", "`", "``",
    "%%", "<!--", "-->", "---", "***", "===", "^block-id", "$$", "==", "**", "__", "_", "~~", "\r", "\r\n",
    "\ufeff", "\u200b", "\u202e", "é", "e\u0301", "Café", "note", "Note", "http://x.example/a?b=c", "[^1]",
    "| a | b |\n|---|---|\n", "<div>", "</div>", "\\", "&amp;", "{", "}", ":", "title: ", "tags: [a, b]",
]  # fmt: skip
YAML_FRAGMENTS = [
    "key: ", "value", "tags: ", "aliases: ", "title: ", "askvault: ", "false", "[", "]", "{", "}", "&a ", "*a",
    "- ", ":", "!!python/object:x ", "!!binary ", "'", '"', "\n", "  ", ".nan", "1e999", "2024-02-30", "? ",
    "|", ">", "#",
]  # fmt: skip
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

markdownish = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=80).map("".join)
frontmatterish = st.builds(
    lambda yaml, body: f"---\n{yaml}\n---\n{body}",
    st.lists(st.sampled_from(YAML_FRAGMENTS), max_size=40).map("".join),
    markdownish,
)
TOKENIZER = Tokenizer()
PARAMS = ChunkParams(max_chars=300, min_chars=40, hard_cap_chars=800)


def _parse(text: str) -> Note:
    path = "Fuzz/Note.md"
    return parse_note(path, text, LinkResolver({path, "Fuzz/note.md", "Other/Café.md", "Other/Cafe\u0301.md"}))


def _check_note(text: str) -> None:
    note = _parse(text)
    assert not [w for w in note.warnings if "internal parser error" in w], note.warnings
    lines = decode_note(text.encode("utf-8")).count("\n") + 1
    for section in note.sections:
        # The parse contract the chunker and citations rely on: one text line per source line.
        assert len(section.text.split("\n")) == section.end_line - section.start_line + 1
        assert 1 <= section.start_line <= section.end_line
        assert section.end_line <= lines
    chunks = chunk_note(note, PARAMS)
    assert chunks
    assert len({c.id for c in chunks}) == len(chunks)
    for chunk in chunks:
        assert len(chunk.index_text) <= PARAMS.hard_cap_chars
        assert 1 <= chunk.start_line <= chunk.end_line
        assert chunk.end_line <= lines
        for term in TOKENIZER.tokenize(chunk.index_text):
            assert term
            assert not any(ch.isspace() for ch in term)
    assert chunk_note(_parse(text), PARAMS) == chunks  # deterministic


@SETTINGS
@given(st.binary(max_size=400))
def test_decode_accepts_or_refuses_any_bytes_with_a_reason(data: bytes) -> None:
    try:
        text = decode_note(data)
    except NoteError as exc:
        message = exc.message
        assert message
        return
    assert "\r" not in text
    assert not text.startswith("\ufeff")


@SETTINGS
@given(markdownish)
def test_markdownish_noise_keeps_every_contract(text: str) -> None:
    _check_note(text.replace("\x00", ""))


@SETTINGS
@given(frontmatterish)
def test_frontmatterish_noise_keeps_every_contract(text: str) -> None:
    _check_note(text.replace("\x00", ""))


@SETTINGS
@given(st.text(max_size=300))
def test_tokenizer_terms_are_stable_under_normalisation(text: str) -> None:
    terms = TOKENIZER.tokenize(text)
    assert all(term and not any(ch.isspace() for ch in term) for term in terms)
    # Search must match notes whatever normal form a file system or an editor chose (NFC vs NFD).
    assert TOKENIZER.tokenize(unicodedata.normalize("NFD", text)) == TOKENIZER.tokenize(
        unicodedata.normalize("NFC", text)
    )


@pytest.mark.parametrize("depth", [10, 100, 1_000, 10_000], ids=lambda d: f"depth-{d}")
@pytest.mark.timeout(2.0)
def test_deep_mixed_nesting_keeps_every_contract(depth: int) -> None:
    text = "".join(("> " if i % 3 == 0 else "- " if i % 3 == 1 else "1. ") for i in range(depth)) + "[[x]] `y`\n"
    _check_note(text + "\n".join(">" * (i % 50) + f" line {i}" for i in range(depth // 10)))
