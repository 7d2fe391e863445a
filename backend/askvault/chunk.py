"""Chunk stage: a parsed note to heading-aware chunks with accurate line ranges and stable ids (pure).

Decisions (bump CHUNKER_VERSION when the output changes):
- A section under `min_chars` merges forward into the next (a short last one back into the previous chunk),
  its heading kept as a text line. A chunk's `heading_path` is the section's where the chunk starts, so a
  citation opens where its text begins. A section that is only a heading, followed by a subsection, is
  skipped: the subsection's trail names it, and the chunk cites the subsection, where the text is.
- A longer section is split between blocks (paragraphs, lists, code, tables) at `max_chars`; a new piece
  repeats the previous paragraph as overlap when both fit. Code and tables stay whole unless one alone is
  too long: then it is split between lines (its first piece filling the current chunk), with the fence or
  the table header + separator row repeated in every piece. A line still too long is cut at a sentence
  end, else whitespace, else hard: no input can push `index_text` over `hard_cap_chars`.
- `index_text` = title line, heading trail joined with " › " (when there is one), then the text. The
  section's own heading is left out of `text` when the chunk starts with it (the trail carries it).
- Ids: sha1(path, heading trail, ordinal among chunks with that trail)[:32]; editing one section leaves
  the ids of chunks in other sections alone.
- A note without text still yields one chunk (title, aliases, tags) so it can be found by name.
- Round two (eval/README.md, each behind a `ChunkParams` switch): `alias_header` / `tag_header` add an
  "Aliases: … · Tags: …" line under the title in every chunk's `index_text`; `note_chunk` adds one note-level
  chunk (title, aliases, tags, heading outline, table columns, outgoing link titles) cited at line 1;
  `boilerplate` (a set of normalised lines the indexer found in many notes) drops those lines from prose
  before packing, and a chunk left with nothing is not made.

Relies on the parse contract: `Section.text` has one line per source line from `start_line` on.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from markdown_it import MarkdownIt

from askvault.config import ChunkParams
from askvault.model import Chunk, Note, Section

CHUNKER_VERSION = "2"
TRAIL_SEPARATOR = " › "
MAX_TITLE_LINE = 200
MAX_TRAIL_LINE = 400
MAX_META_LINE = 400
MAX_NOTE_ITEMS = 60
"""At most this many headings, table columns or link titles in a note-level chunk (each list)."""
MIN_BOILERPLATE_CHARS = 8
"""Shorter lines ("Tasks", "1.") are never treated as boilerplate: they carry no template."""
NOTE_CHUNK_KEY = ("\x00note",)
"""The id key of the note-level chunk; no heading trail can equal it."""

# Only code needs finding (tables are recognised by their delimiter row, which is much cheaper).
_MD = MarkdownIt("commonmark", {"maxNesting": 20}).disable(["inline", "normalize", "text_join", "table"])
_DELIMITER_ROW = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
_FENCE = re.compile(r"(`{3,}|~{3,})")
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class _Unit:
    """A block that is never split across chunks unless it alone is too long."""

    text: str
    first: int
    last: int
    section: int
    kind: str  # "heading" | "text" | "code" | "table"


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


def _split_lines(unit: _Unit, limit: int, first: int | None = None) -> list[_Unit]:
    """Split a long unit between lines, repeating a code fence or table header in every piece.

    `first`, when given, is the room left in the chunk being filled: the first piece is made to fit it.
    """
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
    pieces: list[_Unit] = []
    current: list[tuple[int, str]] = []

    size = 0

    def flush() -> None:
        if current:
            text = "\n".join([*prefix, *(line for _, line in current), *suffix])
            first = unit.first if current[0][0] <= len(prefix) else unit.first + current[0][0]
            last = unit.last if suffix and current[-1][0] == len(lines) - 2 else unit.first + current[-1][0]
            pieces.append(_Unit(text, min(first, unit.last), min(last, unit.last), unit.section, kind))
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
    return "|" in lines[row] and "-" in below and _DELIMITER_ROW.fullmatch(below) is not None


def _section_units(section: Section, index: int) -> list[_Unit]:
    """The section's blocks in order; its own heading first, as a unit of its own."""
    lines = section.text.split("\n")

    def line_no(offset: int) -> int:
        return max(section.start_line, min(section.start_line + offset, section.end_line))

    units: list[_Unit] = []
    skip = 0
    if section.level > 0 and lines:
        skip = 1
        if lines[0].strip():
            units.append(_Unit(lines[0].strip(), line_no(0), line_no(0), index, "heading"))
    rest = lines[skip:]
    code = _code_blocks(rest)
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
        units.append(_Unit(text, line_no(skip + at), line_no(skip + end - 1), index, kind))
        at = max(end, at + 1)
    return units


