"""Reading one note from disk: the real file a vault path leads to (never outside the vault), its bytes, its text."""

from __future__ import annotations

import os
from pathlib import Path

from askvault.errors import NoteError
from askvault.parse.decode import decode_note


def inside(root: str, real: str) -> bool:
    """True when the real path `real` is `root` or under it."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def real_note_path(root: Path, rel: str) -> str:
    """The file a vault path leads to, symlinks followed; NoteError for one that resolves to outside the vault."""
    base = os.path.realpath(root)
    real = os.path.realpath(os.path.join(base, rel))
    if not inside(base, real) or real == base:
        raise NoteError(f"{rel} resolves to outside the vault; not read")
    return real


def read_note_bytes(root: Path, rel: str) -> bytes:
    """The raw bytes of a note; refuses a path that resolves to outside the vault."""
    with open(real_note_path(root, rel), "rb") as handle:
        return handle.read()


def read_note_text(root: Path, rel: str) -> str:
    """A note's text: UTF-8 (BOM stripped), LF line ends. NoteError for binary, non-UTF-8 or unreadable files."""
    try:
        data = read_note_bytes(root, rel)
    except OSError as exc:
        raise NoteError(f"cannot read {rel}: {exc.strerror or exc}") from None
    return decode_note(data)
