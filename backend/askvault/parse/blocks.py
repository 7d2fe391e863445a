"""Block structure of a note body from markdown-it (headings, code, rules, with line maps) and comment removal."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Container
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from askvault.parse.inline import code_spans

MAX_NESTING = 50
"""Deeper lists/quotes get no tokens of their own; their lines are still read as prose, so nothing is lost."""

MAX_INDENT_TOTAL = 200_000
"""markdown-it-py scans leading whitespace in Python; past this much in one note, indents are cut to 64."""

# Block rules only: inline parsing is ours (Obsidian syntax) and would cost time on huge lines. Newlines
# are normalised before we get here, so markdown-it's own normalising pass (a full-text regex) is skipped.
# Tables need no tokens here (their lines are prose, and building per-cell tokens is the slowest part).
_MD = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).disable(["inline", "normalize", "text_join"])


def _tokens(lines: list[str]) -> list[Token]:
    indent = sum(len(line) - len(line.lstrip(" \t")) for line in lines)
    if indent > MAX_INDENT_TOTAL:
        # Only pathological input gets here (a staircase thousands of levels deep); maxNesting stops
        # structure far sooner, so cutting such indents changes no structure a reader would see.
        lines = [line if len(line) - len(body := line.lstrip(" \t")) <= 64 else line[:64] + body for line in lines]
    return _MD.parse("\n".join(lines))


@dataclass(frozen=True, slots=True)
class Heading:
    start: int
    """0-based body line of the heading."""
    end: int
    """0-based body line after it (a setext heading spans its text and the underline)."""
    level: int
    content: str
    """The heading's inline source, without `#` marks or underline."""


@dataclass
class Blocks:
    """What markdown-it found, keyed by 0-based body line; lines in none of these are prose."""

    headings: list[Heading] = field(default_factory=list)
    """Top-level headings only (Obsidian's outline ignores headings inside quotes and lists)."""
    code: dict[int, str] = field(default_factory=dict)
    """Lines of fenced and indented code, container markers (`> `, list indent) removed."""
    rules: set[int] = field(default_factory=set)
    """Thematic breaks and setext underlines: no text."""


def _code_lines(token: Token, lines: list[str]) -> dict[int, str]:
    assert token.map is not None
    first, after = token.map
    content = token.content.split("\n")
    if content and content[-1] == "":
        content.pop()
    rendered: list[str]
    if token.type == "code_block":
        rendered = [("    " + line) if line else "" for line in content]
    elif len(content) == after - first - 2:
        rendered = [token.markup + token.info, *content, token.markup]
    else:  # a fence left open runs to the end of its container
        rendered = [token.markup + token.info, *content]
    if len(rendered) != after - first:
        rendered = lines[first:after]
    return dict(zip(range(first, after), rendered, strict=False))


def _blocks(tokens: list[Token], lines: list[str]) -> Blocks:
    blocks = Blocks()
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        if token.type in ("fence", "code_block"):
            blocks.code.update(_code_lines(token, lines))
        elif token.type == "hr":
            blocks.rules.add(token.map[0])
        elif token.type == "heading_open" and token.level == 0:
            start, end = token.map
            content = tokens[index + 1].content if index + 1 < len(tokens) else ""
            blocks.headings.append(Heading(start, end, int(token.tag[1:]), content))
            if token.markup in ("=", "-"):
                blocks.rules.add(end - 1)
    return blocks


def parse_blocks(lines: list[str], first_line: int) -> tuple[Blocks, list[str], list[str]]:
    """Blocks of the body `lines`, the lines with comments blanked, and warnings.

    Comments are found outside code first, then the cleaned text is parsed again, so a heading or fence
    inside `%% … %%` is gone like in Obsidian. `first_line` (1-based) is only used in warnings.
    """
    blocks = _blocks(_tokens(lines), lines)
    cleaned, warnings = strip_comments(lines, blocks.code, first_line)
    if cleaned != lines:
        blocks = _blocks(_tokens(cleaned), cleaned)
    return blocks, cleaned, warnings


MAX_COMMENTS = 20_000
"""Comments removed per note; past this (machine-made text) the rest is kept as written, bounding the cost."""
MAX_COMMENT_STEPS = 50_000
"""Lines (or runs of lines) looked at one by one; past this (markers on most lines of a huge note, say in code)
the rest is kept as written. Above the longest body read as Markdown (`plain.PLAIN_TEXT_LINES`)."""
_OPENERS = ("%%", "<!--")
_CLOSER = {"%%": "%%", "<!--": "-->"}


