"""Passages that say nothing: template lines a vault repeats across its notes, link-only lines and query blocks,
found line by line and summed per chunk (pure).

- A **template line** is a body line (not a heading: the trail carries those; not a table's header row: it names
  what the note's own rows mean) whose normalised text recurs in at
  least `min_notes(n)` of the vault's n notes. Normalised: case folded, the renderer's `(host/path)` and bare URLs
  as one placeholder, digits as 0, a ticked box as an open one, whitespace collapsed; so a footer that names each
  note's own URL, a daily note's `<< [[2024-03-01]] | [[2024-03-03]] >>` and `Mood:: 3` match across notes.
- A **link line** (navigation) is a source line that is links and little else (`- [[A]]`, `[[A]] · [[B]]`).
- A **query line** is inside a Dataview, Tasks, Obsidian query or Bases block, or holds a Templater tag.
- A chunk's `Noise` is the share of its visible characters on each kind of line. A section of nothing but template
  lines (a footer) is chunked apart from the note's other sections (`chunk_note`), and a chunk of nothing but
  template lines gets an empty `index_text`: it is neither embedded nor keyword-indexed, and stays in the catalog
  to be shown and cited. Not when the note holds nothing else: a note that is only a footer or a template keeps
  its text. Template lines inside a passage with words of its own stay in its `index_text`, as do link and query
  lines: leaving them out was measured and lost questions on three sets while sending as few template passages
  (eval/README.md, "Passages that say nothing"). Retrieval weighs down chunks that are mostly noise
  (`retrieve/informative.py`) and related notes leave them out (`retrieve/related.py`).

The rules that read one line (normalised text, signature, link line, code block, table header) are in
`line_rules`; the template threshold and what a note's and a chunk's lines add up to are here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from askvault.chunk.line_rules import CodePlace, code_blocks, is_link_line, signature, table_headers
from askvault.model import Chunk, Note, Section, noise_of

BOILERPLATE_VERSION = "1"
"""Part of every note's fingerprint: a change to the rules below or in `line_rules` re-chunks every note once."""

LineKind = Literal["prose", "template", "links", "query"]

MIN_TEMPLATE_NOTES = 3
"""A line in two notes is a coincidence or a quotation; from three on it can be a template."""

_TEMPLATER = re.compile(r"<%.*?%>")


def min_notes(note_count: int) -> int:
    """How many notes must hold a line for it to count as a template line in a vault of `note_count` notes: the
    square root, so a footer on every note of a 20-note vault counts (5), a daily template in 150 of 20,000 notes
    does too (142), and a sentence a handful of notes quote does not; never fewer than `MIN_TEMPLATE_NOTES`.
    Measured on the three eval vaults and the template vault (eval/README.md, "Passages that say nothing")."""
    return max(MIN_TEMPLATE_NOTES, math.ceil(math.sqrt(max(0, note_count))))


def body_lines(note: Note) -> dict[int, str]:
    """File line → rendered text of every line inside a section, headings left out (the trail carries them). Nothing
    for a note the parser read as plain text (too heavy for Markdown): it is cut by size, and looked at no further."""
    lines: dict[int, str] = {}
    if note.plain_text:
        return lines
    for section in note.sections:
        for offset, text in enumerate(section.text.split("\n")):
            if offset == 0 and section.level:
                continue
            lines[section.start_line + offset] = text
    return lines


def note_signatures(note: Note) -> frozenset[int]:
    """The distinct signatures of a note's body lines: what the vault counts across notes (`NoteLines.counted`)."""
    return NoteLines.of(body_lines(note)).counted()


@dataclass(frozen=True, slots=True)
class NoteLines:
    """A note's body lines read once: their texts, signatures, code blocks and table headers (each line is hashed
    once, however many of the questions below are asked of it)."""

    text: Mapping[int, str]
    """File line → rendered text (`body_lines`)."""
    sigs: Mapping[int, int]
    """File line → signature, for the lines that have one."""
    code: Mapping[int, CodePlace]
    headers: frozenset[int]

    @classmethod
    def of(cls, text: Mapping[int, str]) -> NoteLines:
        sigs = {number: sig for number, line in text.items() if (sig := signature(line)) is not None}
        return cls(text, sigs, code_blocks(text), frozenset(table_headers(text)))

    def counted(self) -> frozenset[int]:
        """The signatures the vault counts across notes. Table headers and code fences (```` ```text ````) are left
        out: they are syntax every note of that kind shares."""
        return frozenset(
            sig
            for number, sig in self.sigs.items()
            if number not in self.headers and not ((place := self.code.get(number)) is not None and place.fence)
        )

    def templates(self, templates: frozenset[int]) -> set[int]:
        """The template lines. A code block's lines are template lines only when all of them are, fences included
        (a daily note's Dataview block): a line that docs repeat in many examples (`not done`) is not. A table's
        header row never is."""
        inner: dict[int, list[int | None]] = {}
        for number, spot in self.code.items():
            if not spot.fence:
                inner.setdefault(spot.block, []).append(self.sigs.get(number))
        repeated = {
            block for block, sigs in inner.items() if any(sigs) and all(s in templates for s in sigs if s is not None)
        }
        found: set[int] = set()
        for number in self.text:
            place = self.code.get(number)
            if place is not None:
                if place.block in repeated:
                    found.add(number)
            elif number not in self.headers and self.sigs.get(number) in templates:
                found.add(number)
        return found


