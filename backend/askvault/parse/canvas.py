"""`canvas_markdown`: an Obsidian `.canvas` file (JSON Canvas 1.0) as Markdown that `parse_note` reads. Pure.

The rules (section line numbers then refer to this text, not to the JSON file):
- Groups: a card or group belongs to the smallest group whose box holds its whole box (touching edges count
  as inside; of two groups with the same box, the one listed first in the file holds the other). A labelled
  group is a heading: `## Label` at the top, one level deeper per nesting, never deeper than `######`. A group
  without a label is transparent: what it holds counts as held by the group around it.
- Order: the canvas's own cards first (under no heading), then its groups; inside a group the same (its cards,
  then its groups). Cards and groups are sorted top to bottom, then left to right (y, x, then file order), so
  the same file always gives the same text.
- Text cards: the Markdown as written (CRLF → LF), a blank line between cards. Headings in a card are moved
  under its group: the card's highest heading becomes one level below the group (level 2 outside any group),
  the others keep their distance to it, capped at 6; under a level-6 group they become plain lines. Setext
  headings become `#` headings, thematic breaks become blank lines (no `---` line can start frontmatter or make
  the line above a heading), comments are dropped, and a card left open (an unclosed code fence or `<pre>`) is
  closed, so that one card cannot change how the next is read. After a card with headings, the next card of
  the same group repeats the group's heading to get back under it; cards outside groups have no heading to
  return to, so such a card after one with headings reads as part of that card's last section. When the text
  cards together are too heavy for the Markdown parser (`plain.too_heavy`: `parse_note` then reads the text as
  plain text anyway), they are written as they are, without these repairs.
- File cards: `[[path]]` or `[[path#subpath]]`, images and PDFs too, so the link graph sees the file and its
  name is indexed. A path a wikilink cannot hold (`[]|#^`) becomes `[name](percent-encoded path)`.
- Link cards: `<url>` (spaces as `%20`); a URL without a scheme is written as plain text.
- Edges: a labelled edge becomes a line `A → B: label` after the card it starts from (after the heading of a
  group it starts from; from a group without label, after the card it ends at). A and B are short names
  (≤ 60 characters): the group's label, the file's name, the link's host and path, a text card's first words.
  Unlabelled edges are left out: an arrow alone says nothing a search could find that the two cards do not,
  and on a busy board such lines would outnumber the cards' own words.
- Bad input raises only `CanvasError`: not JSON, nested too deeply, not an object, `nodes` not a list, more than
  `max_nodes` nodes (or more than 4 × `max_nodes` edges). A node without its required fields (`id`, `type`,
  finite `x`/`y`/`width`/`height`, and `text`, `file` or `url`) is skipped, as is an edge with a bad end; an
  `edges` value that is not a list is ignored, as are unknown node types and fields. An empty file is an empty
  canvas: "". Anything else that fails (a bug) is a `CanvasError` too, naming the exception.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from askvault.errors import NoteError
from askvault.parse.blocks import Blocks, parse_blocks
from askvault.parse.decode import normalize_newlines
from askvault.parse.links import link_text, note_name, url_values
from askvault.parse.plain import too_heavy

MAX_NAME_CHARS = 60
"""Longest name of an edge's end in an `A → B: label` line."""
EDGES_PER_NODE = 4
"""More than `max_nodes` × this many edges is refused like too many nodes."""

_ROOT = -1
_FIX = "open it in Obsidian and save it again, or delete it"
_FIELD = {"text": "text", "file": "file", "link": "url", "group": "label"}
_PROBE = "# askvault canvas probe"
_CLOSERS = ("</script></pre></style></textarea>", "]]>", "?>")
_AUTOLINK = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*")
_NOT_IN_WIKILINK = re.compile(r"[\[\]|#^\n]")
_LEAD = re.compile(r"^[\s#>*+\-=`~]+")
_DELIMITER = re.compile(r"---[ \t]*")


class CanvasError(NoteError):
    """The file cannot be read as a canvas; the message is a predicate the caller prefixes with the file's path."""


@dataclass(frozen=True, slots=True)
class _Node:
    index: int
    """Position in the file's `nodes`: the last tie-break of every order."""
    id: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    value: str
    """The text (LF line ends), file path, URL, or label ("" for a group without one)."""
    subpath: str = ""

    def inside(self, group: _Node) -> bool:
        return (
            group.x <= self.x
            and group.y <= self.y
            and self.x + self.width <= group.x + group.width
            and self.y + self.height <= group.y + group.height
        )