def _groups(sections: Sequence[Section], min_chars: int) -> list[list[int]]:
    """Indices of sections chunked together: short ones join the next (the last short one the previous).

    A section that is only its heading, followed by one of its subsections, is left out: the subsection's
    trail already names it, and the chunk then cites the subsection, where the text is.
    """
    groups: list[list[int]] = []
    current: list[int] = []
    size = 0
    for index, section in enumerate(sections):
        following = sections[index + 1].heading_path if index + 1 < len(sections) else ()
        only_heading = section.level > 0 and "\n" not in section.text.strip()
        child = (
            len(following) > len(section.heading_path)
            and following[: len(section.heading_path)] == section.heading_path
        )
        if only_heading and child and not current:
            continue
        current.append(index)
        size += len(section.text.strip())
        if size >= min_chars:
            groups.append(current)
            current, size = [], 0
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return groups


def _pack(units: list[_Unit], limit: int) -> list[list[_Unit]]:
    """Greedy packing up to `limit` chars; a piece never ends on a heading; overlap within a section.

    A heading that opens a piece is not counted: it is left out of the text (the trail carries it).
    """
    pieces: list[list[_Unit]] = []
    current: list[_Unit] = []

    def size(units: list[_Unit]) -> int:
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
            headings: list[_Unit] = []
            while current and current[-1].kind == "heading":
                headings.insert(0, current.pop())
            overlap: list[_Unit] = []
            if current:
                pieces.append(current)
                last = current[-1]
                fits = len(last.text) + 2 + len(unit.text) <= limit
                if not headings and last.kind == "text" and last.section == unit.section and fits:
                    overlap = [last]
            current = overlap + headings
            if headings and size(current) + len(unit.text) > limit:
                pieces.append(headings)
                current = []
        current.append(unit)
    if current:
        pieces.append(current)
    return pieces


def _head(title: str, trail: tuple[str, ...], meta: str = "") -> str:
    head = title[:MAX_TITLE_LINE]
    if meta:
        head += "\n" + meta[:MAX_META_LINE]
    if trail:
        head += "\n" + TRAIL_SEPARATOR.join(trail)[:MAX_TRAIL_LINE]
    return head


def _chunk_id(path: str, trail: tuple[str, ...], ordinal: int) -> str:
    key = json.dumps([path, list(trail), ordinal], ensure_ascii=False)
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:32]


def note_chunk_id(path: str) -> str:
    """The id the note-level chunk of `path` has (`ChunkParams.note_chunk`)."""
    return _chunk_id(path, NOTE_CHUNK_KEY, 0)


def _capped(head: str, text: str, cap: int) -> tuple[str, str]:
    index_text = f"{head}\n{text}"
    if len(index_text) > cap:  # only reachable with a cap smaller than the title and trail themselves
        text = text[: max(0, cap - len(head) - 1)]
        index_text = f"{head}\n{text}"[:cap]
    return text, index_text


def _normalise(line: str) -> str:
    return " ".join(line.split())


def _words(text: str) -> set[str]:
    return {word.casefold() for word in _WORDS.findall(text)}


def _meta_line(note: Note, aliases: bool = True, tags: bool = True, new_words_only: bool = False) -> str:
    """ "Aliases: a, b · Tags: #x #y" (the parts asked for), or "" when the note has neither.

    With `new_words_only`, a word the title or an earlier entry already has is left out (an entry left empty
    goes), so the header adds handles without multiplying the weight of the title's own words.
    """
    seen = _words(note.title)

    def fresh(entry: str) -> str:
        if not new_words_only:
            return entry
        kept = [word for word in entry.split() if not _words(word) <= seen]
        seen.update(_words(entry))
        return " ".join(kept)

    parts = []
    names = [name for alias in note.aliases if (name := fresh(alias))] if aliases else []
    if names:
        parts.append("Aliases: " + ", ".join(names))
    labels = [label for tag in note.tags if (label := fresh(tag))] if tags else []
    if labels:
        parts.append("Tags: " + " ".join("#" + label for label in labels))
    return " · ".join(parts)


def _unique(items: list[str]) -> list[str]:
    return [item for item in dict.fromkeys(item for item in items if item)][:MAX_NOTE_ITEMS]


def _table_columns(header: str) -> list[str]:
    return [cell.strip() for cell in header.strip().strip("|").split("|") if cell.strip()]


