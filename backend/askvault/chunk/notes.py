"""Note-level pieces of the chunk stage: the alias/tag header, the note outline and boilerplate lines."""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace

from askvault.chunk.ids import MAX_NOTE_ITEMS, MAX_TITLE_LINE, MIN_BOILERPLATE_CHARS
from askvault.chunk.units import Unit, unit_maker
from askvault.model import Note

_WORDS = re.compile(r"\w+")


def normalise(line: str) -> str:
    return " ".join(line.split())


def _words(text: str) -> set[str]:
    return {word.casefold() for word in _WORDS.findall(text)}


def meta_line(note: Note, aliases: bool = True, tags: bool = True, new_words_only: bool = False) -> str:
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
    units_of = unit_maker(note)
    units = [u for i, s in enumerate(sections) for u in units_of(s, i) if u.kind == "table"]
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
    units_of = unit_maker(note)
    for index, section in enumerate(note.sections):
        for unit in units_of(section, index):
            if unit.kind == "text":
                found.update(n for line in unit.text.split("\n") if len(n := normalise(line)) >= MIN_BOILERPLATE_CHARS)
    return found


def without(unit: Unit, boilerplate: frozenset[str]) -> Unit | None:
    """A prose unit minus its boilerplate lines; None when nothing else is left."""
    if unit.kind != "text" or not boilerplate:
        return unit
    kept = [line for line in unit.text.split("\n") if normalise(line) not in boilerplate]
    if not any(line.strip() for line in kept):
        return None
    return unit if len(kept) == unit.text.count("\n") + 1 else replace(unit, text="\n".join(kept))
