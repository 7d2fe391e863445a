"""YAML frontmatter: split it off, load it safely and boundedly, pick out title, aliases, tags and properties.

Obsidian reads frontmatter only when the very first line is `---`; it ends at the next `---` line. Any
problem (no closing line, a YAML error, a huge or bomb-like block, something that is not a mapping) means
"no metadata": the block's lines are then read as ordinary body text, so a typo never loses the note, and
a warning says what happened.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import yaml

from askvault.model import Scalar

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
    blank_lines: tuple[int, ...] = ()
    """Delimiter lines to blank when an invalid block is read as body text (else `---` makes a heading)."""


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses documents with too many nodes or alias references."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._nodes = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._nodes += 1
        if self._nodes > MAX_YAML_NODES:
            raise yaml.YAMLError(f"more than {MAX_YAML_NODES} YAML nodes (aliases included)")
        return super().compose_node(parent, index)


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


def _load(block: str) -> object:
    if ("[" in block or "{" in block) and _too_deep(block):
        raise yaml.YAMLError(f"lists or mappings nested more than {MAX_YAML_DEPTH} deep")
    loader = _BoundedLoader(block)
    try:
        return loader.get_single_data()
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


_KEY_LINE = re.compile(r"([^\s:#][^:]*?):(?:[ \t]+(.*))?")
_ITEM_LINE = re.compile(r"[ \t]*-[ \t]+(.*)")
_NOT_PLAIN = frozenset("[{&*!|>%@`")


def _plain(value: str) -> str | bool:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value.lower() == "true" if value.lower() in ("true", "false") else value


def _lenient(block: str) -> dict[object, object] | None:
    """Simple `key: value` / `key: [a, b]` / `- item` lines, for blocks PyYAML rejects but Obsidian reads.

    PyYAML is stricter than Obsidian's parser (`aliases: [Am I a Data Engineer?, …]` fails on the `?`).
    Anything beyond these simple shapes returns None and the block is read as body text.
    """
    data: dict[object, object] = {}
    key: str | None = None
    for line in block.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM_LINE.fullmatch(line)
        if item is not None and key is not None:
            items = data.get(key)
            if not isinstance(items, list):
                items = data[key] = []
            items.append(_plain(item.group(1)))
            continue
        match = _KEY_LINE.fullmatch(line)
        if match is None or line[0] in " \t":
            return None
        key, value = match.group(1).strip(), (match.group(2) or "").strip()
        if not value:
            data[key] = None
        elif value.startswith("[") and value.endswith("]") and "[" not in value[1:-1]:
            data[key] = [_plain(part) for part in value[1:-1].split(",") if part.strip()]
        elif value[0] in "'\"":
            if len(value) < 2 or value[-1] != value[0]:
                return None  # an unclosed quote
            data[key] = _plain(value)
        elif value[0] in _NOT_PLAIN or ": " in value:
            return None  # anchors, aliases, tags, block scalars, mappings, broken lists, `a: b: c`
        else:
            data[key] = _plain(value)
    return data or None


def _as_body(end: int, problem: str) -> Frontmatter:
    """No metadata; the block is read as text with its delimiter lines blanked."""
    return Frontmatter(warnings=(f"{problem}; read as body text",), blank_lines=(0, end))


def read_frontmatter(lines: list[str], opt_out_key: str) -> Frontmatter:
    """Find and interpret the frontmatter at the top of `lines` (the note split on LF)."""
    if not lines or not _DELIMITER.fullmatch(lines[0]):
        return Frontmatter()
    end = next((i for i in range(1, len(lines)) if _DELIMITER.fullmatch(lines[i])), None)
    if end is None:
        return Frontmatter(warnings=("frontmatter has no closing '---' line; read the whole note as body text",))
    block = "\n".join(lines[1:end])
    if len(block) > MAX_FRONTMATTER_CHARS:
        return _as_body(end, f"frontmatter is larger than {MAX_FRONTMATTER_CHARS // 1024} KiB")
    try:
        data = _load(block)
    except Exception as exc:  # YAML errors, impossible dates (ValueError), deep nesting (RecursionError)…
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        simple = _lenient(block)
        if simple is None:
            return _as_body(end, f"frontmatter is not valid YAML ({first})")
        found = _interpret(simple, end + 1, opt_out_key)
        warning = f"frontmatter is not valid YAML ({first}); read as simple key: value lines"
        return replace(found, warnings=(warning,))
    if data is None:
        return Frontmatter(body_start=end + 1)
    if not isinstance(data, dict):
        return _as_body(end, f"frontmatter is a {type(data).__name__}, not key: value pairs")
    return _interpret(data, end + 1, opt_out_key)