def _what(value: object) -> str:
    kinds = {list: "a list", dict: "an object", str: "a string", bool: "true or false", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _load(text: str, max_nodes: int) -> tuple[list[Any], list[Any]]:
    """The file's `nodes` and `edges` lists."""
    try:
        # Integers as floats: coordinates are only compared, and int() refuses numbers over 4,300 digits.
        data = json.loads(text, parse_int=float)
    except json.JSONDecodeError as exc:
        raise CanvasError(f"is not a valid canvas (not JSON: line {exc.lineno}, column {exc.colno}); {_FIX}") from None
    except RecursionError:
        raise CanvasError(f"is not a valid canvas (its JSON is nested too deeply); {_FIX}") from None
    if not isinstance(data, dict):
        raise CanvasError(f"is not a valid canvas (its JSON is {_what(data)}, not an object); {_FIX}")
    nodes, edges = data.get("nodes"), data.get("edges")
    nodes = [] if nodes is None else nodes
    if not isinstance(nodes, list):
        raise CanvasError(f'is not a valid canvas ("nodes" is {_what(nodes)}, not a list); {_FIX}')
    edges = edges if isinstance(edges, list) else []
    limits = ((len(nodes), "cards and groups", max_nodes), (len(edges), "connections", EDGES_PER_NODE * max_nodes))
    for count, what, limit in limits:
        if count > limit:
            sentence = f"is too large to index ({count:,} {what}; the limit is {limit:,})"
            raise CanvasError(f"{sentence}; split it into smaller canvases")
    return nodes, edges


def _node(index: int, raw: object) -> _Node | None:
    """The node, or None when a field it needs is missing or of the wrong type."""
    if not isinstance(raw, dict):
        return None
    kind, node_id, box = raw.get("type"), raw.get("id"), [raw.get(key) for key in ("x", "y", "width", "height")]
    if not isinstance(kind, str) or kind not in _FIELD or not isinstance(node_id, str):
        return None
    x, y, width, height = (v if isinstance(v, float) and math.isfinite(v) else math.nan for v in box)
    if not (width >= 0 and height >= 0 and math.isfinite(x) and math.isfinite(y)):  # JSON ints load as floats
        return None
    value = raw.get(_FIELD[kind])
    if kind == "group":
        value = " ".join(value.split()) if isinstance(value, str) else ""
    elif not isinstance(value, str) or (kind != "text" and not value.strip()):
        return None
    value = normalize_newlines(value) if kind == "text" else value.strip()
    subpath = raw.get("subpath")
    subpath = subpath.strip().lstrip("#") if kind == "file" and isinstance(subpath, str) else ""
    return _Node(index, node_id, kind, x, y, width, height, value, subpath)


def _name(node: _Node) -> str:
    """A short one-line name for an edge's end; it cannot make its line a heading, quote or list item."""
    if node.kind == "text":
        lines = (line.replace("[[", "").replace("]]", "") for line in node.value.split("\n"))
        raw = next((line for line in lines if _LEAD.sub("", line)), "")
    elif node.kind == "file":
        raw = link_text(node.value, node.subpath if node.subpath[:1] not in ("", "^") else None, None)
    else:
        raw = (url_values(node.value) or node.value) if node.kind == "link" else node.value
    name = _LEAD.sub("", " ".join(raw.split())).rstrip(":") or ("group" if node.kind == "group" else "card")
    if len(name) <= MAX_NAME_CHARS:
        return name
    cut = name.rfind(" ", 0, MAX_NAME_CHARS)
    return name[: cut if cut > MAX_NAME_CHARS // 3 else MAX_NAME_CHARS - 1].rstrip() + "…"


def _closed(lines: list[str]) -> tuple[Blocks, list[str]]:
    """The card's blocks and comment-free lines, with a closing line added if the card would run on."""
    fence = 3
    for closer in ("", "`", "~", *_CLOSERS):
        candidate = [*lines, closer * fence if closer in ("`", "~") else closer] if closer else lines
        blocks, cleaned, _ = parse_blocks([*candidate, "", _PROBE], 1)
        probe = len(candidate) + 1
        if any(heading.start == probe for heading in blocks.headings):
            blocks.headings = [heading for heading in blocks.headings if heading.start != probe]
            return blocks, cleaned[: len(candidate)]
        # Dropping an unclosed `%%` can join two runs of backticks: measure the fence on the cleaned lines.
        fence = max([fence, *(len(run) for line in cleaned for run in re.findall(r"`{3,}|~{3,}", line))])
    blocks, cleaned, _ = parse_blocks(lines, 1)
    return blocks, ["    " + line for line in cleaned]  # not found (a bug): as an indented code block it ends


def _text_card(text: str, level: int, heavy: bool) -> tuple[str, bool]:
    """The card's Markdown with its headings placed under a heading of `level`, and whether it has any left."""
    lines = text.split("\n")
    placed = False
    if not heavy:
        blocks, lines = _closed(lines)
        top = min((heading.level for heading in blocks.headings if heading.content.strip()), default=1)
        for number in blocks.rules:
            lines[number] = ""
        for heading in blocks.headings:
            content = " ".join(part.strip() for part in heading.content.split("\n")).strip()
            lines[heading.start : heading.end] = [""] * (heading.end - heading.start)
            if content and level < 6:
                lines[heading.start] = "#" * min(6, level + 1 + heading.level - top) + " " + content
                placed = True
            elif content:
                lines[heading.start] = content
    kept = [number for number, line in enumerate(lines) if line.strip()]
    return ("\n".join(lines[kept[0] : kept[-1] + 1]) if kept else ""), placed


def _card(node: _Node, level: int, heavy: bool) -> tuple[str, bool]:
    if node.kind == "text":
        return _text_card(node.value, level, heavy)
    if node.kind == "link":
        url = node.value.replace(" ", "%20")
        return (f"<{url}>" if _AUTOLINK.fullmatch(url) else _LEAD.sub("", " ".join(node.value.split()))), False
    sub = f"#{node.subpath}" if node.subpath else ""
    if not _NOT_IN_WIKILINK.search(node.value) and not re.search(r"[\[\]|\n]", sub):
        return f"[[{node.value}{sub}]]", False
    label = re.sub(r"[\[\]\n]", "", note_name(node.value))
    return f"[{label}]({quote(node.value)}{'#' + quote(sub[1:]) if sub else ''})", False


def _edges(edges: list[Any], nodes: list[_Node]) -> dict[int, list[str]]:
    """`A → B: label` lines by the node they are written after."""
    by_id: dict[str, _Node] = {}
    for node in nodes:
        by_id.setdefault(node.id, node)
    lines: dict[int, list[str]] = {}
    for edge in edges:
        if not isinstance(edge, dict):
            continue
        first, second, label = edge.get("fromNode"), edge.get("toNode"), edge.get("label")
        if not (isinstance(first, str) and isinstance(second, str) and isinstance(label, str) and label.strip()):
            continue
        start, end = by_id.get(first), by_id.get(second)
        anchor = next((n.index for n in (start, end) if n is not None and (n.kind != "group" or n.value)), None)
        if start is not None and end is not None and anchor is not None:
            lines.setdefault(anchor, []).append(f"{_name(start)} → {_name(end)}: {' '.join(label.split())}")
    return lines


def _markdown(text: str, max_nodes: int) -> str:
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return ""
    raw_nodes, raw_edges = _load(text, max_nodes)
    nodes = [node for index, raw in enumerate(raw_nodes) if (node := _node(index, raw)) is not None]
    edge_lines = _edges(raw_edges, nodes)
    heavy = too_heavy([line for node in nodes if node.kind == "text" for line in node.value.split("\n")])

    # Largest first; a group's holder is the smallest group before it that holds it (no cycles on equal boxes).
    groups = sorted((n for n in nodes if n.kind == "group"), key=lambda g: (-(g.width * g.height), g.y, g.x, g.index))
    holder: dict[int, int] = {}  # group -> the labelled group (or _ROOT) it is written under
    level = {_ROOT: 1}
    for rank, group in enumerate(groups):
        outer = next((groups[i] for i in range(rank - 1, -1, -1) if group.inside(groups[i])), None)
        holder[group.index] = _ROOT if outer is None else outer.index if outer.value else holder[outer.index]
        if group.value:
            level[group.index] = min(6, level[holder[group.index]] + 1)
    cards: dict[int, list[_Node]] = {}
    children: dict[int, list[int]] = {}
    for node in sorted(nodes, key=lambda n: (n.y, n.x, n.index)):
        if node.kind == "group" and node.value:
            children.setdefault(holder[node.index], []).append(node.index)
        elif node.kind != "group":
            outer = next((g for g in reversed(groups) if node.inside(g)), None)
            where = _ROOT if outer is None else outer.index if outer.value else holder[outer.index]
            cards.setdefault(where, []).append(node)

    headings = {group.index: f"{'#' * level[group.index]} {group.value}" for group in groups if group.value}
    out: list[str] = []
    current: int | None = _ROOT  # whose section the next line falls in (None: under a card's own heading)
    stack = [_ROOT]
    while stack:
        owner = stack.pop()
        if owner != _ROOT:
            out.append(headings[owner])
            current = owner
        out.extend(["\n".join(edge_lines[owner])] if owner in edge_lines else [])
        for card in cards.get(owner, []):
            if current != owner and owner != _ROOT:
                out.append(headings[owner])
            body, placed = _card(card, level[owner], heavy)
            out.extend(part for part in (body, "\n".join(edge_lines.get(card.index, []))) if part)
            current = None if placed else owner
        stack.extend(reversed(children.get(owner, [])))
    lines = "\n\n".join(out).split("\n")
    # Only a card too heavy to read as Markdown can start with `---`: that must not become frontmatter.
    first = next((n for n, line in enumerate(lines) if line.strip() and not _DELIMITER.fullmatch(line)), len(lines))
    return "\n".join(lines[first:]) + "\n" if first < len(lines) else ""


def canvas_markdown(text: str, *, max_nodes: int = 5000) -> str:
    """The canvas `text` (a `.canvas` file's JSON) as Markdown for `parse_note`; raises only `CanvasError`."""
    try:
        return _markdown(text, max_nodes)
    except CanvasError:
        raise
    except Exception as exc:  # a bug here must cost one canvas, with a sentence, never the indexing run
        raise CanvasError(f"could not be read as a canvas (internal error: {type(exc).__name__}); {_FIX}") from exc
