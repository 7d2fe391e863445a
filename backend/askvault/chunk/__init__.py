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
- `alias_header` / `tag_header` (`ChunkParams`, eval/README.md round two) add an "Aliases: … · Tags: …" line
  under the title in every chunk's `index_text`.
- The chunking parameters are part of every note's fingerprint (`params_key`): a changed setting re-chunks.

Relies on the parse contract: `Section.text` has one line per source line from `start_line` on.
"""

from __future__ import annotations

from dataclasses import replace

from askvault.chunk.boilerplate import template_sections
from askvault.chunk.grouping import groups
from askvault.chunk.ids import (
    CHUNKER_VERSION,
    MAX_TITLE_LINE,
    TRAIL_SEPARATOR,
    capped,
    chunk_id,
    head_lines,
    params_key,
)
from askvault.chunk.notes import meta_line
from askvault.chunk.units import pack, unit_maker
from askvault.config import ChunkParams
from askvault.model import Chunk, Note

__all__ = ["CHUNKER_VERSION", "TRAIL_SEPARATOR", "chunk_note", "params_key"]


def chunk_note(
    note: Note, params: ChunkParams, mtime: float = 0.0, templates: frozenset[int] = frozenset()
) -> list[Chunk]:
    """Chunks of one parsed note, in reading order. A section of nothing but the vault's `templates` lines (a
    footer, `chunk.boilerplate`) is chunked apart from the others."""
    sections = [s for s in note.sections if s.text.strip()]
    base = Chunk("", note.path, note.title, (), 1, 1, "", "", note.tags, mtime, aliases=note.aliases)
    meta = meta_line(note, params.alias_header, params.tag_header)
    if not sections:
        lines = [note.title[:MAX_TITLE_LINE]]
        if note.aliases:
            lines.append("Aliases: " + ", ".join(note.aliases))
        if note.tags:
            lines.append("Tags: " + " ".join("#" + tag for tag in note.tags))
        text = "\n".join(lines)[: params.hard_cap_chars]
        return [replace(base, id=chunk_id(note.path, (), 0), text=text, index_text=text)]
    chunks: list[Chunk] = []
    ordinals: dict[tuple[str, ...], int] = {}
    units_of = unit_maker(note)
    apart = template_sections(sections, templates) if templates else []
    if all(apart):
        apart = []  # a note of nothing else is chunked as it always was
    # A PDF's pages are never joined: each chunk's page is the one its text is on.
    for group in groups(sections, 0 if note.paged else params.min_chars, apart):
        longest_head = max(len(head_lines(note.title, sections[i].heading_path, meta)) for i in group)
        limit = max(1, min(params.max_chars, params.hard_cap_chars - longest_head - 1))
        units = [u for i in group for u in units_of(sections[i], i)]
        for piece in pack(units, limit, params.overlap):
            section = sections[piece[0].section]
            trail = section.heading_path
            shown = piece[1:] if len(piece) > 1 and piece[0].kind == "heading" else piece
            head = head_lines(note.title, trail, meta)
            text, index_text = capped(head, "\n\n".join(u.text for u in shown), params.hard_cap_chars)
            ordinal = ordinals.get(trail, 0)
            ordinals[trail] = ordinal + 1
            chunks.append(
                replace(
                    base,
                    id=chunk_id(note.path, trail, ordinal),
                    heading_path=trail,
                    start_line=min(u.first for u in piece),
                    end_line=max(u.last for u in piece),
                    text=text,
                    index_text=index_text,
                )
            )
    return chunks
