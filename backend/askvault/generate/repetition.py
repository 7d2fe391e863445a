"""Spots an answer caught in a loop: the same line, or block of lines, written again and again at its end."""

from __future__ import annotations

MIN_REPEATS = 4
"""Consecutive copies of a block before it counts as a loop; real answers do not say the same thing four times."""
MAX_BLOCK_LINES = 4
MIN_BLOCK_CHARS = 20
"""Shorter blocks ("- yes", "| – |") repeat legitimately in lists and tables."""
TAIL_CHARS = 8_000
"""Only the end of the answer is looked at (a loop is always at the end while it streams)."""


def repeats_at_end(
    text: str,
    min_repeats: int = MIN_REPEATS,
    max_block_lines: int = MAX_BLOCK_LINES,
    min_block_chars: int = MIN_BLOCK_CHARS,
) -> bool:
    """True when the complete non-empty lines at the end of `text` are one block of 1..`max_block_lines` lines
    (at least `min_block_chars` long, surrounding spaces aside) written `min_repeats` times in a row.

    The line being written (after the last newline) is not judged: it may be unfinished.
    """
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
