"""The alias/tag header of every chunk's index text."""

from __future__ import annotations

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
