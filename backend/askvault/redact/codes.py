"""2FA/MFA recovery codes: every code-shaped token in the blocks under a heading or label that names them
(English, German, French, Spanish, Italian); and a PEM private key, from BEGIN to END.

A block is a fenced code block (redacted whole) or a run of lines that each start with a code-shaped token
(`7fq2k-9xm4p`, `1234 5678`, `ab12 cd34`), after any list marker, check box, quote, table pipe, enumerator
or markup. What follows a code on its line stays unless it is code-shaped too: "(used in May)", `~~used~~`,
"spare", "✓ 2024-05-03" (a date is never a code). Under a heading that names recovery codes, every code in
the section (and its subsections) goes, on code lines, in `Field: …` lines and in short lines ("(used)
4kf9-2mzq"); elsewhere, the codes on a label line ("Backup-Codes: …", "my recovery code is …") and in the
block right below it ("GitHub recovery codes (each works once):", then up to two remarks or blank lines,
then codes with at most one blank line between them).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from askvault.redact.spans import MAX_MATCHES, Finding, capped, compile_rule, examined

KIND = "recovery-codes"

RECOVERY_WORDS = (
    r"recovery[ \-]?(?:codes?|keys?)|backup[ \-]?(?:codes?|keys?)|(?:2fa|mfa|two[ \-]factor|2[ \-]factor|totp|otp)"
    r"[ \-]?(?:recovery|backup|reset)?[ \-]?codes?|emergency[ \-]?(?:codes?|kit)|scratch[ \-]?codes?"
    r"|one[ \-]time[ \-](?:recovery[ \-])?codes|single[ \-]use[ \-]codes"
    r"|wiederherstellungs[ \-]?(?:codes?|schlüssel)|notfall[ \-]?codes?|sicherungs[ \-]?codes?|ersatz[ \-]?codes?"
    r"|backup[ \-]?schlüssel|einmal[ \-]?codes?"
    r"|codes? de (?:r[ée]cup[ée]ration|secours|sauvegarde|restauration)"
    r"|c[oó]digos? de (?:recuperaci[oó]n|respaldo|emergencia|copia de seguridad|un solo uso)"
    r"|codici di (?:backup|recupero|riserva)"
)
PREFILTER = rf"(?i){RECOVERY_WORDS}"
_RECOVERY = re.compile(PREFILTER)

_TOKEN = re.compile(r"[^\s|,;]+")
_EDGE = "~*_`'\"()[]{}<>.:!?"
_SHAPE = re.compile(r"[A-Za-z0-9]{1,64}(?:-[A-Za-z0-9]{1,64}){0,9}")
# Dates, times, ordinals, counts and words that carry a digit (`1Password`, `iPhone15`) are annotations.
_NOT_CODE = re.compile(
    r"(?:\d{4}-\d{1,2}(?:-\d{1,2})?|\d{1,2}-\d{1,2}-\d{2,4}|\d{1,4}(?:st|nd|rd|th|x|h|min|am|pm|mb|gb|kb|tb))"
)
_WORDISH = re.compile(r"[A-Z][a-z]{2}|[a-z]{2}[A-Z]")
_GAP = re.compile(r"(?:[\s|,;*+>~_`().\-]|\d{1,3}[.)]|\[[ xX\-]\])*")
_LEAD = r"[ \t]*(?:>[ \t]*)*(?:\|[ \t]*)?(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?(?:\[[ xX\-]\][ \t]*)?"
_PREFIX = re.compile(_LEAD)
"""A line's quote, table pipe, list marker and check box."""
# Under a recovery heading, the lines that can hold a code: a digit anywhere, a dash in the first word (a
# letter-only code), a fence or a label; the others are skipped in one RE2 pass.
_SECTION_LINES = compile_rule(
    rf"(?m)^(?:[^\n]*[0-9]|{_LEAD}[~*_`'\"(\[]*[A-Za-z]+-|[ \t>]*(?:```|~~~)|[^\n]*(?i:{RECOVERY_WORDS}))"
)
_LABEL_LINES = compile_rule(rf"(?m)^[^\n]*(?i:{RECOVERY_WORDS})")
_ENUMERATOR = re.compile(r"#?\d{1,3}")
_MAX_LABEL_WORDS = 8
_MAX_LINE = 240
_MAX_FIELD_WORDS = 4
"""Under a recovery heading, a `Field: value` line with a name this short may hold a code as its value."""
_MAX_SHAPE_LINES = 512
"""Lines read to learn the section's code shapes (see `_consensus`)."""
_MAX_BETWEEN = 2
"""Lines that may separate a label from its block: blank ones and short remarks ("Keep these safe!")."""

Span = tuple[int, int]


def _fence(line: str) -> str | None:
    stripped = line.lstrip(" \t>")
    for mark in ("```", "~~~"):
        if stripped.startswith(mark):
            return mark
    return None


