"""Bytes of a note file to text: UTF-8 (with or without BOM), line endings normalised to LF."""

from __future__ import annotations

import codecs

from askvault.errors import NoteError

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class NotText(NoteError):
    """The file holds binary data, not a note: the indexer skips it deliberately rather than failing on it."""


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR become LF; each stays one line break, so line numbers do not move."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_note(data: bytes) -> str:
    """Decode a note's bytes; raises NoteError saying what is wrong for non-UTF-8 files (NotText for binary)."""
    if data.startswith(_UTF16_BOMS):
        raise NoteError("the file is UTF-16 encoded; re-save it as UTF-8 to index it")
    nul = data.find(b"\x00")
    if nul != -1:
        raise NotText(f"binary data, not a text note (NUL byte at byte {nul})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 4].hex(" ")
        raise NoteError(
            f"not valid UTF-8 at byte {exc.start} (bytes {bad}): {exc.reason}; re-save it as UTF-8"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return normalize_newlines(text)
