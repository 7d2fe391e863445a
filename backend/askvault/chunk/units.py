"""Chunk stage, first half: a section's text as blocks (prose, code, tables, headings) and their packing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from markdown_it import MarkdownIt

from askvault.model import Note, Section

# Only code needs finding (tables are recognised by their delimiter row, which is much cheaper).
_MD = MarkdownIt("commonmark", {"maxNesting": 20}).disable(["inline", "normalize", "text_join", "table"])
# Matched against the stripped row: with whitespace allowed on both ends, a row of `|---` and thousands of
# trailing spaces made the match quadratic.
_DELIMITER_ROW = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?")
_DELIMITER_CHARS = frozenset("|:- \t")
_FENCE = re.compile(r"(`{3,}|~{3,})")

PLAIN_TEXT_LINES = 20_000
"""Sections holding more lines than this are cut by size alone too (a note that reached us unparsed)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """A block that is never split across chunks unless it alone is too long."""

    text: str
    first: int
    last: int
    section: int
    kind: str  # "heading" | "text" | "code" | "table" | "plain" (a section of a note cut as plain text)


def _cut(text: str, limit: int) -> list[str]:
    """Cut one over-long line at a sentence end, else whitespace, else hard (linear: no re-slicing)."""
    parts: list[str] = []
    start, size = 0, len(text)
    while size - start > limit:
        stop = start + limit
        cut = text.rfind(". ", start, stop) + 1
        if cut - start < limit // 2:
            cut = max(text.rfind(" ", start, stop), text.rfind("\t", start, stop))
        if cut - start < limit // 4:
            cut = stop
        head = text[start:cut].rstrip()
        if head:
            parts.append(head)
        start = cut
        while start < size and text[start] in " \t":
            start += 1
    if start < size:
        parts.append(text[start:])
    return parts


def _split_plain(unit: Unit, limit: int) -> list[Unit]:
    """Split plain text between lines into pieces of at most `limit` chars: one `rfind` and one `count` a
    piece, so a note of two million lines costs what its size does, not what its line count would in Python."""
    text, pieces, start, line = unit.text, [], 0, unit.first
    size = len(text)
    while start < size:
        stop = size if size - start <= limit else text.rfind("\n", start, start + limit + 1)
        if stop == -1:  # one line longer than a chunk: cut it where `_cut` would
            stop = text.find("\n", start)
            stop = size if stop == -1 else stop
            parts = _cut(text[start:stop], limit)
            pieces += [Unit(part, line, line, unit.section, unit.kind) for part in parts if part.strip()]
        elif (piece := text[start:stop]).strip():
            lead = len(piece) - len(piece.lstrip("\n"))
            body = piece.strip("\n")
            first = line + lead
            pieces.append(Unit(body, first, first + body.count("\n"), unit.section, unit.kind))
        line += text.count("\n", start, stop) + 1
        start = stop + 1
    return [replace(p, first=min(p.first, unit.last), last=min(p.last, unit.last)) for p in pieces]


def _split_lines(unit: Unit, limit: int, first: int | None = None) -> list[Unit]:
    """Split a long unit between lines, repeating a code fence or table header in every piece.

    `first`, when given, is the room left in the chunk being filled: the first piece is made to fit it.
    """
    if unit.kind == "plain":
        return _split_plain(unit, limit)
    lines = unit.text.split("\n")
    prefix: list[str] = []
    suffix: list[str] = []
    body = list(enumerate(lines))
    fence = _FENCE.match(lines[0]) if unit.kind == "code" else None
    if unit.kind == "table" and len(lines) > 2:
        prefix, body = lines[:2], body[2:]
    elif fence is not None and len(lines) > 1:
        prefix, body = lines[:1], body[1:]
        if lines[-1].strip().startswith(fence.group(1)) and len(body) > 1:
            suffix, body = lines[-1:], body[:-1]
    frame = sum(len(line) + 1 for line in prefix + suffix)
    if frame * 2 > limit:
        prefix, suffix, body, frame = [], [], list(enumerate(lines)), 0
    room = limit - frame
    if first is not None and max(len(line) for _, line in body) > first - frame:
        first = None  # a line would not fit the first piece whole; pieces of the full size instead
    first_room = room if first is None else first - frame
    kind = unit.kind if unit.kind != "heading" else "text"
    pieces: list[Unit] = []
    current: list[tuple[int, str]] = []

    size = 0

    def flush() -> None:
        if current:
            text = "\n".join([*prefix, *(line for _, line in current), *suffix])
            first = unit.first if current[0][0] <= len(prefix) else unit.first + current[0][0]
            last = unit.last if suffix and current[-1][0] == len(lines) - 2 else unit.first + current[-1][0]
            pieces.append(Unit(text, min(first, unit.last), min(last, unit.last), unit.section, kind))
            current.clear()

    for index, line in body:
        for part in _cut(line, room) if len(line) > room else [line]:
            if current and size + len(part) > (room if pieces else first_room):
                flush()
                size = 0
            current.append((index, part))
            size += len(part) + 1
    flush()
    return pieces


def _may_hold_code(text: str) -> bool:
    """False when markdown-it cannot find code in `text`, so the section needs no block pass of its own.

    A fence needs three backticks or tildes in a row; an indented block needs four columns of indentation
    after any container markers, which without a tab means four spaces in a row.
    """
    return "    " in text or "\t" in text or "```" in text or "~~~" in text