def template_sections(sections: Sequence[Section], templates: frozenset[int]) -> list[bool]:
    """Per section: True when every body line with a word in it is a template line. A section without any (only a
    heading) goes with the section after it (the last with the one before), so it never stands alone."""
    flags: list[bool | None] = []
    for section in sections:
        lines = {
            section.start_line + offset: text
            for offset, text in enumerate(section.text.split("\n"))
            if offset or not section.level
        }
        read = NoteLines.of(lines)
        found = read.templates(templates)
        flags.append(all(n in found for n in read.sigs) if read.sigs else None)
    following: bool | None = None
    for index in range(len(flags) - 1, -1, -1):
        if flags[index] is None:
            flags[index] = following
        following = flags[index]
    last = False
    resolved: list[bool] = []
    for flag in flags:
        last = last if flag is None else flag
        resolved.append(last)
    return resolved


def template_signatures(counts: Mapping[int, int], note_count: int) -> frozenset[int]:
    """The signatures held by at least `min_notes(note_count)` notes (`counts`: signature → notes holding it)."""
    floor = min_notes(note_count)
    return frozenset(sig for sig, count in counts.items() if count >= floor)


def line_kinds(
    note: Note, source: Sequence[str], templates: frozenset[int], read: NoteLines | None = None
) -> dict[int, LineKind]:
    """Each body line's kind (file line → kind), for lines with visible text. `source` is the note's text split
    into lines (file line n is `source[n - 1]`); `read` the note's lines when the caller has them already."""
    read = read or NoteLines.of(body_lines(note))
    template = read.templates(templates)
    kinds: dict[int, LineKind] = {}
    for number, text in sorted(read.text.items()):
        if not text.strip():
            continue
        raw = source[number - 1] if 0 < number <= len(source) else text
        place = read.code.get(number)
        if number in template:
            kinds[number] = "template"
        elif (place is not None and place.query) or _TEMPLATER.search(raw):
            kinds[number] = "query"
        elif place is None and is_link_line(raw):
            kinds[number] = "links"
        else:
            kinds[number] = "prose"
    return kinds


def _shares(kinds: Mapping[int, LineKind], weights: Mapping[int, int], first: int, last: int) -> tuple[int, ...]:
    totals = {"template": 0, "links": 0, "query": 0, "prose": 0}
    for number in range(first, last + 1):
        kind = kinds.get(number)
        if kind is not None:
            totals[kind] += weights[number]
    whole = sum(totals.values())
    if not whole:
        return (0, 0, 0)
    names = ("template", "links", "query")
    # The prose share rounds down, the rest goes to the other kinds: "no prose" reads 0, never 1.
    informative = totals["prose"] * 100 // whole
    shares = [totals[name] * 100 // whole for name in names]
    shares[max(range(3), key=lambda i: totals[names[i]])] += 100 - informative - sum(shares)
    return tuple(shares)


def _says_nothing(chunk: Chunk, template: frozenset[str], headings: frozenset[str]) -> bool:
    """True when every line of the chunk's text with a word in it is one of its template lines, or the heading of
    a section merged into it (headings are structure; the trail carries them)."""
    lines = chunk.text.split("\n")
    return all(line.strip() in template or line.strip() in headings or signature(line) is None for line in lines)


def annotate(
    chunks: Iterable[Chunk],
    note: Note,
    source: Sequence[str],
    templates: frozenset[int],
    read: NoteLines | None = None,
) -> list[Chunk]:
    """The note's chunks with their `noise`; a chunk of nothing but template lines gets an empty `index_text`
    (unless the note holds nothing else). `read`: the note's lines when the caller has them already."""
    read = read or NoteLines.of(body_lines(note))
    kinds = line_kinds(note, source, templates, read)
    texts = read.text
    weights = {number: len(texts[number].strip()) for number in kinds}
    # Something of its own with a word in it (a bare fence or a table rule is not).
    own = any(kind != "template" and n in read.sigs for n, kind in kinds.items())
    headings = frozenset(s.text.split("\n", 1)[0].strip() for s in note.sections if s.level)
    out: list[Chunk] = []
    for chunk in chunks:
        template, links, query = _shares(kinds, weights, chunk.start_line, chunk.end_line)
        index_text = chunk.index_text
        if own and template:
            lines = range(chunk.start_line, chunk.end_line + 1)
            dropped = frozenset(texts[n].strip() for n in lines if kinds.get(n) == "template")
            if _says_nothing(chunk, dropped, headings):
                index_text = ""
        out.append(replace(chunk, index_text=index_text, noise=noise_of(template, links, query)))
    return out
