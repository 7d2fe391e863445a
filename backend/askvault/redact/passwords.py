"""Passwords written the way people write them in notes: `key: value` lines, `KEY=value`, and table columns.

Keywords cover English and German (plus the French and Spanish words for password); `PIN`/`PUK` count only
in capitals, since `pin: GPIO4` is wiring, not a secret. A value that points somewhere instead of being the
secret ("see Vaultwarden", `${DB_PASS}`, `!secret db`, `<password>`, `[[Bitwarden]]`) is left alone, so
the note still answers "where is the router password?". Patterns are RE2 (linear time); Python `re` runs
only on short, length-checked strings.
"""

from __future__ import annotations

import itertools
import re

import re2

from askvault.redact.spans import Finding

KIND = "password"

_STRONG = (
    r"passwor[dt]|passwd|kennwort|passphrase|passcode|secret|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key"
    r"|auth[_\-]?key|client[_\-]?secret|auth[_\-]?token|access[_\-]?token|refresh[_\-]?token|contrase(?:ñ|n)a"
    r"|zugangscode"
)
_WEAK = r"pwd|pw|token|(?-i:PIN|PUK)"
_MARKUP = r"(?:\*\*|__)?"

# `DB_PASSWORD=…`, `api_key: "…"`, `--password=…`, "… and the password: hunter2, then …"
INLINE = (
    r"(?mi)(?:^|[^A-Za-z0-9_.\-])"
    rf"(?P<key>[A-Za-z0-9_.\-]{{0,40}}(?:{_STRONG})[A-Za-z0-9_.\-]{{0,40}}"
    rf"|(?:[A-Za-z0-9.\-]{{0,40}}[_.\-])?(?:{_WEAK})|[A-Za-z0-9.\-]{{0,40}}[_.\-]pass)"
    rf"(?:\*\*|__|[\"'\]])?[ \t]*(?::=|=>|[:=])[ \t]*{_MARKUP}[ \t]*"
    r"(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|[^\s\"'`,;|<>]{1,200})"
)
# "- **WiFi password:** correct horse battery staple", "Mot de passe : x", "> Router PIN: 1234"
LINE = (
    r"(?mi)^[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?|>[ \t]*)*" + _MARKUP
    + rf"(?:[^\n:=|*_]{{0,40}}[ \t\-])?(?:(?:{_STRONG})(?:e|er|s)?|{_WEAK}|mot de passe|passwörter)"
    + rf"{_MARKUP}[ \t]*{_MARKUP}[ \t]*[:=]{_MARKUP}[ \t]*(?P<value>[^\s][^\n]{{0,300}})$"
)  # fmt: skip
TABLE = rf"(?mi)^[^\n]*\|[^\n]*(?:{_STRONG}|{_WEAK})[^\n]*$"

_INLINE = re2.compile(INLINE)
_LINE = re2.compile(LINE)
_INLINE_KEY, _INLINE_VALUE = _INLINE.groupindex["key"], _INLINE.groupindex["value"]
_LINE_VALUE = _LINE.groupindex["value"]
_HEADER_CELL = re.compile(
    rf"(?i)(?:[\w .\-]{{0,30}}[ _.\-])?(?:(?:{_STRONG})(?:e|er|s)?|pwd|pw|token|passwörter)|(?-i:PIN|PUK)"
)
_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER_ROW = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")


def _words(*parts: str) -> frozenset[str]:
    return frozenset(" ".join(parts).split())


_PLACEHOLDERS = _words(
    "true false null none nil yes no ja nein n/a na tbd todo xxx xxxx *** ... … - ? changeme required optional",
    "redacted hidden geheim secret password passwort",
)
_POINTERS = _words(
    "see siehe in im auf on at stored saved kept gespeichert hinterlegt liegt from via use uses nutze unter -> →",
    "=> managed set changed geändert reset rotated required erforderlich not nicht kein keine no the der die das",
    "is ist was war will wird must muss should same gleich ask below above unten oben here hier bitwarden",
    "vaultwarden 1password keepass keepassxc lastpass keychain schlüsselbund pass passbolt",
)
_REFERENCE_KEYS = ("file", "path", "dir", "_name", "_url")
"""`RESTIC_PASSWORD_FILE=/root/.restic`: the key names where the secret is, not the secret."""
_MAX_VALUE_WORDS = 8
_MAX_CELL = 120
_MAX_COLUMNS = 64
_MAX_ROW = 4000


