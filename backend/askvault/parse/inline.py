"""One line of prose as readable text: links rendered, tags collected, callout and block-id syntax removed.

Only the inline layer is done with regular expressions; every pattern is linear (no nested ambiguous
quantifiers, possessive where a backtrack could repeat) so a 10 MB line or `[[` × 10,000 stays fast.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from askvault.model import Link
from askvault.parse.frontmatter import normalize_tag
from askvault.parse.links import (
    LinkResolver,
    is_attachment,
    link_text,
    split_url,
    split_wikilink,
    url_values,
)

_TICKS = re.compile(r"`+")
_QUOTE_PREFIX = re.compile(r"(?:[ \t]*+>)++[ \t]?")
_CALLOUT = re.compile(r"\[!([\w-]+)\][+-]?(?:[ \t]+(.*))?")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:")
_WEB_SCHEMES = frozenset({"http", "https", "ftp", "ftps", "mailto"})
_INLINE = re.compile(
    r"(?P<wiki>!?\[\[(?P<inner>(?:[^\[\]\n]|\[(?!\[)|\](?!\]))++)\]\])"
    r"|(?P<md>!?\[(?P<text>[^\[\]\n]*)\]\([ \t]*(?P<dest><[^<>\n]*>|(?:[^()\s<>]|\([^()\s]*+\))*+)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'))?[ \t]*\))"
    r"|<(?P<auto>[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>"
    r"|(?P<html></?(?P<tagname>[A-Za-z][A-Za-z0-9-]*)(?:\s[^<>\n]*+)?/?>)"
    r"|#(?P<tag>[\w/-]+)"
)


def _single_tick_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    find = text.find
    start = find("`")
    while start != -1:
        end = find("`", start + 1)
        if end == -1:
            break
        spans.append((start, end + 1))
        start = find("`", end + 1)
    return spans


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each inline code span: a backtick run up to the next run of the same length."""
    if "``" not in text:
        return _single_tick_spans(text)  # the common case, without building the run index
    runs = [m.span() for m in _TICKS.finditer(text)]
    if len(runs) < 2:
        return []
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        nxt = bisect_right(same, index)
        if nxt < len(same):
            closing = same[nxt]
            spans.append((start, runs[closing][1]))
            index = closing + 1
        else:
            index += 1
    return spans


def strip_block_id(line: str) -> str:
    """Drop a trailing Obsidian block id (` ^abc-123`) from a line."""
    text = line.rstrip()
    caret = text.rfind("^")
    if caret == -1 or (caret > 0 and text[caret - 1] not in " \t"):
        return line
    ident = text[caret + 1 :]
    if not ident or not all(ch.isascii() and (ch.isalnum() or ch == "-") for ch in ident):
        return line
    return text[:caret].rstrip()


MAX_INLINE_ELEMENTS = 20_000
"""Links, tags and HTML tags rendered per note; past this (only machine-made text gets there) the rest of
the note is kept as written, so the cost per note stays bounded."""


@dataclass
class InlineRenderer:
    """Renders lines of one note, collecting its links and inline tags in order."""

    source_path: str
    resolver: LinkResolver
    links: list[Link] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    budget: int = MAX_INLINE_ELEMENTS
    _html_end: int = -1
    _resolved: dict[str, str | None] = field(default_factory=dict)

    def _resolve(self, target: str) -> str | None:
        if target not in self._resolved:
            self._resolved[target] = self.resolver.resolve(target, self.source_path)
        return self._resolved[target]

    def prose_line(self, line: str) -> str:
        """A body line outside code: quote markers and callout syntax dropped, inline syntax rendered."""
        line = strip_block_id(line)
        quote = _QUOTE_PREFIX.match(line)
        if quote is not None:
            line = line[quote.end() :]
            callout = _CALLOUT.fullmatch(line.rstrip())
            if callout is not None:
                kind = callout.group(1).replace("-", " ").replace("_", " ").capitalize()
                title = callout.group(2)
                line = f"{kind}: {title.strip()}" if title and title.strip() else kind
        return self.inline(line).rstrip()

    def inline(self, text: str) -> str:
        """Render links, collect tags and drop HTML tags, leaving code spans verbatim."""
        if self.budget <= 0 or ("[" not in text and "<" not in text and "#" not in text):
            return text
        spans = code_spans(text) if "`" in text else []
        span_index = 0
        out: list[str] = []
        pos = 0
        self._html_end = -1
        while True:
            match = _INLINE.search(text, pos)
            if match is None:
                break
            start = match.start()
            while span_index < len(spans) and spans[span_index][1] <= start:
                span_index += 1
            if span_index < len(spans) and spans[span_index][0] <= start:
                end = spans[span_index][1]
                out.append(text[pos:end])
                pos = end
                continue
            out.append(text[pos:start])
            out.append(self._render(match, text))
            pos = match.end()
            if match.lastgroup == "html":
                self._html_end = pos
            self.budget -= 1
            if self.budget == 0:
                self.warnings.append(f"more than {MAX_INLINE_ELEMENTS} links and tags; the rest is kept as written")
                break
        out.append(text[pos:])
        return "".join(out)

    def _render(self, match: re.Match[str], text: str) -> str:
        kind = match.lastgroup
        if kind == "tag":
            return self._tag(match, text)
        if kind == "wiki":
            return self._wikilink(match.group("inner"), embed=text.startswith("!", match.start()))
        if kind == "md":
            embed = text.startswith("!", match.start())
            return self._markdown_link(match.group("text"), match.group("dest"), embed)
        if kind == "auto":
            return match.group("auto")
        return " " if match.group("tagname").lower() == "br" else ""

    def _tag(self, match: re.Match[str], text: str) -> str:
        start = match.start()
        if start > 0 and not text[start - 1].isspace() and start != self._html_end:
            return match.group()  # `a#b`, `page/#anchor`, `&#123;`: not tags (`<span>#tag` is one)
        tag = normalize_tag(match.group("tag"))
        if tag is not None:
            self.tags.append(tag)
        return match.group()

    def _wikilink(self, inner: str, embed: bool) -> str:
        parts = split_wikilink(inner)
        if not parts.target and parts.heading is None and parts.block is None:
            return f"[[{inner}]]" if not embed else f"![[{inner}]]"
        resolved = self._resolve(parts.target)
        if embed and is_attachment(parts.target):
            # An image or PDF: no text; `|300` after it is a display size, not an alias.
            self.links.append(Link(parts.target, resolved, parts.heading, parts.block, None, embed))
            return ""
        self.links.append(Link(parts.target, resolved, parts.heading, parts.block, parts.alias, embed))
        return link_text(parts.target, parts.heading, parts.alias)

    def _markdown_link(self, label: str, dest: str, embed: bool) -> str:
        label = label.strip()
        bare = dest.strip().strip("<>")
        scheme = _SCHEME.match(bare)
        if scheme is not None and not re.fullmatch(r"[A-Za-z]:", scheme.group()):
            if embed or scheme.group()[:-1].lower() not in _WEB_SCHEMES:
                return label
            values = url_values(bare)
            if label and values and values.lower() not in label.lower():
                return f"{label} ({values})"
            return label or values
        path, fragment = split_url(dest)
        heading = fragment if fragment and not fragment.startswith("^") else None
        block = fragment[1:] if fragment.startswith("^") else None
        if not path and not fragment:
            return label
        resolved = self._resolve(path)
        self.links.append(Link(path, resolved, heading, block, label or None, embed))
        if label or (embed and is_attachment(path)):
            return label
        return link_text(path, heading, None)
