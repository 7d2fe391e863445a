"""Chat messages, and where one vault path stands in the index."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str


NoteState = Literal["indexed", "excluded", "failed", "not_indexed", "missing"]


@dataclass(frozen=True, slots=True)
class NoteStatus:
    """Whether one vault path is in the index now, and if not, which rule keeps it out (docs/api.md, explain).

    Built without ever holding the text of an excluded note: `title` is set only when the note is indexed."""

    path: str
    state: NoteState
    rule: str | None = None
    """Why it is not indexed, a slug (`exclude-glob`, `size-limit`, `pending`…); None when indexed."""
    detail: str | None = None
    """One sentence naming the rule (the glob, the size cap), never the note's text or title."""
    title: str | None = None
    chunks: int = 0
    """Its chunks that may be shown now."""
    indexed_at: str | None = None
    """ISO-8601 UTC of when its current chunks were indexed (the manifest's record), None when unknown."""
    hidden: int = 0
    """Its indexed chunks the privacy rules hide now (an excluded heading); they count nowhere else."""
    hidden_detail: str | None = None
