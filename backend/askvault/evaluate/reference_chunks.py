"""The reference retriever's pure parts: heading-and-paragraph chunking, its BM25 tokenizer, and RRF fusion."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import Stemmer

MAX_CHARS = 1500
"""A chunk's raw text is at most this long, unless one paragraph alone is longer: that is a chunk by itself, not
cut, so every chunk stays whole lines and its line numbers stay exact (the evaluation reads them from disk)."""
RRF_K = 60

# 40 common English words: "into" and "so" of the usual list are left out to keep the count at 40.
# fmt: off
STOP_WORDS: frozenset[str] = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "how", "i", "if", "in",
    "is", "it", "of", "on", "or", "that", "the", "their", "then", "there", "these", "this", "to", "was", "what",
    "when", "where", "which", "who", "why", "will", "with", "you",
))
# fmt: on

_HEADING = re.compile(r"(#{1,6}) (.*)")
# Any indentation: fences inside list items are indented, and a heading inside one is still code.
_FENCE_OPEN = re.compile(r"\s*(`{3,}|~{3,})")
_FENCE_CLOSE = re.compile(r"\s*(`{3,}|~{3,})\s*")
_WORD = re.compile(r"[\w][\w.\-]*[\w]|\w", re.UNICODE)
_JOINERS = re.compile(r"[.\-]")
_STEMMER = Stemmer.Stemmer("english")


@dataclass(frozen=True, slots=True)
class RefChunk:
    """One reference chunk; `start_line`/`end_line` are 1-based, inclusive, in the file's text as the indexer
    reads it (`evaluate.files`: a note's own lines, a canvas's Markdown, a PDF's synthetic page text)."""

    heading_path: tuple[str, ...]
    start_line: int
    end_line: int
    text: str
    """The text's lines start_line..end_line, exactly as they are, joined by newlines."""


def note_title(path: str) -> str:
    """The file name without `.md` (a PDF or canvas keeps its suffix)."""
    name = path.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def index_text(title: str, chunk: RefChunk) -> str:
    """What is embedded and keyword-indexed: `title > trail` (just the title when the trail is empty), the text."""
    head = " > ".join((title, *chunk.heading_path))
    return f"{head}\n{chunk.text}"


def frontmatter_end(lines: Sequence[str]) -> int:
    """How many leading lines a YAML frontmatter block takes (0 when there is none, or it never closes)."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i + 1
    return 0


def _fence_marks(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (its fence lines included). A fence closes on a
    line of the same character, at least as long, and nothing else; an unclosed fence runs to the end."""
    inside: list[bool] = []
    fence: str | None = None
    for line in lines:
        if fence is None:
            opened = _FENCE_OPEN.match(line)
            if opened:
                fence = opened.group(1)
            inside.append(fence is not None)
            continue
        inside.append(True)
        closed = _FENCE_CLOSE.fullmatch(line)
        if closed and closed.group(1)[0] == fence[0] and len(closed.group(1)) >= len(fence):
            fence = None
    return inside


def _paragraphs(lines: Sequence[str], fenced: Sequence[bool], start: int, end: int) -> list[tuple[int, int]]:
    """0-based inclusive (first, last) line ranges of the paragraphs in lines[start:end]: runs split by blank
    lines, except blank lines inside a fence (a fence is never split)."""
    spans: list[tuple[int, int]] = []
    first: int | None = None
    for i in range(start, end):
        if not lines[i].strip() and not fenced[i]:
            if first is not None:
                spans.append((first, i - 1))
                first = None
        elif first is None:
            first = i
    if first is not None:
        spans.append((first, end - 1))
    return spans


def _pack(lines: Sequence[str], spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Greedy packing of consecutive paragraphs into ranges whose raw text is at most MAX_CHARS."""
    packed: list[tuple[int, int]] = []
    for first, last in spans:
        if packed:
            start = packed[-1][0]
            if len("\n".join(lines[start : last + 1])) <= MAX_CHARS:
                packed[-1] = (start, last)
                continue
        packed.append((first, last))
    return packed


def chunk_text(text: str) -> list[RefChunk]:
    """Reference chunks of one decoded note (LF line ends): sections at ATX headings outside fences, each body
    (heading line excluded) packed by paragraphs; whitespace-only chunks are dropped."""
    lines = text.split("\n")
    body_start = frontmatter_end(lines)
    fenced = [False] * body_start + _fence_marks(lines[body_start:])
    # (first body line, end, trail) per section; text before the first heading has an empty trail.
    sections: list[tuple[int, int, tuple[str, ...]]] = []
    stack: list[tuple[int, str]] = []
    section_start, trail = body_start, tuple[str, ...]()
    for i in range(body_start, len(lines)):
        heading = None if fenced[i] else _HEADING.fullmatch(lines[i])
        if heading is None:
            continue
        sections.append((section_start, i, trail))
        level = len(heading.group(1))
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, heading.group(2).strip()))
        section_start, trail = i + 1, tuple(name for _, name in stack)
    sections.append((section_start, len(lines), trail))

    chunks: list[RefChunk] = []
    for start, end, heading_path in sections:
        for first, last in _pack(lines, _paragraphs(lines, fenced, start, end)):
            raw = "\n".join(lines[first : last + 1])
            if raw.strip():
                chunks.append(RefChunk(heading_path, first + 1, last + 1, raw))
    return chunks


def page_chunks(lines: Sequence[str], pages: Sequence[tuple[str, int, int]]) -> list[RefChunk]:
    """Reference chunks of a PDF's synthetic text (`parse.documents.pdf_note`): each page apart, its body (the
    `Page N` heading line at `start_line` excluded, up to `end_line`, 1-based) packed by paragraphs as plain text
    (a page's `#` or fence is the page's, not Markdown), under the trail (`Page N`,) as the indexer's chunks."""
    never_fenced = [False] * len(lines)
    chunks: list[RefChunk] = []
    for heading, start_line, end_line in pages:
        for first, last in _pack(lines, _paragraphs(lines, never_fenced, start_line, end_line)):
            raw = "\n".join(lines[first : last + 1])
            if raw.strip():
                chunks.append(RefChunk((heading,), first + 1, last + 1, raw))
    return chunks


def tokenize(text: str) -> list[str]:
    """Lower-cased words (a word with `.` or `-` kept whole and also split into its parts), stop words dropped,
    then English Snowball stems."""
    words: list[str] = []
    for token in _WORD.findall(text.lower()):
        words.append(token)
        if "." in token or "-" in token:
            words.extend(part for part in _JOINERS.split(token) if part)
    stems: list[str] = _STEMMER.stemWords([word for word in words if word not in STOP_WORDS])
    return stems


def top_indices(scores: Sequence[float], n: int, *, positive_only: bool = False) -> list[int]:
    """Indices of the n highest scores, best first; ties keep index order. `positive_only` drops scores <= 0."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    if positive_only:
        order = [i for i in order if scores[i] > 0]
    return order[:n]


@dataclass(frozen=True, slots=True)
class Fused:
    """One fused item: its index, RRF score, and 1-based rank in each leg (None when a leg missed it)."""

    index: int
    score: float
    dense_rank: int | None
    keyword_rank: int | None


def rrf(dense: Sequence[int], keyword: Sequence[int], k: int = RRF_K) -> list[Fused]:
    """Reciprocal rank fusion of two ranked index lists: score = Σ 1/(k + rank), ranks 1-based. Exact ties go
    to the better single-leg rank, then to the lower index, so the order never depends on set iteration."""
    dense_ranks = {index: rank for rank, index in enumerate(dense, 1)}
    keyword_ranks = {index: rank for rank, index in enumerate(keyword, 1)}
    fused: list[Fused] = []
    for index in dict.fromkeys([*dense, *keyword]):
        d, w = dense_ranks.get(index), keyword_ranks.get(index)
        score = (1.0 / (k + d) if d else 0.0) + (1.0 / (k + w) if w else 0.0)
        fused.append(Fused(index, score, d, w))
    best = {f.index: min(r for r in (f.dense_rank, f.keyword_rank) if r is not None) for f in fused}
    return sorted(fused, key=lambda f: (-f.score, best[f.index], f.index))