def _code(token: str, *, short_digits: bool) -> bool:
    """A code-shaped token: letters and digits in dash-joined groups, with a digit, not a date or a word."""
    if not 4 <= len(token) <= 160 or _SHAPE.fullmatch(token) is None:
        return False
    if _NOT_CODE.fullmatch(token.lower()) is not None or _WORDISH.search(token) is not None:
        return False
    if token.isdigit():
        return len(token) >= 6 or short_digits
    return any(ch.isdigit() for ch in token)


def _shape(token: str) -> tuple[object, ...]:
    case = "lower" if token == token.lower() else "upper" if token == token.upper() else "mixed"
    return (case, *(len(group) for group in token.split("-")))


def _tokens(line: str, start: int, offset: int) -> Iterator[tuple[str, int, int]]:
    """The words of `line` from `start`, stripped of markup and punctuation, with absolute spans."""
    for match in _TOKEN.finditer(line, start):
        a, b = match.span()
        while a < b and line[a] in _EDGE:
            a += 1
        while b > a and line[b - 1] in _EDGE:
            b -= 1
        if b > a:
            yield line[a:b], offset + a, offset + b


def _consensus_code(token: str, shapes: frozenset[tuple[object, ...]]) -> bool:
    return (
        bool(shapes) and _SHAPE.fullmatch(token) is not None and not _WORDISH.search(token) and _shape(token) in shapes
    )


def _line_codes(line: str, offset: int, start: int, shapes: frozenset[tuple[object, ...]]) -> list[Span] | None:
    """Spans of the code tokens of a line whose first word (from `start`) is a code, else None. Its leading run
    may hold short digit groups (`1234 5678`) and letter-only codes shaped like the section's others."""
    if len(line) > _MAX_LINE * 4:
        return None
    words = list(_tokens(line, start, offset))
    while words and (not any(ch.isalnum() for ch in words[0][0]) or _ENUMERATOR.fullmatch(words[0][0])):
        words.pop(0)  # "✅ 4kf9-2mzq", "→ 4kf9-2mzq", "#3 4kf9-2mzq"
    if not words:
        return None
    first = words[0][0]
    grouped = first.isdigit() and len(words) > 1 and words[1][0].isdigit() and 3 <= len(words[1][0]) <= 5
    if not (_code(first, short_digits=grouped) or _consensus_code(first, shapes)):
        return None
    spans: list[Span] = []
    leading = True
    for word, a, b in words:
        if leading and (_code(word, short_digits=grouped and word.isdigit()) or _consensus_code(word, shapes)):
            spans.append((a, b))
            continue
        leading = False
        if _code(word, short_digits=False):
            spans.append((a, b))
    return spans


def _coalesce(text: str, spans: list[Span]) -> list[Finding]:
    """One finding per run of codes with nothing but list markup between them; an annotation splits a run."""
    found: list[Finding] = []
    for a, b in spans:
        if found and _GAP.fullmatch(text, found[-1].end, a) is not None:
            found[-1] = Finding(KIND, found[-1].start, b)
        else:
            found.append(Finding(KIND, a, b))
    return found


def is_recovery_heading(heading: str) -> bool:
    return len(heading) <= _MAX_LINE and _RECOVERY.search(heading) is not None


def _label(line: str) -> int | None:
    """Where the codes of a label line would start (after its colon or its recovery words), or None."""
    if len(line) > _MAX_LINE * 4:
        return None
    match = _RECOVERY.search(line)
    if match is None:
        return None
    colon = line.find(":", match.end())
    head = line[:colon] if colon >= 0 else line[: match.end()]
    if len(head.strip("#*_>-: \t").split()) > _MAX_LABEL_WORDS:
        return None
    if colon < 0 and len(line.split()) > _MAX_LABEL_WORDS * 2:
        return None
    return colon + 1 if colon >= 0 else match.end()


def _consensus(lines: Iterable[str]) -> frozenset[tuple[object, ...]]:
    """Shapes (case and group lengths) that two or more dashed codes with digits share: a letter-only token of
    such a shape is a code too (`abcde-fghij` among GitHub's hex codes)."""
    seen: dict[tuple[object, ...], int] = {}
    for line in lines:
        if "-" not in line or len(line) > _MAX_LINE * 4:
            continue
        start = _PREFIX.match(line).end()  # type: ignore[union-attr]
        for word, _, _ in _tokens(line, start, 0):
            if "-" in word and _code(word, short_digits=False):
                shape = _shape(word)
                seen[shape] = seen.get(shape, 0) + 1
            break
    return frozenset(shape for shape, count in seen.items() if count >= 2)


def _line_at(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start : len(text) if end < 0 else end]


@functools.cache
def _closing(mark: str) -> re.Pattern[str]:
    return re.compile(rf"(?m)^[ \t>]*{re.escape(mark)}")