class _Openers:
    """Finds comment openers on one line left to right; each marker's next position is searched once."""

    def __init__(self, line: str) -> None:
        self._line = line
        self._next = {marker: line.find(marker) for marker in _OPENERS}
        self._spans: list[tuple[int, int]] | None = None if "`" in line else []
        self._starts: list[int] = []

    def _code(self) -> list[tuple[int, int]]:
        if self._spans is None:  # only lines that really hold an opener pay for finding code spans
            self._spans = code_spans(self._line)
            self._starts = [start for start, _ in self._spans]
        return self._spans

    def _at(self, marker: str, pos: int) -> int:
        at = self._next[marker]
        if at != -1 and at < pos:
            at = self._next[marker] = self._line.find(marker, pos)
        return at

    def find(self, pos: int) -> tuple[int, str] | None:
        while True:
            found = [(at, marker) for marker in _OPENERS if (at := self._at(marker, pos)) != -1]
            if not found:
                return None
            at, marker = min(found)
            spans = self._code()
            inside = bisect_right(self._starts, at) - 1
            if inside >= 0 and at < spans[inside][1]:
                pos = spans[inside][1]  # `%%` in `code` is not a comment
                continue
            return at, marker


def strip_comments(lines: list[str], protected: Container[int], first_line: int) -> tuple[list[str], list[str]]:
    """Blank `%%…%%` and `<!--…-->` (inline and multi-line) outside code, keeping every line break.

    An opener that is never closed is not a comment: its marker is dropped, its text kept (with a warning),
    so a stray `%%` cannot hide the rest of a note from search.
    """
    flat = "\n".join(lines)
    if "%%" not in flat and "<!--" not in flat:
        return lines, []
    last_close = {marker: flat.rfind(_CLOSER[marker]) for marker in _OPENERS}
    out: list[str] = []
    warnings: list[str] = []
    closer: str | None = None
    budget = MAX_COMMENTS
    number, base = 0, 0
    upcoming = {marker: flat.find(marker) for marker in _OPENERS}
    steps = 0
    while number < len(lines):
        line = lines[number]
        steps += 1
        if (budget <= 0 or steps > MAX_COMMENT_STEPS) and closer is None:
            out.extend(lines[number:])
            what = f"{MAX_COMMENTS} comments" if budget <= 0 else f"{MAX_COMMENT_STEPS} lines with comment markers"
            warnings.append(f"more than {what}; from line {first_line + number} on kept as written")
            break
        if closer is None and (("%%" not in line and "<!--" not in line) or number in protected):
            # Kept as written up to the next line with a marker: found in the flat text, not line by line (each
            # marker's next position is searched again only once passed, so the searches stay linear).
            for marker, at in upcoming.items():
                if at != -1 and at < base + len(line):
                    upcoming[marker] = flat.find(marker, base + len(line))
            ahead = [at for at in upcoming.values() if at != -1]
            target = len(lines) if not ahead else number + flat.count("\n", base, min(ahead))
            out.extend(lines[number:target])
            number, base = target, (flat.rfind("\n", 0, min(ahead)) + 1 if ahead else len(flat))
            continue
        if closer is not None and closer not in line:
            # Inside a comment: every line up to the one that closes it is blank (a closer is always ahead).
            close_at = flat.find(closer, base)
            target = number + flat.count("\n", base, close_at)
            out.extend([""] * (target - number))
            number, base = target, flat.rfind("\n", 0, close_at) + 1
            continue
        openers = _Openers(line)
        pieces: list[str] = []
        pos = 0
        while True:
            if closer is None:
                found = openers.find(pos) if budget > 0 else None
                if found is None:
                    pieces.append(line[pos:])
                    break
                at, marker = found
                pieces.append(line[pos:at])
                pos = at + len(marker)
                budget -= 1
                if last_close[marker] < base + pos:
                    if len(warnings) < 5:
                        warnings.append(f"line {first_line + number}: {marker} is never closed; kept as text")
                    continue
                closer = _CLOSER[marker]
            else:
                end = line.find(closer, pos)
                if end == -1:
                    break
                pos = end + len(closer)
                closer = None
        out.append("".join(pieces))
        number, base = number + 1, base + len(line) + 1
    return out, warnings
