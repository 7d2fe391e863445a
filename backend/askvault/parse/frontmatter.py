"""YAML frontmatter: split it off, load it safely and boundedly, pick out title, aliases, tags and properties.

Obsidian reads frontmatter only when the very first line is `---`; it ends at the next `---` line. A closed
block that cannot be read (a YAML error, a tab, an unclosed quote or bracket, a bomb-like block, something that
is not key: value pairs) gives no properties, but it is still frontmatter: the body after the closing line is
indexed as usual (its headings intact), the title and the opt-out key are taken from simple lines of it, and
a notice says what is wrong and how to fix it. Without a closing line there is no frontmatter (as in Obsidian)
and the whole note is text; a block over MAX_FRONTMATTER_CHARS is read as text too. Repeated keys keep the
last value, with a notice. `Frontmatter.notices` are the problems the indexer reports for the note.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import yaml

from askvault.model import Scalar
from askvault.parse.frontmatter_repair import leading_key_lines, lenient, salvage, yaml_problem

MAX_FRONTMATTER_CHARS = 64 * 1024
"""Larger blocks are not parsed as YAML (real properties are a few hundred bytes)."""
MAX_YAML_NODES = 5_000
"""Composed nodes, alias references included: a billion-laughs block stops here instead of growing."""
MAX_YAML_DEPTH = 64
MAX_TITLE_CHARS = 300

_DELIMITER = re.compile(r"---[ \t]*")
_OPT_OUT_VALUES = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """What the frontmatter block said, and how many of the note's lines it takes."""

    body_start: int = 0
    """0-based index of the first body line: 0 when there is no (valid) frontmatter."""
    title: str | None = None
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    properties: dict[str, Scalar] = field(default_factory=dict)
    link_sources: tuple[str, ...] = ()
    """Every string value, so `up: "[[Home]]"`-style property links can be picked up."""
    opted_out: bool = False
    warnings: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    """The warnings the user should see (a sentence each, with the fix); also in `warnings`."""
    blank_lines: tuple[int, ...] = ()
    """Delimiter lines to blank when a block is read as body text (else `---` makes a heading)."""


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses documents with too many nodes or alias references."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._nodes = 0
        self.duplicate: tuple[str, int, int] | None = None
        """The first key a mapping repeats, with the note's line numbers of both (the block starts on line 2)."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._nodes += 1
        if self._nodes > MAX_YAML_NODES:
            raise yaml.YAMLError(f"more than {MAX_YAML_NODES} YAML nodes (aliases included)")
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[object, object]:
        if self.duplicate is None:
            seen: dict[str, int] = {}
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        self.duplicate = (key.value, seen[key.value] + 2, key.start_mark.line + 2)
                        break
                    seen[key.value] = key.start_mark.line
        return super().construct_mapping(node, deep)


def _too_deep(block: str) -> bool:
    """True when brackets nest past MAX_YAML_DEPTH (PyYAML's recursive composer would be slow, then fail)."""
    depth = 0
    for char in block:
        if char in "[{":
            depth += 1
            if depth > MAX_YAML_DEPTH:
                return True
        elif char in "]}":
            depth = max(0, depth - 1)
    return False


def _load(block: str) -> tuple[object, tuple[str, int, int] | None]:
    """The block's data, and the first repeated key (name, both line numbers) or None."""
    if ("[" in block or "{" in block) and _too_deep(block):
        raise yaml.YAMLError(f"lists or mappings nested more than {MAX_YAML_DEPTH} deep")
    loader = _BoundedLoader(block)
    try:
        return loader.get_single_data(), loader.duplicate
    finally:
        loader.dispose()


def _scalar(value: object) -> Scalar | None:
    """A property value as a Scalar; None when it is not one (mappings, nested lists)."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return None


def _strings(value: object) -> Iterator[str]:
    """Scalar items of a value that is a scalar or a flat list (nested structures are not walked)."""
    items = value if isinstance(value, list) else [value]
    for item in items:
        scalar = _scalar(item)
        if scalar is not None and not isinstance(scalar, bool):
            yield str(scalar)


def normalize_tag(raw: str) -> str | None:
    """`#Project/Alpha` → `project/alpha`; None for empty or purely numeric tags (Obsidian rejects them)."""
    tag = raw.strip().lstrip("#").rstrip("/").lower()
    if not tag or all(ch.isdigit() for ch in tag):
        return None
    return tag


def _tags(value: object) -> list[str]:
    found: list[str] = []
    for item in _strings(value):
        # Obsidian splits a string value on commas and spaces (`tags: a, b` or `tags: a b`).
        for part in re.split(r"[,\s]+", item):
            tag = normalize_tag(part)
            if tag is not None:
                found.append(tag)
    return found


def _aliases(value: object) -> list[str]:
    found: list[str] = []
    for item in _strings(value):
        parts = item.split(",") if not isinstance(value, list) else [item]
        found.extend(part.strip() for part in parts if part.strip())
    return found


def _opted_out(value: object) -> bool:
    if value is False:
        return True
    if isinstance(value, bool) or not isinstance(value, str | int):
        return False
    return str(value).strip().lower() in _OPT_OUT_VALUES


def _string_values(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield from (item for item in value if isinstance(item, str))


def _interpret(data: dict[object, object], body_start: int, opt_out_key: str) -> Frontmatter:
    title: str | None = None
    aliases: list[str] = []
    tags: list[str] = []
    properties: dict[str, Scalar] = {}
    link_sources: list[str] = []
    opted_out = False
    for raw_key, value in data.items():
        key = str(raw_key)
        lowered = key.strip().lower()
        link_sources.extend(_string_values(value))
        if lowered == "title":
            scalar = _scalar(value)
            if scalar is not None and str(scalar).strip():
                title = str(scalar).strip()[:MAX_TITLE_CHARS]
        elif lowered in ("aliases", "alias"):
            aliases.extend(_aliases(value))
        elif lowered in ("tags", "tag"):
            tags.extend(_tags(value))
        elif lowered == opt_out_key.lower():
            opted_out = _opted_out(value)
        else:
            scalar = _scalar(value)
            if scalar is not None or value is None:
                properties[key] = scalar
            elif isinstance(value, list) and value:
                # Lists of scalars (cssclasses, related…) stay searchable as one string.
                joined = ", ".join(_strings(value))
                if joined:
                    properties[key] = joined
    return Frontmatter(
        body_start=body_start,
        title=title,
        aliases=tuple(dict.fromkeys(aliases)),
        tags=tuple(dict.fromkeys(tags)),
        properties=properties,
        link_sources=tuple(link_sources),
        opted_out=opted_out,
    )


def _body_after(lines: list[str], end: int, notice: str, opt_out_key: str) -> Frontmatter:
    """A closed block that says nothing usable: it is still frontmatter (as in Obsidian), so the body starts
    after its closing line; only a simple `title:` line and the opt-out key are taken from it."""
    salvaged = salvage(lines[1:end], ("title", opt_out_key.lower()))
    title = salvaged.get("title")
    return Frontmatter(
        body_start=end + 1,
        title=title[:MAX_TITLE_CHARS] if isinstance(title, str) and title.strip() else None,
        opted_out=_opted_out(salvaged[opt_out_key.lower()]) if opt_out_key.lower() in salvaged else False,
        warnings=(notice,),
        notices=(notice,),
    )


def _as_body(end: int, notice: str, opted_out: bool) -> Frontmatter:
    """No metadata; the block is read as text with its delimiter lines blanked (else `---` makes a heading)."""
    return Frontmatter(opted_out=opted_out, warnings=(notice,), notices=(notice,), blank_lines=(0, end))


def _unclosed(lines: list[str], opt_out_key: str) -> Frontmatter:
    """No closing line: like Obsidian, no frontmatter, and the whole note is text. A note may open with a rule,
    so this is reported only when the next lines look like properties (their opt-out key still holds)."""
    run = leading_key_lines(lines[1:])
    if not run:
        return Frontmatter()
    salvaged = salvage(run, (opt_out_key.lower(),))
    opted_out = _opted_out(salvaged[opt_out_key.lower()]) if salvaged else False
    notice = (
        "frontmatter has no closing '---' line, so the whole note is indexed as text without properties — "
        "add a '---' line after the last property"
    )
    return Frontmatter(opted_out=opted_out, warnings=(notice,), notices=(notice,), blank_lines=(0,))


def read_frontmatter(lines: list[str], opt_out_key: str) -> Frontmatter:
    """Find and interpret the frontmatter at the top of `lines` (the note split on LF)."""
    if not lines or not _DELIMITER.fullmatch(lines[0]):
        return Frontmatter()
    end = next((i for i in range(1, len(lines)) if _DELIMITER.fullmatch(lines[i])), None)
    if end is None:
        return _unclosed(lines, opt_out_key)
    block = "\n".join(lines[1:end])
    if len(block) > MAX_FRONTMATTER_CHARS:
        # So long a block is more likely text between two rules than properties: it stays searchable.
        size = f"{MAX_FRONTMATTER_CHARS // 1024} KiB"
        notice = f"frontmatter not read: it is larger than {size}, so it is indexed as text — shorten it"
        key = opt_out_key.lower()
        salvaged = salvage(lines[1:end], (key,))
        return _as_body(end, notice, _opted_out(salvaged[key]) if key in salvaged else False)
    try:
        data, duplicate = _load(block)
    except Exception as exc:  # YAML errors, impossible dates (ValueError), deep nesting (RecursionError)…
        simple = lenient(block)
        if simple is None:
            notice = (
                f"frontmatter ignored: {yaml_problem(exc, block)}; the note is indexed without its properties — "
                "fix the YAML between the '---' lines"
            )
            return _body_after(lines, end, notice, opt_out_key)
        # Obsidian reads these simple lines, so they are no problem to report.
        found = _interpret(simple, end + 1, opt_out_key)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return replace(found, warnings=(f"frontmatter is not valid YAML ({first}); read as simple key: value lines",))
    if data is None:
        return Frontmatter(body_start=end + 1)
    if not isinstance(data, dict):
        kind = "list" if isinstance(data, list) else "single value"
        notice = (
            f"frontmatter ignored: it is a {kind}, not key: value lines; the note is indexed without its "
            "properties — write each property as 'key: value'"
        )
        return _body_after(lines, end, notice, opt_out_key)
    found = _interpret(data, end + 1, opt_out_key)
    if duplicate is None:
        return found
    key, first_line, second_line = duplicate
    notice = (
        f"frontmatter repeats the key '{key}' (lines {first_line} and {second_line}); the last value is used — "
        "delete the line you do not want"
    )
    return replace(found, warnings=(notice,), notices=(notice,))
