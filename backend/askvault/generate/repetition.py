"""Spots an answer caught in a loop: the same block of lines, or the same few characters, again and again at its end."""

from __future__ import annotations

MIN_REPEATS = 4
"""Consecutive copies of a block before it counts as a loop; real answers do not say the same thing four times."""
MAX_BLOCK_LINES = 16
"""Seen from a real small model: a 12-line block ("The source is:" / "[2]" … "[6]") cycling to the token cap."""
MIN_BLOCK_CHARS = 20
"""Shorter blocks ("- yes", "| – |") repeat legitimately in lists and tables."""
TAIL_CHARS = 8_000
"""Only the end of the answer is looked at (a loop is always at the end while it streams)."""
RUN_CHARS = 240
MAX_RUN_PERIOD = 40
"""Within a line: the last 240 characters made of one unit of at most 40 characters, six copies or more
("n8n-n8n-n8n-…", seen in a real answer inside a code fence), with a letter or digit in it. No prose, table or
code repeats such a unit that long (an aligned table's padding and separator rows are spaces and dashes)."""


def _lines_repeat(text: str, min_repeats: int, max_block_lines: int, min_block_chars: int) -> bool:
    done = text[-TAIL_CHARS:].rpartition("\n")[0]
    lines = [line.strip() for line in done.split("\n") if line.strip()]
    for size in range(1, max_block_lines + 1):
        if len(lines) < size * min_repeats:
            break
        block = lines[-size:]
        if sum(len(line) for line in block) < min_block_chars:
            continue
        copies = [lines[len(lines) - size * (i + 1) : len(lines) - size * i] for i in range(min_repeats)]
        if all(copy == block for copy in copies):
            return True
    return False


def _run_repeats(text: str) -> bool:
    if len(text) < RUN_CHARS:
        return False
    tail = text[-RUN_CHARS:]
    if not any(char.isalnum() for char in tail):
        return False  # aligned Markdown tables: long runs of spaces, and separator rows of dashes
    # A string has period p exactly when it equals itself shifted by p.
    return any(tail[p:] == tail[:-p] for p in range(1, MAX_RUN_PERIOD + 1))


def repeats_at_end(
    text: str,
    min_repeats: int = MIN_REPEATS,
    max_block_lines: int = MAX_BLOCK_LINES,
    min_block_chars: int = MIN_BLOCK_CHARS,
) -> bool:
    """True when `text` ends in a loop: its last complete non-empty lines are one block of 1..`max_block_lines`
    lines (at least `min_block_chars` long, surrounding spaces aside) written `min_repeats` times in a row, or its
    last `RUN_CHARS` characters repeat one unit of at most `MAX_RUN_PERIOD` characters.

    For the line rule the line being written (after the last newline) is not judged: it may be unfinished.
    """
    return _run_repeats(text) or _lines_repeat(text, min_repeats, max_block_lines, min_block_chars)
