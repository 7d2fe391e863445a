"""`parse_note`: one note's text to a `Note` — metadata, readable sections on original line numbers, links.

Contract the chunker relies on: `Section.text` has exactly one line per source line from `start_line` to
`end_line`, so a line inside the text maps back to the file. The first line of a section under a heading
is the heading's readable text; code lines are verbatim; comments, rules and setext underlines are blank.
"""

from __future__ import annotations

import itertools
import posixpath

from askvault.config import OPT_OUT_KEY
from askvault.model import Note, Section
from askvault.parse.blocks import Blocks, parse_blocks
from askvault.parse.decode import normalize_newlines
from askvault.parse.frontmatter import read_frontmatter
from askvault.parse.inline import InlineRenderer
from askvault.parse.links import LinkResolver
from askvault.parse.plain import PLAIN_TEXT_NOTICE, plain_body, too_heavy

MAX_HEADING_CHARS = 200
"""Longer headings are cut in `heading_path` (the full heading stays in the section text)."""


def title_from_path(path: str) -> str:
    """The file name without `.md`: what Obsidian shows as the note's title."""
    name = posixpath.basename(path)
    return (name[:-3] if name.lower().endswith(".md") else name) or path


def _render(lines: list[str], blocks: Blocks, renderer: InlineRenderer) -> tuple[list[str], dict[int, tuple[int, str]]]:
    """Readable text per body line, and {line: (level, heading text)} for the headings that start sections."""
    starts = {heading.start: heading for heading in blocks.headings}
    covered = {line for heading in blocks.headings for line in range(heading.start + 1, heading.end)}
    rendered: list[str] = []
    headings: dict[int, tuple[int, str]] = {}
    for number, line in enumerate(lines):
        if number in blocks.code:
            rendered.append(blocks.code[number])
        elif number in starts:
            heading = starts[number]
            text = renderer.inline(" ".join(heading.content.split("\n"))).strip()
            rendered.append(text)
            if text:
                headings[number] = (heading.level, text)
        elif number in covered or number in blocks.rules:
            rendered.append("")
        else:
            rendered.append(renderer.prose_line(line))
    return rendered, headings


def _sections(rendered: list[str], headings: dict[int, tuple[int, str]], offset: int) -> list[Section]:
    """Split at headings; `offset` is the number of frontmatter lines before the body."""
    bounds = [*sorted({0, *headings}), len(rendered)]
    sections: list[Section] = []
    trail: list[tuple[int, str]] = []
    for begin, after in itertools.pairwise(bounds):
        level = 0
        if begin in headings:
            level, text = headings[begin]
            while trail and trail[-1][0] >= level:
                trail.pop()
            short = text if len(text) <= MAX_HEADING_CHARS else text[: MAX_HEADING_CHARS - 1] + "…"
            trail.append((level, short))
        elif begin != 0:
            continue
        first = begin
        if level == 0:
            while first < after and not rendered[first].strip():
                first += 1
        last = after
        while last > first + 1 and not rendered[last - 1].strip():
            last -= 1
        if first >= last or (level == 0 and not rendered[first].strip()):
            continue
        path = tuple(text for _, text in trail) if level else ()
        body = "\n".join(rendered[first:last])
        sections.append(Section(path, level, body, offset + first + 1, offset + last))
    return sections


def _parse(path: str, text: str, resolver: LinkResolver, opt_out_key: str) -> Note:
    lines = normalize_newlines(text.removeprefix("\ufeff")).split("\n")
    front = read_frontmatter(lines, opt_out_key)
    title = front.title or title_from_path(path)
    if front.opted_out:
        # Nothing of an opted-out note is rendered: it must not reach the index in any form.
        return Note(path, title, front.aliases, front.tags, front.properties, opted_out=True, warnings=front.warnings)
    for number in front.blank_lines:
        lines[number] = ""
    body = lines[front.body_start :]
    renderer = InlineRenderer(path, resolver)
    for value in front.link_sources:
        if "[[" in value:
            kept = len(renderer.tags)
            renderer.inline(value)
            del renderer.tags[kept:]  # a `#word` inside a property value is not a tag
    plain_text = too_heavy(body)
    if plain_text:
        rendered, headings, comment_warnings = plain_body(body, front.body_start + 1, renderer)
    else:
        blocks, cleaned, comment_warnings = parse_blocks(body, front.body_start + 1)
        rendered, headings = _render(cleaned, blocks, renderer)
    return Note(
        path=path,
        title=title,
        aliases=front.aliases,
        tags=tuple(dict.fromkeys((*front.tags, *renderer.tags))),
        properties=front.properties,
        sections=tuple(_sections(rendered, headings, front.body_start)),
        links=tuple(dict.fromkeys(renderer.links)),
        warnings=(*front.warnings, *comment_warnings, *renderer.warnings),
        plain_text=plain_text,
        notices=(*front.notices, *(w for w in comment_warnings if w.startswith(PLAIN_TEXT_NOTICE))),
    )


def parse_note(path: str, text: str, resolver: LinkResolver, opt_out_key: str = OPT_OUT_KEY) -> Note:
    """Parse one note (text as decoded by `decode_note`; CR/CRLF and a BOM are tolerated). Never raises."""
    try:
        return _parse(path, text, resolver, opt_out_key)
    except Exception as exc:  # a parser bug must cost one note its structure, never the indexing run
        plain = normalize_newlines(text.removeprefix("\ufeff"))
        count = plain.count("\n") + 1
        section = Section((), 0, plain, 1, count)
        warning = f"internal parser error ({type(exc).__name__}: {exc}); indexed as plain text"
        return Note(path, title_from_path(path), sections=(section,) if plain.strip() else (), warnings=(warning,))
