"""One paragraph of answer prose made inert, scanned left to right the way a CommonMark renderer reads it.

The scan sees the same code spans, links and images a renderer does: remote images and note embeds are removed,
external links, autolinks and bare URLs shown as code, every `<` escaped. Whatever it leaves as plain text is
written so that no renderer can read a link, an image or a code span into it (stray backticks, `![` and `](`
are escaped). A port of the plugin's plugin/src/answer/inline.ts: both sides make the same decisions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from askvault.safety.syntax import char_at, closing_run, escapable, inline_tail, reference_end, run_end
from askvault.safety.urls import (
    as_code,
    clean_target,
    decode_destination,
    encode_destination,
    host_of,
    is_external,
    is_image_path,
)

NeutralisedKind = Literal["image", "embed", "link", "definition", "html", "code"]
Note = Callable[[NeutralisedKind, "str | None"], None]


@dataclass(frozen=True, slots=True)
class Neutralised:
    """One thing taken out of an answer: what it was and where it pointed (a host, a tag or a language)."""

    kind: str
    """"image", "embed", "link", "definition", "html" or "code"."""
    target: str | None


_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]{0,2000})>")
_TAG_NAME = re.compile(r"/?[A-Za-z][A-Za-z0-9\-]{0,30}")
_SOURCE_ATTRIBUTE = re.compile(
    r"""\b(?:src|href|srcset|data|poster|action|background|formaction)\s{0,5}=\s{0,5}["']?([^"'\s>]{1,2000})""",
    re.IGNORECASE,
)
# Bare URLs a renderer may link: any `scheme://`, `www.` (GFM), `//host` and `mailto:` (linkify-it).
_BARE_URL = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z][A-Za-z0-9+.\-]{0,31}://|www\.|(?<![:/])//(?=[^\s/])|mailto:)"
    r"[^\s<>()\[\]`\"'\\]{0,2000}",
    re.IGNORECASE,
)
_TRAILING_PUNCTUATION = re.compile(r"[.,:;!?*_~]+\Z")
_DATAVIEW_INLINE = re.compile(r"\s*\$?=")
_WIKI_EMBED = re.compile(r"!\[\[([^\]\n`<>$\\\[]{1,500})\]\]")
# Text that starts nothing, taken in one piece: letters too, except where a bare URL (above) starts.
_PLAIN = re.compile(
    r"(?:[^\n\\`!\[\]<(/A-Za-z]|(?<=[A-Za-z0-9])[A-Za-z]"
    r"|(?![A-Za-z][A-Za-z0-9+.\-]{0,31}://|www\.|mailto:)[A-Za-z])+",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\s*\d+\s*")
# Characters next to an `[image removed]` marker that could make a link, a reference or a definition of it.
_JOINS_BEFORE = frozenset("!]")
_JOINS_AFTER = frozenset("([:!")


@dataclass(slots=True)
class _Opener:
    out: int
    """Index in the output of the `[` or `![` piece."""
    at: int
    """Index in the input of the `[` or `![`."""
    image: bool
    active: bool = field(default=True)
    holds_link: bool = field(default=False)
    """A link was made inside its brackets (so, as a link itself, it would be read as text)."""


def _straddled(line_before: str, inner: str) -> bool:
    """Inline code that is not code for every renderer: math, a comment or a wikilink may open before it."""
    if "$" in line_before and "$" in inner:
        return True
    if "%%" in line_before and "%%" in inner:
        return True
    return line_before.rfind("[[") > line_before.rfind("]]") and "]]" in inner


def _tag_target(text: str, at: int, name: str) -> str | None:
    rest = text[at : at + 2000].split(">", 1)[0]
    source = _SOURCE_ATTRIBUTE.search(rest) if name else None
    if source is not None:
        return host_of(source.group(1))
    return clean_target(name.lstrip("/").lower()) or None


def _spaced(out: list[str], code: str, following: str) -> str:
    """A code span with a space where a backslash or backtick next to it would change its meaning."""
    before = out[-1] if out else ""
    lead = " " if before.endswith(("\\", "`")) else ""
    trail = " " if following == "`" else ""
    return f"{lead}{code}{trail}"


def _unbang(out: list[str]) -> None:
    """A literal `!` just before a link written in place of an embed is escaped, so the two make no embed."""
    if out and out[-1] == "!":
        out[-1] = "\\!"


def _removed(host: str | None, text: str, start: int, end: int) -> str:
    """The `[image removed: host]` marker (the sidecar's wire form); escaped where a neighbour could link it."""
    # A `www.` host would be linked by GFM renderers where it stands: shown without it.
    shown = host[4:] if host and host.lower().startswith("www.") else host
    label = f"image removed: {shown}" if shown else "image removed"
    if char_at(text, start - 1) in _JOINS_BEFORE or char_at(text, end) in _JOINS_AFTER:
        return f"\\[{label}\\]"
    return f"[{label}]"


def neutralise_inline(text: str, note: Note) -> str:
    """The inert form of `text` (one paragraph, or one table cell); everything made inert is reported to `note`."""
    out: list[str] = []
    openers: list[_Opener] = []
    line_start = 0
    i = 0
    while i < len(text):
        plain = _PLAIN.match(text, i)
        if plain is not None:
            out.append(plain.group(0))
            i = plain.end()
            continue
        c = text[i]
        if c == "\n":
            out.append(c)
            line_start = i + 1
            i += 1
        elif c == "\\":
            following = char_at(text, i + 1)
            escaped = escapable(following)
            out.append(c + following if escaped else c)
            i += 2 if escaped else 1
        elif c == "`":
            i = _backticks(text, i, line_start, out, note)
        elif c == "!" and char_at(text, i + 1) == "[":
            if _WIKI_EMBED.match(text, i) is not None:
                # The `[[link]]` left is scanned like any other text, so the scan reads it again the same way.
                note("embed", None)
                _unbang(out)
                i += 1
            else:
                openers.append(_Opener(len(out), i, image=True))
                out.append("![")
                i += 2
        elif c == "[":
            openers.append(_Opener(len(out), i, image=False))
            out.append(c)
            i += 1
        elif c == "]":
            i = _close_bracket(text, i, out, openers, note)
        elif c == "<":
            i = _angle(text, i, out, note)
        elif c == "(" and (char_at(text, i - 1) == "]" or (out and out[-1].endswith("]"))):
            # A `](` the scan did not take as a link: escaped, so no renderer can read one into it.
            out.append("\\(")
            i += 1
        else:
            bare = _BARE_URL.match(text, i) if c.isascii() and (c.isalpha() or c == "/") else None
            if bare is not None:
                url = _TRAILING_PUNCTUATION.sub("", bare.group(0))
                absolute = url if not url.lower().startswith("www.") else f"//{url}"
                note("link", host_of(absolute))
                out.append(_spaced(out, as_code(url), char_at(text, i + len(url))))
                i += len(url)
            else:
                out.append(c)
                i += 1
    # An image that never closed must not become one when a renderer reads the text differently.
    for opener in openers:
        if opener.image:
            out[opener.out] = "!\\["
    return "".join(out)


def _backticks(text: str, at: int, line_start: int, out: list[str], note: Note) -> int:
    end = run_end(text, at)
    length = end - at
    close = closing_run(text, end, length)
    if close != -1 and not _straddled(text[line_start:at], text[end:close]):
        body = text[end:close]
        if _DATAVIEW_INLINE.match(body):
            note("code", "dataview")
            body = f"(query) {body}"
        out.extend((text[at:end], body, text[close : close + length]))
        return close + length
    out.append("\\`" * length)
    return end


def _angle(text: str, at: int, out: list[str], note: Note) -> int:
    autolink = _AUTOLINK.match(text, at)
    if autolink is not None:
        url = autolink.group(1)
        note("link", host_of(url))
        out.append(_spaced(out, as_code(url), char_at(text, autolink.end())))
        return autolink.end()
    following = char_at(text, at + 1)
    if following != "" and ((following.isascii() and following.isalpha()) or following in "/!?"):
        name = _TAG_NAME.match(text, at + 1)
        tag = name.group(0) if name is not None else ""
        note("html", _tag_target(text, at + 1 + len(tag), tag))
    out.append("&lt;")
    return at + 1


def _close_bracket(text: str, at: int, out: list[str], openers: list[_Opener], note: Note) -> int:
    """The `]` at `at`: a link or image when an inline or reference tail follows, else a literal bracket."""
    opener = openers.pop() if openers else None
    if opener is None or not opener.active:
        out.append("]")
        return at + 1
    label = "".join(out[opener.out + 1 :])
    tail = inline_tail(text, at + 1)
    if tail is not None:
        del out[opener.out :]
        decoded = decode_destination(tail.destination)
        link = not opener.image
        if opener.image:
            replacement, link = _image(label, tail.destination, decoded, note, out, opener, (text, tail.end))
            out.append(replacement)
        elif decoded is None or is_external(tail.destination):
            note("link", host_of(tail.destination))
            shown = f"[{label}]" if _NUMBER.fullmatch(label) else label
            code = as_code(re.sub(r"^<|>$", "", tail.destination))
            out.append(_spaced(out, code, char_at(text, tail.end)) if not shown.strip() else f"{shown} ({code})")
        else:
            out.append(f"[{label}]({encode_destination(decoded)})")
        if link:
            # Links do not nest: brackets opened before this link can no longer make one.
            for earlier in openers:
                earlier.holds_link = True
                if not earlier.image:
                    earlier.active = False
        return tail.end
    reference = reference_end(text, at + 1)
    if opener.image and reference != -1:
        del out[opener.out :]
        note("image", None)
        out.append(_removed(None, text, opener.at, reference))
        return reference
    # A shortcut reference image `![label]` stays text; a plain `[label]` (a citation, a task) stays as written.
    if opener.image:
        out[opener.out] = "\\!["
    out.append("]")
    return at + 1


def _image(
    label: str,
    destination: str,
    decoded: str | None,
    note: Note,
    out: list[str],
    opener: _Opener,
    after: tuple[str, int],
) -> tuple[str, bool]:
    """What an image becomes (removed when remote, a link when it would embed a note, else kept); a link?"""
    if decoded is None or is_external(destination):
        host = host_of(destination)
        note("image", host)
        return _removed(host, after[0], opener.at, after[1]), False
    if not is_image_path(decoded):
        # `![x](Note.md)` embeds the note (an excluded one too) like `![[Note]]`: a link instead, unless its
        # text holds a link already (links do not nest: it would be read as text), then plain text.
        note("embed", None)
        _unbang(out)
        tail = "\\(" if opener.holds_link else "("
        return f"[{label}]{tail}{encode_destination(decoded)})", not opener.holds_link
    return f"![{label}]({encode_destination(decoded)})", False
