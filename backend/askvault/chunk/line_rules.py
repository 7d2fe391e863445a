"""The rules that read body lines: normalised text and signature, link lines, code blocks and table headers."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

# These rules decide which lines are template or link lines: changing one bumps `boilerplate.BOILERPLATE_VERSION`,
# so every note is re-chunked once.

_URL_IN_PARENS = re.compile(r"\((?:[\w-]+\.)+[a-z]{2,}(?::\d+)?(?:/[^()]*)?\)", re.IGNORECASE)
"""The renderer's `label (host/path)` for an external Markdown link (`parse.links.url_values`)."""
_BARE_URL = re.compile(r"\b(?:https?|ftp)://\S+", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_TICKED = re.compile(r"\[[xX]\]")
_WORD = re.compile(r"\w")
_QUERY_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*(dataview|dataviewjs|tasks|query|base|bases)\b", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_DELIMITER_ROW = re.compile(r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?")
_WIKILINK = re.compile(r"!?\[\[([^\]|#^]*)(?:[#^][^\]|]*)?(?:\|([^\]]*))?\]\]")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_LINE_LEAD = re.compile(r"^\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?(?:\[.\]\s+)?")
_LABEL_LEAD = re.compile(r"^\W*\w+(?:\s+\w+)?\s*:")
"""`Related:` / `See also:` before a list of links: a label, not prose."""
MAX_LINE_CHARS = 1_000
"""Longer lines are never template or link lines (no footer or link list is one line that long), and are not
looked at: the regular expressions below must stay linear on a hostile note's megabyte-long line."""
LINK_LINE_PROSE = 0.25
"""A line whose words outside its links are at most this share of its visible letters is a link line: room for
`and`, `or`, a separator or two, never for a sentence around a link."""


def normalise(line: str) -> str:
    """A rendered line as template detection compares it ("" for a line with no letter or digit)."""
    text = _BARE_URL.sub("<url>", line)
    text = _URL_IN_PARENS.sub("(<url>)", text)
    text = _TICKED.sub("[ ]", text)
    text = _DIGITS.sub("0", text)
    text = " ".join(text.casefold().split())
    # A line of nothing but links to different pages (a list of sources) is not one line repeated.
    return text if _WORD.search(text.replace("<url>", "")) else ""


def signature(line: str) -> int | None:
    """A 63-bit fingerprint of the normalised line (it fits SQLite's INTEGER); None for a line without words or one
    longer than `MAX_LINE_CHARS`."""
    if len(line) > MAX_LINE_CHARS:
        return None
    text = normalise(line)
    if not text:
        return None
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def table_headers(lines: Mapping[int, str]) -> set[int]:
    """The lines that head a table (the line above a `| --- |` row): a header shared by every table of one shape
    names what each note's own rows mean, so it is never a template line."""
    return {
        number - 1 for number, text in lines.items() if number - 1 in lines and _DELIMITER_ROW.fullmatch(text.strip())
    }


@dataclass(frozen=True, slots=True)
class CodePlace:
    """Where a line sits in a fenced code block."""

    block: int
    """The block's first (opening fence) line."""
    fence: bool
    """The line is the opening or closing fence."""
    query: bool
    """The block is a Dataview, Tasks, query or Bases block."""


def code_blocks(lines: Mapping[int, str]) -> dict[int, CodePlace]:
    """Each line inside a fenced code block (fences included), by file line. An unclosed fence runs to the end."""
    places: dict[int, CodePlace] = {}
    open_at: tuple[int, str, int, bool] | None = None  # (line, fence char, length, query?)
    for number, text in sorted(lines.items()):
        opened = _FENCE.match(text)
        if open_at is None:
            if opened is not None:
                mark = opened.group(1)
                open_at = (number, mark[0], len(mark), _QUERY_FENCE.match(text) is not None)
                places[number] = CodePlace(number, True, open_at[3])
            continue
        first, char, length, query = open_at
        mark = opened.group(1) if opened is not None else ""
        closing = mark[:1] == char and len(mark) >= length and not text.strip().strip(char)
        places[number] = CodePlace(first, closing, query)
        if closing:
            open_at = None
    return places


def is_link_line(source: str) -> bool:
    """True for a line that is links and next to no prose: `- [[A]]`, `[[A]] · [[B]]`, `Related: [[A]], [[B]]`."""
    if len(source) > MAX_LINE_CHARS:
        return False
    text = _HTML_TAG.sub(" ", _LINE_LEAD.sub("", source, count=1))
    labels: list[str] = []

    def label(group: int) -> Callable[[re.Match[str]], str]:
        def take(match: re.Match[str]) -> str:
            labels.append(match.group(group) or match.group(1) or "")
            return " "

        return take

    rest = _BARE_URL.sub(label(0), _MD_LINK.sub(label(1), _WIKILINK.sub(label(2), text)))
    if not labels:
        return False
    rest = _LABEL_LEAD.sub(" ", rest, count=1)
    linked = sum(len(_WORD.findall(label)) for label in labels)
    prose = len(_WORD.findall(rest))
    return linked > 0 and prose <= LINK_LINE_PROSE * (linked + prose)
