"""Frontmatter PyYAML rejects: the simple lines Obsidian still reads, what a broken block still says, and why.

Three helpers for `frontmatter.read_frontmatter`: `lenient` reads blocks of plain `key: value` lines that
PyYAML (YAML 1.1) rejects but Obsidian reads; `salvage` picks the title and the opt-out key out of a block
that cannot be read at all (a privacy opt-out must hold even when a later line has a typo); `yaml_problem`
words a YAML error for the user, with the line number in the note.
"""

from __future__ import annotations

import re

import yaml

KEY_LINE = re.compile(r"([^\s:#][^:]*?):(?:[ \t]+(.*))?")
_ITEM_LINE = re.compile(r"[ \t]*-[ \t]+(.*)")
_NOT_PLAIN = frozenset("[{&*!|>%@`")


def plain(value: str) -> str | bool:
    """A simple scalar: quotes removed, `true`/`false` as booleans, anything else as written."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value.lower() == "true" if value.lower() in ("true", "false") else value


def _simple_value(value: str) -> str | bool | None:
    """`value` when it is a plain or properly quoted scalar; None for anything else."""
    value = value.strip()
    if not value:
        return None
    if value[0] in "'\"":
        return plain(value) if len(value) >= 2 and value[-1] == value[0] else None
    if value[0] in _NOT_PLAIN or ": " in value:
        return None
    return plain(value)


def lenient(block: str) -> dict[object, object] | None:
    """Simple `key: value` / `key: [a, b]` / `- item` lines, for blocks PyYAML rejects but Obsidian reads.

    PyYAML is stricter than Obsidian's parser (`aliases: [Am I a Data Engineer?, …]` fails on the `?`).
    Anything beyond these simple shapes returns None: the block is then not read at all.
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
            items.append(plain(item.group(1)))
            continue
        match = KEY_LINE.fullmatch(line)
        if match is None or line[0] in " \t":
            return None
        key, value = match.group(1).strip(), (match.group(2) or "").strip()
        if not value:
            data[key] = None
        elif value.startswith("[") and value.endswith("]") and "[" not in value[1:-1]:
            data[key] = [plain(part) for part in value[1:-1].split(",") if part.strip()]
        else:
            scalar = _simple_value(value)
            if scalar is None:
                return None  # an unclosed quote, anchors, tags, block scalars, mappings, `a: b: c`
            data[key] = scalar
    return data or None


def salvage(lines: list[str], keys: tuple[str, ...]) -> dict[str, str | bool]:
    """The first simple top-level value of each of `keys` (lowercase) in an unreadable block's lines."""
    found: dict[str, str | bool] = {}
    for line in lines:
        match = KEY_LINE.fullmatch(line)
        if match is None or line[:1] in (" ", "\t"):
            continue
        key = match.group(1).strip().lower()
        if key in keys and key not in found:
            value = _simple_value(match.group(2) or "")
            if value is not None:
                found[key] = value
    return found


def leading_key_lines(lines: list[str]) -> list[str]:
    """The run of property-like lines right after an opening `---` that is never closed (up to a blank line)."""
    run: list[str] = []
    for line in lines:
        if not line.strip() or not (KEY_LINE.fullmatch(line) or _ITEM_LINE.fullmatch(line)):
            break
        run.append(line)
    return run


def yaml_problem(exc: Exception, block: str) -> str:
    """What is wrong with the block, in words, with the note's line number (the block starts on line 2)."""
    for number, line in enumerate(block.split("\n"), start=2):
        if line[:1] == "\t" or ("\t" in line and not line[: line.index("\t")].strip()):
            return f"line {number} is indented with a tab, and YAML allows only spaces"
    if not isinstance(exc, yaml.MarkedYAMLError):
        text = str(exc).strip()
        return text.splitlines()[0] if text else type(exc).__name__
    context, problem = exc.context or "", exc.problem or "a syntax error"
    if "quoted scalar" in context and exc.context_mark is not None:
        return f"the quote opened on line {exc.context_mark.line + 2} is never closed"
    if ("flow sequence" in context or "flow mapping" in context) and exc.context_mark is not None:
        bracket = "[" if "sequence" in context else "{"
        return f"the '{bracket}' opened on line {exc.context_mark.line + 2} is never closed"
    mark = exc.problem_mark or exc.context_mark
    return f"{problem} on line {mark.line + 2}" if mark is not None else problem
