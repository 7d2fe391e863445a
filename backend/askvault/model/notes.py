"""Notes as the parser reads them: a note, its sections and its links."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Scalar = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class Link:
    """One outgoing link or embed found in a note."""

    target: str
    """The link target as written, without heading/block/alias (`Folder/Note` of `[[Folder/Note#H|a]]`)."""
    resolved: str | None
    """Vault-relative path the target resolves to, the way Obsidian resolves it; None when unresolved."""
    heading: str | None = None
    block: str | None = None
    alias: str | None = None
    embed: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    """A run of a note under one heading (or before the first heading)."""

    heading_path: tuple[str, ...]
    """Heading trail from the top: ("Home Server", "Storage", "Backups"); () before the first heading."""
    level: int
    """Level of the section's own heading (1-6); 0 for the text before the first heading."""
    text: str
    """Readable text of the section: links rendered, comments dropped, block ids stripped."""
    start_line: int
    """1-based line of the heading (or the first body line) in the original file."""
    end_line: int
    """1-based last line of the section in the original file (inclusive)."""


@dataclass(frozen=True, slots=True)
class Note:
    """A parsed note: metadata plus readable sections. Produced by `parse`, consumed by `chunk`."""

    path: str
    """Vault-relative POSIX path, e.g. `Homelab/Postgres.md`."""
    title: str
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    """Tags without `#`, from frontmatter and inline, lowercased, de-duplicated, in first-seen order."""
    properties: Mapping[str, Scalar] = field(default_factory=dict)
    """Other scalar frontmatter properties, kept as metadata."""
    sections: tuple[Section, ...] = ()
    links: tuple[Link, ...] = ()
    opted_out: bool = False
    """True when the frontmatter asks for the note to stay out of the index (`askvault: false`)."""
    warnings: tuple[str, ...] = ()
    """Problems the parser worked around (malformed frontmatter, an unclosed comment…); the note still parsed."""
    plain_text: bool = False
    """True when the body was too heavy for the Markdown parser and was read as plain text (`parse.plain`): only
    `#` headings, fences, comments, links and tags were read, and the chunker cuts it by size alone."""
    paged: bool = False
    """True for a PDF (`parse.documents`): each section is a page, and a page is never chunked with another, so a
    citation opens on the page its text is on."""
    notices: tuple[str, ...] = ()
    """The warnings the user should see about this note (one sentence each, with the fix): frontmatter that could
    not be read, a body read as plain text. The indexer reports them (`index`'s summary, /api/status)."""
