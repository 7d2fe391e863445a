"""The typed vocabulary every stage shares: notes, sections, links, chunks, hits and chat messages, one module
per kind (`notes`, `chunks`, `search`, `status`), all importable from here."""

from __future__ import annotations

from askvault.model.chunks import NO_NOISE, Chunk, ChunkInfo, ChunkText, Noise, noise_of
from askvault.model.notes import Link, Note, Scalar, Section
from askvault.model.search import (
    DateScopeReport,
    Hit,
    RankedId,
    SearchFilters,
    SearchMode,
    SearchResult,
    SearchTimings,
    TermStat,
)
from askvault.model.status import Message, NoteState, NoteStatus, Role

__all__ = [
    "NO_NOISE",
    "Chunk",
    "ChunkInfo",
    "ChunkText",
    "DateScopeReport",
    "Hit",
    "Link",
    "Message",
    "Noise",
    "Note",
    "NoteState",
    "NoteStatus",
    "RankedId",
    "Role",
    "Scalar",
    "SearchFilters",
    "SearchMode",
    "SearchResult",
    "SearchTimings",
    "Section",
    "TermStat",
    "noise_of",
]
