"""The alias/tag header of every chunk's index text, and reading its aliases back."""

from __future__ import annotations

from askvault.chunk.ids import MAX_TRAIL_LINE, TRAIL_SEPARATOR
from askvault.model import Note


def meta_line(note: Note, aliases: bool = True, tags: bool = True) -> str:
    """ "Aliases: a, b · Tags: #x #y" (the parts asked for), or "" when the note has neither."""
    parts = []
    names = [alias for alias in note.aliases if alias] if aliases else []
    if names:
        parts.append("Aliases: " + ", ".join(names))
    labels = [tag for tag in note.tags if tag] if tags else []
    if labels:
        parts.append("Tags: " + " ".join("#" + label for label in labels))
    return " · ".join(parts)


def header_aliases(index_text: str, trail: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The aliases `meta_line` wrote under a chunk's title (its second line, unless that is the heading `trail`),
    so a reader of the index can resolve `[[alias]]` without the parsed note; () when the header is off or the
    note has none. An alias holding ", " reads as two, which only adds a look-up key."""
    lines = index_text.split("\n", 2)
    if len(lines) < 2 or not lines[1].startswith("Aliases: "):
        return ()
    if trail and lines[1] == TRAIL_SEPARATOR.join(trail)[:MAX_TRAIL_LINE]:
        return ()
    names = lines[1].removeprefix("Aliases: ").split(" · Tags: ", 1)[0]
    return tuple(name.strip() for name in names.split(", ") if name.strip())