def note_outline(note: Note) -> str:
    """The note-level chunk's text: title, aliases, tags, heading outline, table columns, outgoing link titles."""
    lines = [note.title[:MAX_TITLE_LINE]]
    if note.aliases:
        lines.append("Aliases: " + ", ".join(note.aliases))
    if note.tags:
        lines.append("Tags: " + " ".join("#" + tag for tag in note.tags))
    sections = [s for s in note.sections if s.text.strip()]
    headings = _unique([s.heading_path[-1] for s in sections if s.heading_path])
    if headings:
        lines.append("Headings: " + "; ".join(headings))
    units = [u for i, s in enumerate(sections) for u in _section_units(s, i) if u.kind == "table"]
    columns = _unique([cell for u in units for cell in _table_columns(u.text.split("\n")[0])])
    if columns:
        lines.append("Table columns: " + ", ".join(columns))
    links = _unique([posixpath.basename(link.target) for link in note.links])
    if links:
        lines.append("Links: " + ", ".join(links))
    return "\n".join(lines)


def boilerplate_candidates(note: Note) -> set[str]:
    """The note's prose lines (no headings, code or tables), normalised: what the indexer counts across notes."""
    found: set[str] = set()
    for index, section in enumerate(note.sections):
        for unit in _section_units(section, index):
            if unit.kind == "text":
                found.update(n for line in unit.text.split("\n") if len(n := _normalise(line)) >= MIN_BOILERPLATE_CHARS)
    return found


def _without(unit: _Unit, boilerplate: frozenset[str]) -> _Unit | None:
    """A prose unit minus its boilerplate lines; None when nothing else is left."""
    if unit.kind != "text" or not boilerplate:
        return unit
    kept = [line for line in unit.text.split("\n") if _normalise(line) not in boilerplate]
    if not any(line.strip() for line in kept):
        return None
    return unit if len(kept) == unit.text.count("\n") + 1 else replace(unit, text="\n".join(kept))


def chunk_note(
    note: Note, params: ChunkParams, mtime: float = 0.0, boilerplate: frozenset[str] = frozenset()
) -> list[Chunk]:
    """Chunks of one parsed note, in reading order (the note-level chunk, when on, first)."""
    chunks = _section_chunks(note, params, mtime, boilerplate)
    if params.note_chunk and note.sections and any(s.text.strip() for s in note.sections):
        text = note_outline(note)[: params.hard_cap_chars]
        outline = Chunk(note_chunk_id(note.path), note.path, note.title, (), 1, 1, text, text)
        chunks.insert(0, replace(outline, tags=note.tags, mtime=mtime))
    return chunks


def _section_chunks(note: Note, params: ChunkParams, mtime: float, boilerplate: frozenset[str]) -> list[Chunk]:
    sections = [s for s in note.sections if s.text.strip()]
    base = Chunk("", note.path, note.title, (), 1, 1, "", "", note.tags, mtime)
    meta = _meta_line(note, params.alias_header, params.tag_header, params.header_new_words_only)
    if not sections:
        lines = [note.title[:MAX_TITLE_LINE]]
        if note.aliases:
            lines.append("Aliases: " + ", ".join(note.aliases))
        if note.tags:
            lines.append("Tags: " + " ".join("#" + tag for tag in note.tags))
        text = "\n".join(lines)[: params.hard_cap_chars]
        return [replace(base, id=_chunk_id(note.path, (), 0), text=text, index_text=text)]
    chunks: list[Chunk] = []
    ordinals: dict[tuple[str, ...], int] = {}
    for group in _groups(sections, params.min_chars):
        longest_head = max(len(_head(note.title, sections[i].heading_path, meta)) for i in group)
        limit = max(1, min(params.max_chars, params.hard_cap_chars - longest_head - 1))
        units = [kept for i in group for u in _section_units(sections[i], i) if (kept := _without(u, boilerplate))]
        if boilerplate and not any(u.kind != "heading" for u in units):
            continue  # nothing but boilerplate (and headings): nothing worth ranking
        for piece in _pack(units, limit):
            section = sections[piece[0].section]
            trail = section.heading_path
            shown = piece[1:] if len(piece) > 1 and piece[0].kind == "heading" else piece
            head = _head(note.title, trail, meta if not (params.header_first_chunk_only and chunks) else "")
            text, index_text = _capped(head, "\n\n".join(u.text for u in shown), params.hard_cap_chars)
            ordinal = ordinals.get(trail, 0)
            ordinals[trail] = ordinal + 1
            chunks.append(
                replace(
                    base,
                    id=_chunk_id(note.path, trail, ordinal),
                    heading_path=trail,
                    start_line=min(u.first for u in piece),
                    end_line=max(u.last for u in piece),
                    text=text,
                    index_text=index_text,
                )
            )
    if not chunks:  # every line was boilerplate: still findable by name
        return _section_chunks(replace(note, sections=()), params, mtime, frozenset())
    return chunks
