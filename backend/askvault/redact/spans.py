"""Findings as character spans: merging overlaps and replacing them with markers that keep the line count, and
the cap on how many candidates one rule examines in one text."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import re2

T = TypeVar("T")
_DFA_BYTES = 64 << 20

MARKER = "[redacted: {kind}]"
"""What a secret becomes in the indexed text; the note on disk is never touched."""

# Lower wins when findings overlap: a provider's own key format says more than "a value after `password:`",
# an `otpauth://` URI or a seed phrase more than the `secret=` or `seed:` key in front of it.
_PRIORITY = {
    "password": 5,
    "env-secret": 4,
    "card-number": 3,
    "iban": 3,
    "url-credentials": 3,
    "recovery-codes": 2,
    "private-key": 1,
    "otpauth": 1,
    "totp-seed": 1,
    "seed-phrase": 1,
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret: its kind and its span in the scanned text (never the secret itself)."""

    kind: str
    start: int
    end: int


MAX_MATCHES = 1024
"""Candidates one rule examines in one text. A text with more (no section of a note holds that many secrets of
one kind) is hostile or a data dump: the rule redacts the rest of it, from the first candidate past the cap, as
one finding. The rule fails closed, and the text costs linear time with a small constant."""


def compile_rule(pattern: str) -> Any:
    """A google-re2 regex (untyped) with room for its DFA: at RE2's default 8 MiB, a wide pattern (`password`
    within 40 characters of a colon) rebuilds its DFA over and over on a big note and runs ten times slower."""
    options = re2.Options()
    options.max_mem = _DFA_BYTES
    return re2.compile(pattern, options)


def capped(items: Iterable[T], limit: int = MAX_MATCHES) -> Iterator[T]:
    """The first `limit` items (a rule that sees more adds its own closing finding; see `MAX_MATCHES`)."""
    for count, item in enumerate(items):
        if count == limit:
            return
        yield item


def examined(
    matches: Iterable[Any], found: list[Finding], kind: str, end: int, limit: int = MAX_MATCHES
) -> Iterator[Any]:
    """The first `limit` matches; past them, one `kind` finding from the next match to `end` joins `found`.
    Matches are google-re2's, which the library leaves untyped."""
    for count, match in enumerate(matches):
        if count == limit:
            found.append(Finding(kind, match.start(), end))
            return
        yield match


def marker(kind: str) -> str:
    return MARKER.format(kind=kind)


def merge(findings: Iterable[Finding]) -> list[Finding]:
    """Overlapping findings become one, spanning both, of the more specific kind; sorted by position."""
    merged: list[Finding] = []
    for finding in sorted(findings, key=lambda f: (f.start, -f.end)):
        if finding.end <= finding.start:
            continue
        if merged and finding.start < merged[-1].end:
            last = merged[-1]
            kind = min(last.kind, finding.kind, key=lambda k: (_PRIORITY.get(k, 0), k != last.kind))
            merged[-1] = Finding(kind, last.start, max(last.end, finding.end))
        else:
            merged.append(finding)
    return merged


def apply(text: str, findings: list[Finding]) -> str:
    """The text with every (merged) finding replaced by its marker; a multi-line secret keeps its line breaks,
    so line numbers after it still point at the right lines of the note."""
    if not findings:
        return text
    parts: list[str] = []
    at = 0
    for finding in findings:
        parts.append(text[at : finding.start])
        parts.append(marker(finding.kind) + "\n" * text.count("\n", finding.start, finding.end))
        at = finding.end
    parts.append(text[at:])
    return "".join(parts)


def trim(text: str, start: int, end: int, junk: str = " \t\r\n\"'`=:,;") -> tuple[int, int]:
    """The span without surrounding quotes, separators and spaces (boundaries a pattern had to consume)."""
    while start < end and text[start] in junk:
        start += 1
    while end > start and text[end - 1] in junk:
        end -= 1
    return start, end