def _fenced(text: str, offset: int, line: str, mark: str, found: list[Finding]) -> int:
    """Redacts the inside of the fence that opens at `offset`; returns where the line after it starts."""
    inner = offset + len(line) + 1
    close = _closing(mark).search(text, min(inner, len(text)))
    inner_end = len(text) if close is None else close.start() - 1
    if inner_end > inner:
        found.append(Finding(KIND, inner, inner_end))
    if close is None:
        return len(text) + 1
    after = text.find("\n", close.start())
    return len(text) + 1 if after < 0 else after + 1


def _remark(line: str) -> bool:
    """A line that may sit between a label and its block: blank, or a short remark ("Keep these safe!")."""
    return not line.lstrip().startswith("#") and len(line.split()) <= _MAX_LABEL_WORDS * 2


def _block(
    text: str, start: int, shapes: frozenset[tuple[object, ...]], spans: list[Span], found: list[Finding]
) -> int:
    """The codes of the block that begins within `_MAX_BETWEEN` lines of `start` (the line after a label): a
    fence, or code lines with at most one blank line between them. Returns where the block ends."""
    offset, between, blanks, started = start, 0, 0, False
    for _ in range(MAX_MATCHES):
        if offset > len(text):
            return offset
        line = _line_at(text, offset)
        mark = None if started else _fence(line)
        if mark is not None:
            return _fenced(text, offset, line, mark, found)
        codes = _line_codes(line, offset, _PREFIX.match(line).end(), shapes)  # type: ignore[union-attr]
        if codes is not None:
            spans.extend(codes)
            started, blanks = True, 0
        elif started:
            blanks += 1
            if line.strip() or blanks > 1:
                return offset
        else:
            between += 1
            if between > _MAX_BETWEEN or not _remark(line) or _label(line) is not None:
                return offset  # a label of its own is read by the caller
        offset += len(line) + 1
    found.append(Finding(KIND, offset, len(text)))  # see `MAX_MATCHES`
    return len(text) + 1


def _labelled(text: str, shapes: frozenset[tuple[object, ...]], spans: list[Span], found: list[Finding]) -> None:
    """Codes on each label line and in the block right below it."""
    resume = 0
    for match in examined(_LABEL_LINES.finditer(text), found, KIND, len(text)):
        offset = match.start()
        if offset < resume:
            continue
        line = _line_at(text, offset)
        label = _label(line)
        if label is None:
            continue
        inline = _line_codes(line, offset, label, shapes)
        spans.extend(inline if inline is not None else _label_codes(line, offset, label))
        resume = _block(text, offset + len(line) + 1, shapes, spans, found)


def _section(text: str, shapes: frozenset[tuple[object, ...]], spans: list[Span], found: list[Finding]) -> None:
    """Under a heading that names recovery codes: the codes of every line that holds one, and every fence."""
    resume = 0
    for match in examined(_SECTION_LINES.finditer(text), found, KIND, len(text)):
        offset = match.start()
        if offset < resume:
            continue
        line = _line_at(text, offset)
        mark = _fence(line)
        if mark is not None:
            resume = _fenced(text, offset, line, mark, found)
            continue
        codes = _line_codes(line, offset, _PREFIX.match(line).end(), shapes)  # type: ignore[union-attr]
        label = _label(line) if codes is None else None
        colon = line.find(":")
        if codes is None and label is not None:
            codes = _line_codes(line, offset, label, shapes) or list(_label_codes(line, offset, label))
        elif codes is None and colon > 0 and len(line[:colon].split()) <= _MAX_FIELD_WORDS:
            codes = _line_codes(line, offset, colon + 1, shapes)  # "Secret key: A3-…"
        if codes is None and len(line.split()) <= _MAX_LABEL_WORDS:
            codes = list(_label_codes(line, offset, 0))  # "(used) 4kf9-2mzq"
        spans.extend(codes or ())


def find_recovery_codes(text: str, *, whole_section: bool) -> list[Finding]:
    """Codes on and below recovery labels; with `whole_section`, the codes of every line and fence in the text.
    Past `MAX_MATCHES` candidate lines, the rest of the text is redacted as one finding (see `spans`)."""
    lines = _SECTION_LINES if whole_section else _LABEL_LINES
    shapes = _consensus(_line_at(text, m.start()) for m in capped(lines.finditer(text), _MAX_SHAPE_LINES))
    spans: list[Span] = []
    found: list[Finding] = []
    if whole_section:
        _section(text, shapes, spans, found)
    else:
        _labelled(text, shapes, spans, found)
    return [*found, *_coalesce(text, spans)]


def _label_codes(line: str, offset: int, start: int) -> Iterator[Span]:
    """Code tokens after a label's words when the text after them does not start with one ("… are 4kf9-2mzq")."""
    for word, a, b in _tokens(line, start, offset):
        if _code(word, short_digits=False):
            yield a, b