def plausible(value: str) -> bool:
    """False for a value that is empty, a placeholder, a reference to elsewhere, or a masked one."""
    value = value.strip(" \t\"'`*_")
    if len(value) < 3:
        return False
    low = value.casefold()
    if low in _PLACEHOLDERS or value[0] in "$%{!<[(#" or value.startswith(("/", "~/", "./", "../")):
        return False
    if set(value) <= set("*x.…-_#?•"):
        return False
    words = low.split()
    return bool(words) and words[0].strip(":,.") not in _POINTERS


def _inline(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in _INLINE.finditer(text):
        key = match.group(_INLINE_KEY).casefold()
        if "secretar" in key or key.endswith(_REFERENCE_KEYS):
            continue
        value = match.group(_INLINE_VALUE)
        if plausible(value):
            start, end = match.span(_INLINE_VALUE)
            found.append(Finding(KIND, *_unquote(text, start, end)))
    return found


def _line(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in _LINE.finditer(text):
        value = match.group(_LINE_VALUE)
        if len(value.split()) > _MAX_VALUE_WORDS or not plausible(value):
            continue
        start, end = match.span(_LINE_VALUE)
        found.append(Finding(KIND, *_unquote(text, start, end)))
    return found


def _unquote(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrinks a value's span past markup and quotes around it: `**hunter2**` → hunter2."""
    junk = " \t\"'`*_"
    while start < end and text[start] in junk:
        start += 1
    while end > start and text[end - 1] in junk:
        end -= 1
    return start, end


def _cells(line: str, offset: int, limit: int = _MAX_COLUMNS) -> list[tuple[int, int]]:
    """Absolute spans of a table row's first `limit` cells (escaped `\\|` is not a separator)."""
    pipes: list[int] = []
    for match in _PIPE.finditer(line):
        pipes.append(match.start())
        if len(pipes) > limit + 1:
            break
    bounds = [-1, *pipes, len(line)]
    spans = [(a + 1, b) for a, b in itertools.pairwise(bounds)]
    if line.lstrip().startswith("|") and spans and not line[spans[0][0] : spans[0][1]].strip():
        spans = spans[1:]
    if spans and not line[spans[-1][0] : spans[-1][1]].strip():
        spans = spans[:-1]
    return [(offset + a, offset + b) for a, b in spans[:limit]]


def _is_delimiter_row(line: str) -> bool:
    # Length-checked first: the row pattern backtracks on long runs of trailing spaces.
    return "-" in line and len(line) <= _MAX_ROW and _DELIMITER_ROW.fullmatch(line) is not None


def _tables(text: str) -> list[Finding]:
    """Cells under a header such as `Password` or `API key`, in every row of that table."""
    found: list[Finding] = []
    lines = text.split("\n")
    offsets = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    row = 0
    while row < len(lines) - 1:
        header, below = lines[row], lines[row + 1]
        if "|" not in header or not _is_delimiter_row(below):
            row += 1
            continue
        cells = _cells(header, offsets[row])
        columns = [
            n
            for n, (a, b) in enumerate(cells)
            if b - a <= _MAX_CELL and _HEADER_CELL.fullmatch(text[a:b].strip(" \t*_`")) is not None
        ]
        row += 2
        while row < len(lines) and "|" in lines[row]:
            if columns:
                body = _cells(lines[row], offsets[row], max(columns) + 1)
                for n in columns:
                    if n < len(body) and plausible(text[body[n][0] : body[n][1]]):
                        found.append(Finding(KIND, *_unquote(text, *body[n])))
            row += 1
    return found


def find_passwords(text: str, *, inline: bool, line: bool, table: bool) -> list[Finding]:
    """Password findings of the forms the caller's prefilter saw (each flag: that pattern matched somewhere)."""
    found: list[Finding] = []
    if inline:
        found.extend(_inline(text))
    if line:
        found.extend(_line(text))
    if table:
        found.extend(_tables(text))
    return found
