"""decode_note: UTF-8 with or without BOM, any line ending; specific errors for binary and non-UTF-8 data."""

from __future__ import annotations

import pytest

from askvault.errors import NoteError
from askvault.parse.decode import NotText, decode_note


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"# Title\nbody\n", "# Title\nbody\n"),
        (b"\xef\xbb\xbf# Title\n", "# Title\n"),
        (b"a\r\nb\r\n", "a\nb\n"),
        (b"a\rb\r", "a\nb\n"),
        (b"a\r\n\rb\n", "a\n\nb\n"),
        (b"\xef\xbb\xbfa\r\nb", "a\nb"),
        ("Grüße ✓ 😀\n".encode(), "Grüße ✓ 😀\n"),
        (b"", ""),
        (b"\xef\xbb\xbf\xef\xbb\xbfx", "\ufeffx"),
    ],
    ids=["lf", "bom", "crlf", "cr", "mixed-endings", "bom-crlf", "non-ascii", "empty", "only-first-bom-stripped"],
)
def test_decodes(data: bytes, text: str) -> None:
    assert decode_note(data) == text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PNG\x00\x00\x01", "NUL byte at byte 3"),
        (b"ok\n\xff\xfebad", "not valid UTF-8 at byte 3"),
        (b"\xff\xfea\x00b\x00", "UTF-16"),
        (b"\xfe\xff\x00a", "UTF-16"),
        (b"caf\xe9 latin-1", "not valid UTF-8 at byte 3 (bytes e9 20 6c 61)"),
        (b"abc\xe2\x82", "not valid UTF-8 at byte 3"),
    ],
    ids=["binary", "invalid-byte", "utf16-le", "utf16-be", "latin1", "truncated-sequence"],
)
def test_refuses_with_a_specific_message(data: bytes, message: str) -> None:
    with pytest.raises(NoteError) as caught:
        decode_note(data)
    assert message in caught.value.message
    # Binary data is no note (skipped); text in another encoding is one that failed, and says how to fix it.
    binary = message.startswith("NUL byte")
    assert isinstance(caught.value, NotText) is binary
    assert (
        binary
        or caught.value.message.endswith("re-save it as UTF-8")
        or "re-save it as UTF-8 to" in caught.value.message
    )
