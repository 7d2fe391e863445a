"""Notes too long for markdown-it (~25-90 µs a line here): headings and code fences found by linear scans.

A note whose body weighs more than PLAIN_TEXT_LINES (machine-made text: logs, dumps, exports; a line that
opens a list item or heading weighs MARKED_LINE_WEIGHT, as markdown-it takes that much longer on it)
gets no block pass: its lines are kept as written, links and tags are still rendered and collected (in the
first MAX_PLAIN_SCAN lines that may hold one), and only ATX headings outside code fences (the first
MAX_PLAIN_HEADINGS) split it. It stays indexed and searchable, and a warning says why its structure was
ignored. Every step is a regex or string scan over the whole text, or a bounded loop over what those found.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from askvault.parse.blocks import strip_comments
from askvault.parse.inline import InlineRenderer

PLAIN_TEXT_LINES = 20_000
"""Heavier bodies are parsed as plain text; the chunker (`chunk.units`) cuts such notes by size alone."""
MARKED_LINE_WEIGHT = 4
"""What a line opening a list item, heading or `[` (a link reference?) weighs: markdown-it-py spends about
four paragraph lines on one."""
MAX_PLAIN_HEADINGS = 2_000
"""Headings that start sections in a plain-text note; later ones stay lines of text (each costs a section)."""
MAX_PLAIN_SCAN = 20_000
"""Lines each scan handles one by one (fence lines, heading candidates, lines that may hold a link or tag);
past that many, the rest of the note is kept as written, so no shape of text costs a Python step a line."""
PLAIN_TEXT_NOTICE = "parsed as plain text"
"""How the warning starts; `chunk.units` looks for it (the two layers may not import each other)."""

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+([^\n]*))?$", re.MULTILINE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_MARKED = re.compile(r"^[ \t>]*+(?:(?:[-*+]|[0-9]{1,9}[.)]|#{1,6})(?=[ \t]|$)|\[)", re.MULTILINE)
_INLINE_START = re.compile(r"[\[<#]")


def too_heavy(lines: list[str]) -> bool:
    """True when markdown-it would take too long on these body lines (one regex pass to count marked lines)."""
    count = _line_count(lines)
    if count > PLAIN_TEXT_LINES:
        return True
    if count * MARKED_LINE_WEIGHT <= PLAIN_TEXT_LINES:
        return False
    marked = sum(1 for _ in _MARKED.finditer("\n".join(lines)))
    return count + (MARKED_LINE_WEIGHT - 1) * marked > PLAIN_TEXT_LINES


def _line_count(lines: list[str]) -> int:
    return len(lines) - (1 if lines and not lines[-1] else 0)  # a final newline starts no line


def plain_notice(lines: int) -> str:
    """The warning a note parsed as plain text carries (the indexer reports it per note)."""
    return (
        f"{PLAIN_TEXT_NOTICE} ({lines} lines): too long to read as Markdown in time; only # headings, code "
        "fences, links and tags are read"
    )


@dataclass(frozen=True, slots=True)
class _Code:
    """Line ranges of fenced code, as sorted [start, after) pairs (0-based lines)."""

    starts: list[int]
    afters: list[int]

    def __contains__(self, line: object) -> bool:
        if not isinstance(line, int):
            return False
        at = bisect_right(self.starts, line) - 1
        return at >= 0 and line < self.afters[at]


def _fences(flat: str, count: int) -> _Code:
    """CommonMark fences at the top level: a closer is the same character, at least as long, with nothing after."""
    starts: list[int] = []
    afters: list[int] = []
    line, at = 0, 0
    opener: str | None = None
    for index, match in enumerate(_FENCE.finditer(flat)):
        if index == MAX_PLAIN_SCAN:
            break
        line += flat.count("\n", at, match.start())
        at = match.start()
        marks, info = match.group(1), match.group(2)
        if opener is None:
            if marks[0] == "`" and "`" in info:
                continue  # not a fence: a backtick fence's info string has no backticks
            opener = marks
            starts.append(line)
        elif marks[0] == opener[0] and len(marks) >= len(opener) and not info.strip(" \t"):
            afters.append(line + 1)
            opener = None
    if opener is not None:
        afters.append(count)  # an unclosed fence runs to the end, as in markdown-it
    return _Code(starts, afters)


def _headings(flat: str, code: _Code, renderer: InlineRenderer) -> dict[int, tuple[int, str]]:
    headings: dict[int, tuple[int, str]] = {}
    line, at = 0, 0
    for index, match in enumerate(_ATX.finditer(flat)):
        if index == MAX_PLAIN_SCAN:
            break
        line += flat.count("\n", at, match.start())
        at = match.start()
        if line in code:
            continue
        content = (match.group(2) or "").strip(" \t")
        closed = content.rstrip("#")
        if not closed:
            content = ""
        elif closed != content and closed[-1] in " \t":
            content = closed.rstrip(" \t")  # `## Title ##`: the closing sequence is not part of the title
        text = renderer.inline(content).strip()
        if text:
            headings[line] = (len(match.group(1)), text)
            if len(headings) >= MAX_PLAIN_HEADINGS:
                break
    return headings


def plain_body(
    lines: list[str], first_line: int, renderer: InlineRenderer
) -> tuple[list[str], dict[int, tuple[int, str]], list[str]]:
    """Body lines as written (comments blanked, heading lines as their text), the headings that start
    sections ({line: (level, text)}), and warnings; the shape `note._render` gives for a parsed body."""
    flat = "\n".join(lines)
    code = _fences(flat, len(lines)) if "```" in flat or "~~~" in flat else _Code([], [])
    cleaned, warnings = strip_comments(lines, code, first_line)
    if cleaned is not lines:
        flat = "\n".join(cleaned)
        code = _fences(flat, len(cleaned)) if "```" in flat or "~~~" in flat else _Code([], [])
    headings = _headings(flat, code, renderer) if "#" in flat else {}
    rendered = list(cleaned)
    for line, (_, text) in headings.items():
        rendered[line] = text
    _render_inline(flat, rendered, code, headings, renderer)
    return rendered, headings, [plain_notice(_line_count(lines)), *warnings]


def _render_inline(
    flat: str, rendered: list[str], code: _Code, headings: dict[int, tuple[int, str]], renderer: InlineRenderer
) -> None:
    """Links and tags of the lines that may hold one (`[`, `<` or `#`), outside code and headings."""
    line, at = 0, 0
    for _ in range(MAX_PLAIN_SCAN):
        if renderer.budget <= 0:
            break
        match = _INLINE_START.search(flat, at)
        if match is None:
            break
        line += flat.count("\n", at, match.start())
        end = flat.find("\n", match.start())
        at = len(flat) if end == -1 else end
        if line not in code and line not in headings:
            rendered[line] = renderer.inline(rendered[line])
