"""Findings as character spans: merging overlaps and replacing them with markers that keep the line count."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MARKER = "[redacted: {kind}]"
"""What a secret becomes in the indexed text; the note on disk is never touched."""

# Lower wins when findings overlap: a provider's own key format says more than "a value after `password:`".
_PRIORITY = {"password": 4, "card-number": 3, "iban": 3, "recovery-codes": 2, "private-key": 1}


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret: its kind and its span in the scanned text (never the secret itself)."""

    kind: str
    start: int
    end: int


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
