"""Spots an answer caught in a loop: the same block of lines, or the same run of characters, again and again at
its end. Every rule here answers a loop a real small model (smollm2:135m) was seen writing to its token cap."""

from __future__ import annotations

import re

MIN_REPEATS = 4
"""Consecutive copies of a block before it counts as a loop; real answers do not say the same thing four times."""
LONG_BLOCK_LINES = 5
LONG_BLOCK_REPEATS = 3
"""A block of 5 lines or more counts as a loop at its third copy (a 20-line one barely fits four times into the
token cap)."""
MAX_BLOCK_LINES = 32
"""Seen cycling: a 12-line block ("The source is:" / "[2]" … "[6]"), a 20-line one (a quoted compose file with its
fence and two lines around it)."""
MIN_BLOCK_CHARS = 20
"""Shorter blocks ("- yes", "| – |") repeat legitimately in lists and tables."""
TAIL_CHARS = 8_000
"""Only the end of the answer is looked at (a loop is always at the end while it streams)."""
MIN_RUN_CHARS = 240
MAX_RUN_PERIOD = 150
"""Within a line: the end made of one unit of at most 150 characters, over at least 240 characters and four
copies of it ("n8n-n8n-…" in a code fence, "[ ] [ ] …", a sentence said again and again)."""
_FILLER = frozenset(" \t\n-|:=_+")
"""What an aligned Markdown table pads and rules with: long runs of it are not a loop."""
_LIST_MARKER = re.compile(r"^(?:[-*+]|\d{1,4}[.)])\s+")
_COUNTED = re.compile(r"\[\s*\d{1,3}\s*\]")


def _uncounted(text: str) -> str:
    """Single citation markers with their numbers taken out: "[58] is a [59]" and "[59] is a [60]" read the same.
    Lists and big numbers (`[4000, 100]` in code) keep theirs."""
    return _COUNTED.sub("[#]", text)


def _normalised(line: str) -> str:
    """A line without its list marker, its citations uncounted: a loop that counts ("87. Postgres", "[70]") is
    still the same line."""
    return _uncounted(_LIST_MARKER.sub("", line.strip())).strip()


def _lines_repeat(text: str, min_repeats: int, max_block_lines: int, min_block_chars: int) -> bool:
    done = text[-TAIL_CHARS:].rpartition("\n")[0]
    lines = [line for line in (_normalised(raw) for raw in done.split("\n")) if line]
    for size in range(1, max_block_lines + 1):
        repeats = min(min_repeats, LONG_BLOCK_REPEATS) if size >= LONG_BLOCK_LINES else min_repeats
        if len(lines) < size * repeats:
            break
        block = lines[-size:]
        if sum(len(line) for line in block) < min_block_chars:
            continue
        copies = [lines[len(lines) - size * (i + 1) : len(lines) - size * i] for i in range(repeats)]
        if all(copy == block for copy in copies):
            return True
    return False


def _run_repeats(text: str) -> bool:
    # Citations uncounted first, so "[58] is a [59] … [59] is a [60] …" repeats like the sentence it is.
    tail = _uncounted(text[-3 * MIN_RUN_CHARS - 4 * MAX_RUN_PERIOD :])
    for period in range(1, MAX_RUN_PERIOD + 1):
        window = tail[-max(MIN_RUN_CHARS, MIN_REPEATS * period) :]
        if len(window) < max(MIN_RUN_CHARS, MIN_REPEATS * period):
            return False
        # A string has period p exactly when it equals itself shifted by p.
        if window[period:] == window[:-period]:
            return not set(window) <= _FILLER
    return False


def repeats_at_end(
    text: str,
    min_repeats: int = MIN_REPEATS,
    max_block_lines: int = MAX_BLOCK_LINES,
    min_block_chars: int = MIN_BLOCK_CHARS,
) -> bool:
    """True when `text` ends in a loop: its last complete non-empty lines, list markers and citation numbers aside,
    are one block of 1..`max_block_lines` lines (at least `min_block_chars` long) written `min_repeats` times in a
    row (`LONG_BLOCK_REPEATS` for a block of `LONG_BLOCK_LINES` or more); or its end (citation numbers aside)
    repeats one unit of at most `MAX_RUN_PERIOD` characters over at least `MIN_RUN_CHARS` characters and
    `MIN_REPEATS` copies.

    For the line rule the line being written (after the last newline) is not judged: it may be unfinished.
    """
    return _run_repeats(text) or _lines_repeat(text, min_repeats, max_block_lines, min_block_chars)
