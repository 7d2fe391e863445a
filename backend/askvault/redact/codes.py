"""2FA/MFA recovery codes: the block of codes under a heading or label that names them (English and German,
plus French and Spanish), redacted as one finding; and a PEM private key, from BEGIN to END.

A block is a fenced code block, or a run of lines that each hold one to four code-shaped tokens (`7fq2k-9xm4p`,
`1234 5678`, list items and struck-through used codes included). Under a heading that names recovery codes,
every such block in the section (and its subsections) goes; elsewhere, the block right after a label line
("Backup-Codes:", "GitHub recovery codes (each works once):") does.
"""

from __future__ import annotations

import itertools
import re

from askvault.redact.spans import Finding

KIND = "recovery-codes"

RECOVERY_WORDS = (
    r"recovery[ \-]?(?:codes?|keys?)|backup[ \-]?codes?|(?:2fa|mfa|two[ \-]factor|2[ \-]factor|totp|otp)"
    r"[ \-]?(?:recovery|backup|reset)?[ \-]?codes?|emergency[ \-]?codes?|scratch[ \-]?codes?"
    r"|wiederherstellungs[ \-]?(?:codes?|schlüssel)|notfall[ \-]?codes?|sicherungs[ \-]?codes?"
    r"|codes? de (?:récupération|recuperation|secours)|c[oó]digos? de (?:recuperaci[oó]n|respaldo)"
)
PREFILTER = rf"(?i){RECOVERY_WORDS}"
_RECOVERY = re.compile(PREFILTER)
_BULLET = re.compile(r"[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?")
_TOKEN = re.compile(r"[A-Za-z0-9]{2,12}(?:-[A-Za-z0-9]{2,12}){0,8}")
_MAX_LABEL_WORDS = 8
_MAX_LINE = 120


def _fence(line: str) -> str | None:
    stripped = line.lstrip()
    for mark in ("```", "~~~"):
        if stripped.startswith(mark):
            return mark
    return None


def code_like(line: str) -> bool:
    """One to four code-shaped tokens, each with a digit (`abcd-1234`, `1234 5678`), after any list marker."""
    if len(line) > _MAX_LINE:
        return False
    body = line[_BULLET.match(line).end() :].strip().strip("~`*_").strip()  # type: ignore[union-attr]
    tokens = body.split()
    if not 1 <= len(tokens) <= 4:
        return False
    return all(_TOKEN.fullmatch(t) is not None and any(c.isdigit() for c in t) and len(t) >= 4 for t in tokens)


def is_recovery_heading(heading: str) -> bool:
    return len(heading) <= _MAX_LINE * 2 and _RECOVERY.search(heading) is not None


def _label(line: str) -> bool:
    if len(line) > _MAX_LINE * 2 or _RECOVERY.search(line) is None:
        return False
    core = line.strip().strip("#*_>-: \t")
    return line.rstrip().rstrip("*_").endswith(":") or len(core.split()) <= _MAX_LABEL_WORDS


class _Lines:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.starts = list(itertools.accumulate((len(line) + 1 for line in self.lines), initial=0))

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Characters from the start of line `first` to the end of line `last`."""
        return self.starts[first], self.starts[last] + len(self.lines[last])

    def block(self, at: int) -> tuple[tuple[int, int] | None, int]:
        """The code block starting at line `at`: (its lines, first, last) or None, and the line after it."""
        lines = self.lines
        mark = _fence(lines[at])
        if mark is not None:
            end = next((k for k in range(at + 1, len(lines)) if lines[k].lstrip().startswith(mark)), len(lines))
            inner = (at + 1, end - 1) if end - 1 >= at + 1 else None
            return inner, end + 1
        end = at
        while end < len(lines) and code_like(lines[end]):
            end += 1
        return ((at, end - 1) if end > at else None), max(end, at + 1)


def find_recovery_codes(text: str, *, whole_section: bool) -> list[Finding]:
    """Code blocks after recovery labels; with `whole_section`, every code block in the text."""
    doc = _Lines(text)
    lines = doc.lines
    found: list[Finding] = []
    row = 0
    while row < len(lines):
        line = lines[row]
        if whole_section and (_fence(line) or code_like(line)):
            block, row = doc.block(row)
            if block is not None:
                found.append(Finding(KIND, *doc.span(*block)))
            continue
        if _label(line):
            _, colon, rest = line.partition(":")
            if colon and rest.strip() and all(code_like(t) for t in rest.split()) and len(rest.split()) >= 2:
                start = doc.starts[row] + len(line) - len(rest)
                found.append(Finding(KIND, start, doc.starts[row] + len(line)))
            nxt = row + 1
            if nxt < len(lines) and not lines[nxt].strip():
                nxt += 1
            if nxt < len(lines):
                block, after = doc.block(nxt)
                if block is not None:
                    found.append(Finding(KIND, *doc.span(*block)))
                    row = after
                    continue
        row += 1
    return found


_PEM_END = re.compile(r"-----END[ A-Z0-9]{0,40}-----")


def extend_private_key(text: str, start: int, end: int) -> tuple[int, int]:
    """A private-key finding grows to its whole PEM block: from its line's start to the END line (or, with no
    END line, to the next blank line), so no line of key material stays behind."""
    line_start = text.rfind("\n", 0, start) + 1
    ending = _PEM_END.search(text, end)
    if ending is not None:
        return line_start, ending.end()
    blank = text.find("\n\n", end)
    return line_start, len(text) if blank == -1 else blank
