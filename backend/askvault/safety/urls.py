"""Link targets in an answer: what a browser makes of one (external or a vault path), its host, a safe spelling."""

from __future__ import annotations

import re
from html.entities import html5
from urllib.parse import quote, urlsplit

_ENTITY = re.compile(r"&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));")
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# A scheme as the URL parser reads one (any length: `c:` is not a vault path either).
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_NOT_TARGET = re.compile(r"[^A-Za-z0-9.:_\-]")
_UNSAFE_IN_DESTINATION = re.compile(r"[\s\ufeff<>()\[\]`\"'\\]")
_CONTROLS_AND_SPACE = "".join(chr(c) for c in range(0x21))
_WWW = re.compile(r"www\.", re.IGNORECASE)
_IMAGE_EXTENSIONS = frozenset(("png", "jpg", "jpeg", "gif", "bmp", "svg", "webp", "avif", "ico", "tif", "tiff"))


class _Unknown(Exception):
    """A character reference the entity table does not know: the destination cannot be read for sure."""


def _entity(match: re.Match[str]) -> str:
    hex_code, dec_code, name = match.group(1), match.group(2), match.group(3)
    if hex_code is not None or dec_code is not None:
        code = int(hex_code, 16) if hex_code is not None else int(dec_code)
        # CommonMark reads NUL, surrogates and out-of-range references as U+FFFD.
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    value = html5.get(f"{name};")
    if value is None:
        raise _Unknown
    return value


def decode_destination(raw: str) -> str | None:
    """A destination as the renderer uses it: escapes and references decoded, what URL parsers ignore removed.

    `None` when a character reference is unknown (callers treat that as external).
    """
    text = raw.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    try:
        text = _ENTITY.sub(_entity, _BACKSLASH_ESCAPE.sub(r"\1", text))
    except _Unknown:
        return None
    # The URL parser drops tabs and newlines anywhere, C0 controls and spaces at either end.
    text = re.sub(r"[\t\n\r]", "", text)
    return text.strip(_CONTROLS_AND_SPACE)


def is_external(raw: str) -> bool:
    """True for anything that is not a path inside the vault: a scheme (`https:`, `obsidian:`, `data:`) or `//host`."""
    target = decode_destination(raw)
    if target is None:
        return True
    # Browsers read `\` as `/` in special URLs, so `\\host` is `//host`.
    return _SCHEME.match(target) is not None or target.replace("\\", "/").startswith("//")


def host_of(raw: str) -> str | None:
    """Where a target points, for a notice: its host, else its scheme, else None. Never a path or a query."""
    target = decode_destination(raw)
    if target is None:
        return None
    slashed = target.replace("\\", "/")
    absolute = f"https:{slashed}" if slashed.startswith("//") else target
    try:
        host = urlsplit(absolute).hostname or ""
    except ValueError:
        host = ""
    host = clean_target(host)
    if host:
        return host
    scheme = _SCHEME.match(target)
    return scheme.group(1).lower() if scheme else None


def clean_target(target: str) -> str:
    """A target reduced to characters a host, tag or language uses, so a notice never shows a path or a query."""
    return _NOT_TARGET.sub("", target)[:100]


def is_image_path(path: str) -> bool:
    """True when a vault path names an image (Obsidian embeds any other file, notes included, in place)."""
    bare = re.split(r"[?#|]", path, maxsplit=1)[0]
    _, dot, extension = bare.rpartition(".")
    return dot == "." and extension.lower() in _IMAGE_EXTENSIONS


def encode_destination(path: str) -> str:
    """A decoded vault path written back as a destination no renderer can read differently."""

    def percent(match: re.Match[str]) -> str:
        c = match.group(0)
        return f"%{ord(c):02X}" if ord(c) < 0x80 else quote(c, safe="")

    encoded = _UNSAFE_IN_DESTINATION.sub(percent, path)
    # Where a renderer does not read the link, its destination is text, and linkify must find no URL in it.
    encoded = encoded.replace(":", "%3A").replace("//", "/%2F")
    return _WWW.sub("%77ww.", encoded)


def as_code(url: str) -> str:
    """A URL shown as inline code: backticks and line breaks removed so the span cannot end early or run on."""
    clean = re.sub(r"[`\r\n]", "", url)
    # `$`, `%%` and `]]` could pair with math, a comment or a wikilink around the span and end it early for
    # Obsidian; percent-encoded they mean the same URL and the span stays code on every reading.
    clean = clean.replace("$", "%24").replace("%%", "%25%25").replace("]]", "%5D%5D")
    return f"`{clean}`" if clean else ""
