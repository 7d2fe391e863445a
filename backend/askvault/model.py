"""The typed vocabulary every stage shares: notes, sections, links, chunks, hits and chat messages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Literal, NamedTuple

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


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Restrictions applied inside both retrieval legs (never after truncation)."""

    folder: str | None = None
    """Vault-relative folder prefix, e.g. `Homelab/`."""
    tag: str | None = None
    modified_after: float | None = None
    modified_before: float | None = None

    def is_empty(self) -> bool:
        return (
            self.folder is None and self.tag is None and self.modified_after is None and (self.modified_before is None)
        )

    def accepts(self, chunk: ChunkInfo) -> bool:
        """True when the chunk passes every filter that is set."""
        if self.folder is not None and not chunk.path.startswith(self.folder.rstrip("/") + "/"):
            return False
        if self.tag is not None and self.tag.lower().lstrip("#") not in chunk.tags:
            return False
        if self.modified_after is not None and chunk.mtime < self.modified_after:
            return False
        return not (self.modified_before is not None and chunk.mtime > self.modified_before)


@dataclass(frozen=True, slots=True)
class RankedId:
    """One entry of a single method's ranking."""

    chunk_id: str
    score: float


@dataclass(frozen=True, slots=True)
class TermStat:
    """A query term as keyword search used it."""

    term: str
    df: int
    idf: float


@dataclass(frozen=True, slots=True)
class Hit:
    """A fused search result with both per-method ranks kept (1-based; None when a method missed it)."""

    chunk: Chunk
    dense_rank: int | None
    keyword_rank: int | None
    fused_score: float
    dense_score: float | None = None
    """Cosine similarity from the dense leg, when it returned the chunk."""
    keyword_score: float | None = None
    """BM25 score from the keyword leg, when it returned the chunk."""
    boosts: tuple[str, ...] = ()
    """Query-side boosts applied to this chunk: `identifier:kodi-livingroom` (it holds that token and gained the
    identifier ranking's share), `mention:[[Postgres]]` / `tag:#homelab` (moved up for a link or tag in the
    query); empty when plain fusion placed it."""


SearchMode = Literal["hybrid", "dense", "keyword"]


@dataclass(frozen=True, slots=True)
class DateScopeReport:
    """A date phrase the question held and what retrieval did with it (shown in the inspector)."""

    phrase: str
    start: date | None
    """First day of the range; None when open."""
    end: date | None
    """Day after the last one (exclusive); None when open."""
    applied: bool
    """True when both legs searched only notes dated in the range."""
    basis: str
    """How notes are dated: `note_date_then_mtime` (a YYYY-MM-DD in the path, else the modification time)."""
    notes: int
    """Notes in the range when applied; 0 otherwise."""
    fallback_reason: str | None = None
    """Why it was not applied: `explicit_filter` or `nothing_in_range`; None when applied."""


@dataclass(frozen=True, slots=True)
class SearchTimings:
    """Where one search's time went, in milliseconds (`timings_ms` in docs/api.md); a leg that did not run is None.

    The defaults are an empty record, for a searcher that measures nothing."""

    embed: float | None = None
    """Embedding the query; set exactly when the dense leg ran."""
    dense: float | None = None
    keyword: float | None = None
    fusion: float = 0.0
    total: float = 0.0
    """The whole search, embedding included (and a date-scope retry with it)."""

    def to_json(self) -> dict[str, float]:
        """The `timings_ms` object: embed, dense, keyword, fusion, total, in that order, without the legs that
        did not run."""
        stages = {"embed": self.embed, "dense": self.dense, "keyword": self.keyword}
        shaped = {stage: ms for stage, ms in stages.items() if ms is not None}
        return {**shaped, "fusion": self.fusion, "total": self.total}


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Everything one search produced, including what the inspector shows."""

    query: str
    mode: SearchMode
    hits: list[Hit]
    """Fused ranking, best first."""
    terms: list[TermStat]
    """Query terms the keyword leg used, with document frequency and IDF."""
    counts: dict[str, int]
    """How many chunks each method matched: {"dense": n, "keyword": n}."""
    timings: SearchTimings
    dense_available: bool = True
    """False when the dense leg could not run (no embedding model); results are keyword-only."""
    date_scope: DateScopeReport | None = None
    """The question's date phrase, when date scoping is on and one was found."""


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
