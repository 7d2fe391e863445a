"""Chunks as the index holds them: what a passage is, how much of it says nothing, and its texts."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple


@dataclass(frozen=True, slots=True)
class Noise:
    """What share of a chunk says nothing of its own (`chunk.boilerplate`), in percent of its visible characters:
    lines the vault repeats across many notes (templates, footers), lines that are only links, query blocks."""

    template: int = 0
    links: int = 0
    query: int = 0

    @property
    def informative(self) -> int:
        """The share of the chunk's characters on lines of its own prose (0-100)."""
        return max(0, 100 - self.template - self.links - self.query)


@lru_cache(maxsize=4096)
def noise_of(template: int = 0, links: int = 0, query: int = 0) -> Noise:
    """One shared `Noise` per value: most chunks have none, and a million chunks must not hold a million copies."""
    return Noise(template, links, query)


NO_NOISE = noise_of()


@dataclass(frozen=True, slots=True)
class ChunkInfo:
    """A chunk without its text: what the in-memory catalog holds for every chunk (the texts stay in the
    manifest, read back for the few chunks a request shows, sends or matches literally)."""

    id: str
    """Stable id: derived from path, heading trail and ordinal, so an unchanged chunk keeps its id."""
    path: str
    title: str
    heading_path: tuple[str, ...]
    start_line: int
    end_line: int
    tags: tuple[str, ...] = ()
    mtime: float = 0.0
    """The note's modification time (seconds since the epoch), for date filters."""
    language: str = ""
    """The note's language as an ISO 639-1 code (`de`, `zh`): from its frontmatter (`lang`/`language`) or
    detected; "" when unknown, and the keyword leg then uses the configured `stem_language`."""
    aliases: tuple[str, ...] = ()
    """The note's frontmatter aliases, as written: a `[[link]]` to one of them names the note. (The alias header
    of `index_text` is how the retrieval legs see them; this is how everything else does.)"""
    noise: Noise = NO_NOISE
    """How much of the chunk is template, links or query (`chunk.boilerplate`); template and query lines are left
    out of its `index_text`."""

    def info(self) -> ChunkInfo:
        """The chunk without its texts (what the catalog keeps): itself."""
        return self

    def with_text(self, text: str, index_text: str) -> Chunk:
        return Chunk(
            id=self.id,
            path=self.path,
            title=self.title,
            heading_path=self.heading_path,
            start_line=self.start_line,
            end_line=self.end_line,
            tags=self.tags,
            mtime=self.mtime,
            language=self.language,
            aliases=self.aliases,
            text=text,
            index_text=index_text,
            noise=self.noise,
        )


@dataclass(frozen=True, slots=True, init=False)
class Chunk(ChunkInfo):
    """The unit that is embedded, keyword-indexed, retrieved and cited: a `ChunkInfo` with its texts."""

    # kw_only only to let them follow the defaults: the written-out __init__ below takes them by position too.
    text: str = field(kw_only=True)
    """The chunk's readable text, as shown to the user and sent to the model."""
    index_text: str = field(kw_only=True)
    """What is embedded and keyword-indexed: title and heading trail, then the text."""

    def __init__(
        self,
        id: str,
        path: str,
        title: str,
        heading_path: tuple[str, ...],
        start_line: int,
        end_line: int,
        text: str,
        index_text: str,
        tags: tuple[str, ...] = (),
        mtime: float = 0.0,
        language: str = "",
        aliases: tuple[str, ...] = (),
        noise: Noise = NO_NOISE,
    ) -> None:
        # Written out (the generated one would put the texts last): the arguments keep the order they had
        # before `ChunkInfo` split off, texts after the lines. Frozen, so each field is set as dataclasses do.
        set_field = object.__setattr__
        set_field(self, "id", id)
        set_field(self, "path", path)
        set_field(self, "title", title)
        set_field(self, "heading_path", heading_path)
        set_field(self, "start_line", start_line)
        set_field(self, "end_line", end_line)
        set_field(self, "text", text)
        set_field(self, "index_text", index_text)
        set_field(self, "tags", tags)
        set_field(self, "mtime", mtime)
        set_field(self, "language", language)
        set_field(self, "aliases", aliases)
        set_field(self, "noise", noise)

    def info(self) -> ChunkInfo:
        """The chunk without its texts (what the catalog keeps)."""
        return ChunkInfo(
            self.id,
            self.path,
            self.title,
            self.heading_path,
            self.start_line,
            self.end_line,
            self.tags,
            self.mtime,
            self.language,
            self.aliases,
            self.noise,
        )


class ChunkText(NamedTuple):
    """What `ChunkInfo` leaves out, as the manifest holds it, with the row's line range (0: not read)."""

    text: str
    index_text: str
    start_line: int = 0
    end_line: int = 0