def _code_blocks(lines: list[str]) -> dict[int, int]:
    """{first line: line after} of each code block. Huge indents are cut first, as in parse (blocks.py)."""
    if sum(len(line) - len(line.lstrip(" \t")) for line in lines) > 200_000:
        lines = [line if len(line) - len(rest := line.lstrip(" \t")) <= 64 else line[:64] + rest for line in lines]
    code: dict[int, int] = {}
    covered = -1
    for token in _MD.parse("\n".join(lines)):
        if token.type in ("fence", "code_block") and token.map is not None and token.map[0] > covered:
            code[token.map[0]] = token.map[1]
            covered = token.map[1] - 1
    return code


def _is_table_start(lines: list[str], row: int) -> bool:
    """A GFM table header: a row with `|` followed by a delimiter row (`|---|:--:|`)."""
    below = lines[row + 1]
    if "|" not in lines[row] or "-" not in below or not _DELIMITER_CHARS.issuperset(below):
        return False
    return _DELIMITER_ROW.fullmatch(below.strip()) is not None


def plain_units(section: Section, index: int) -> list[Unit]:
    """The section of a note cut as plain text: its heading, then all its text as one unit."""
    head, newline, rest = section.text.partition("\n")
    units: list[Unit] = []
    if section.level == 0:
        head, rest = "", section.text
    elif head.strip():
        units.append(Unit(head.strip(), section.start_line, section.start_line, index, "heading"))
    text = rest.lstrip("\n")
    if text.strip():
        first = section.start_line + (1 if newline and section.level else 0) + len(rest) - len(text)
        units.append(Unit(text, min(first, section.end_line), section.end_line, index, "plain"))
    return units


def is_plain(note: Note) -> bool:
    """True when parse read the note as plain text, or its sections hold more than PLAIN_TEXT_LINES lines."""
    if note.plain_text:
        return True
    return sum(section.end_line - section.start_line + 1 for section in note.sections) > PLAIN_TEXT_LINES


def unit_maker(note: Note) -> Callable[[Section, int], list[Unit]]:
    """How the note's sections are cut into units: `plain_units` for a note read as plain text, else
    `section_units` (markdown-it looking for code, where there may be some)."""
    return plain_units if is_plain(note) else section_units


def section_units(section: Section, index: int) -> list[Unit]:
    """The section's blocks in order; its own heading first, as a unit of its own."""
    lines = section.text.split("\n")

    def line_no(offset: int) -> int:
        return max(section.start_line, min(section.start_line + offset, section.end_line))

    units: list[Unit] = []
    skip = 0
    if section.level > 0 and lines:
        skip = 1
        if lines[0].strip():
            units.append(Unit(lines[0].strip(), line_no(0), line_no(0), index, "heading"))
    rest = lines[skip:]
    code = _code_blocks(rest) if _may_hold_code(section.text) else {}
    at = 0
    while at < len(rest):
        if at in code:
            end = code[at]
            while end > at + 1 and not rest[end - 1].strip():
                end -= 1
            text, kind = "\n".join(line.rstrip() for line in rest[at:end]), "code"
        elif not rest[at].strip():
            at += 1
            continue
        else:
            end = at
            while end < len(rest) and rest[end].strip() and (end == at or end not in code):
                end += 1
            # A table may follow a paragraph line directly: it becomes its own unit (header at its top).
            header = next((k - 1 for k in range(at + 1, end) if _is_table_start(rest, k - 1)), None)
            if header is not None and header > at:
                end = header
            block = [line.rstrip() for line in rest[at:end]]
            text, kind = "\n".join(block), "table" if header == at else "text"
        units.append(Unit(text, line_no(skip + at), line_no(skip + end - 1), index, kind))
        at = max(end, at + 1)
    return units


def pack(units: list[Unit], limit: int, overlap: bool = True) -> list[list[Unit]]:
    """Greedy packing up to `limit` chars; a piece never ends on a heading; overlap within a section.

    A heading that opens a piece is not counted: it is left out of the text (the trail carries it).
    """
    pieces: list[list[Unit]] = []
    current: list[Unit] = []

    def size(units: list[Unit]) -> int:
        return sum(len(u.text) + 2 for u in units[1 if units and units[0].kind == "heading" else 0 :])

    queue = list(reversed(units))
    while queue:
        unit = queue.pop()
        if len(unit.text) > limit:
            # Too long for any chunk: split it, its first piece filling what the current chunk has left.
            free = limit - size(current) - 2 if current else limit
            parts = _split_lines(unit, limit, free if current and free >= limit // 4 else None)
            # Every part fits by construction; the cut only guards the loop against a future mistake.
            queue.extend(reversed([p if len(p.text) <= limit else replace(p, text=p.text[:limit]) for p in parts]))
            continue
        if current and size(current) + len(unit.text) > limit:
            headings: list[Unit] = []
            while current and current[-1].kind == "heading":
                headings.insert(0, current.pop())
            repeated: list[Unit] = []
            if current:
                pieces.append(current)
                last = current[-1]
                fits = len(last.text) + 2 + len(unit.text) <= limit
                if overlap and not headings and last.kind == "text" and last.section == unit.section and fits:
                    repeated = [last]
            current = repeated + headings
            if headings and size(current) + len(unit.text) > limit:
                pieces.append(headings)
                current = []
        current.append(unit)
    if current:
        pieces.append(current)
    return pieces
