"""Finds the inline [n] citations in an answer and splits them into ones we sent and ones we did not."""

from __future__ import annotations

import re
from dataclasses import dataclass

CITATION = re.compile(r"\[\s*(\d{1,6}(?:\s*[-–—]\s*\d{1,6})?(?:\s*[,;]\s*\d{1,6}(?:\s*[-–—]\s*\d{1,6})?)*)\s*\]")
"""One bracketed citation group: [1], [1, 2], [1;2], [1-3] (en/em dashes too). [1][2] is two groups.

The sanitizer neutralises exactly this grammar inside source text, so a note cannot smuggle in a marker
the parser would count. The plugin's citation renderer should accept the same grammar.
"""

MAX_RANGE = 20
"""A range spanning more than this ([1-300]) is not expanded; only its two ends count as cited."""

# Code is quoted material, not prose: `arr[0]` in a code span is not a citation.
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_PART = re.compile(r"(\d+)(?:\s*[-–—]\s*(\d+))?")


@dataclass(frozen=True, slots=True)
class Citations:
    valid: tuple[int, ...]
    """Sorted unique numbers in 1..sent_count."""
    invalid: tuple[int, ...]
    """Sorted unique cited numbers outside 1..sent_count (the model cited a source we never sent)."""


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def strip_code(text: str) -> str:
    """The text with fenced code blocks and inline code spans blanked out (same length)."""
    return _INLINE_CODE.sub(_blank, _FENCE.sub(_blank, text))


def _expand(group: str) -> list[int]:
    numbers: list[int] = []
    for part in _PART.finditer(group):
        low = int(part.group(1))
        high = int(part.group(2)) if part.group(2) is not None else low
        if low <= high <= low + MAX_RANGE:
            numbers.extend(range(low, high + 1))
        else:
            numbers.extend((low, high))
    return numbers


def find_citations(answer: str) -> list[int]:
    """Every cited number in order of appearance (duplicates kept), ignoring code."""
    found: list[int] = []
    for match in CITATION.finditer(strip_code(answer)):
        found.extend(_expand(match.group(1)))
    return found


def check_citations(answer: str, sent_count: int) -> Citations:
    """Valid citations are 1..sent_count; everything else the model cited is invalid."""
    cited = set(find_citations(answer))
    return Citations(
        valid=tuple(sorted(n for n in cited if 1 <= n <= sent_count)),
        invalid=tuple(sorted(n for n in cited if not 1 <= n <= sent_count)),
    )
