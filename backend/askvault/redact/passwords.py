"""Passwords written the way people write them in notes: `key: value` lines, `KEY=value`, and table columns.

Keywords cover English, German, French and Spanish (plus Dutch and Portuguese words for password), Wi-Fi keys
and door or alarm codes; `PIN`/`PUK` count here only in capitals, since `pin: GPIO4` is wiring, not a secret
(`prose.py` takes `pin 4711` in any case, digits only). A plural key ("Secrets: Paperless-ngx, Vaultwarden")
names a list, so its value counts only as one token.
A value that points somewhere instead of being the secret ("see Vaultwarden", `${DB_PASS}`, `!secret db`,
`<password>`, `[[Bitwarden]]`) is left alone, so the note still answers "where is the router password?".
Patterns are RE2 (linear time); Python `re` runs only on short, length-checked strings.
"""

from __future__ import annotations

import itertools
import re

from askvault.redact.candidates import PASSWORD, about, plausible, unquote
from askvault.redact.spans import MAX_MATCHES, Finding, compile_rule, examined

_STRONG = (
    r"passwor[dt]|passwd|kennwort|passphrase|passcode|secret(?: key)?|api[ _\-]?key|apikey|access[ _\-]?key"
    r"|private[ _\-]?key"
    r"|auth[_\-]?key|client[_\-]?secret|auth[_\-]?token|access[_\-]?token|refresh[_\-]?token|contrase(?:ñ|n)a"
    r"|zugangscode|wachtwoord|senha|(?:wifi|wi-fi|wlan|wpa2?|network|netzwerk)[ \-]?(?:key|schlüssel)"
    r"|(?:door|gate|alarm|garage|safe|locker|entry|keypad|access|tür|haustür|tor|tresor|alarm)[ \-]?code|digicode"
    r"|code d'acc[eè]s|c[oó]digo de (?:acceso|seguridad|alarma)|cl[ée] (?:wifi|wi-fi|wpa2?)"
)
_WEAK = r"pwd|pw|mdp|clave|token|(?-i:PIN|PUK)(?:[ \-]?(?i:code|nummer|number))?|(?i:code|c[oó]digo) (?-i:PIN)"
_MARKUP = r"(?:\*\*|__)?"

# `DB_PASSWORD=…`, `api_key: "…"`, `--password=…`, "… and the password: hunter2, then …"
# Windows are unbounded in the patterns and measured in Python: a bounded repeat (`{0,40}`) multiplies an RE2
# DFA's states by its width, and such a DFA is rebuilt all along a big, varied note. The patterns end at a
# value's first character; Python reads the value on (possessive, so a line-long value costs one pass), since
# RE2 would walk its slower capturing engine across a value as long as the note.
INLINE = (
    r"(?mi)(?:^|[^A-Za-z0-9_.\-])"
    rf"(?P<key>[A-Za-z0-9_.\-]*(?:{_STRONG})[A-Za-z0-9_.\-]*"
    rf"|(?:[A-Za-z0-9.\-]*[_.\-])?(?:{_WEAK})|[A-Za-z0-9.\-]*[_.\-]pass)"
    rf"(?:\*\*|__|[\"'\]])?[ \t]*(?::=|=>|[:=])[ \t]*{_MARKUP}[ \t]*(?P<value>[^\s,;|<>])"
)
# "- **WiFi password:** correct horse battery staple", "Mot de passe : x", "> Router PIN: 1234"
LINE = (
    r"(?mi)^(?P<lead>[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?|>[ \t]*)*)" + _MARKUP
    + rf"(?:[^\n:=|*_]*[ \t\-])?(?P<key>(?:{_STRONG})(?:e|er|s)?|{_WEAK}|mot de passe|passwörter)"
    + rf"{_MARKUP}[ \t]*{_MARKUP}[ \t]*[:=]{_MARKUP}[ \t]*(?P<value>[^\s])"
)  # fmt: skip
TABLE = rf"(?mi)^[^\n]*\|[^\n]*(?:{_STRONG}|{_WEAK})[^\n]*$"

_INLINE = compile_rule(INLINE)
_LINE = compile_rule(LINE)
_INLINE_KEY, _INLINE_VALUE = _INLINE.groupindex["key"], _INLINE.groupindex["value"]
_LINE_LEAD, _LINE_KEY, _LINE_VALUE = _LINE.groupindex["lead"], _LINE.groupindex["key"], _LINE.groupindex["value"]
_MAX_KEY = 90
_MAX_LABEL = 42
"""Characters of a line's label before its key ("WLAN im Gästehaus - Passwort:")."""
_MAX_LINE_VALUE = 301
INLINE_VALUE = re.compile(r"\"[^\"\n]++\"|'[^'\n]++'|`[^`\n]++`|[^\s\"'`,;|<>]++")
_HEADER_CELL = re.compile(
    rf"(?i)(?:[\w .\-]{{0,30}}[ _.\-])?(?:(?:{_STRONG})(?:e|er|s)?|pwd|pw|mdp|token|passwörter|mots? de passe)"
    r"|(?-i:PIN|PUK)"
)
_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER_ROW = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")


_REFERENCE_KEYS = ("file", "path", "dir", "_name", "_url")
"""`RESTIC_PASSWORD_FILE=/root/.restic`: the key names where the secret is, not the secret."""
_MAX_VALUE_WORDS = 8
_MAX_CELL = 120
_MAX_COLUMNS = 64
_MAX_ROW = 4000


def _inline(text: str) -> list[Finding]:
    found: list[Finding] = []
    covered = 0
    for match in examined(_INLINE.finditer(text), found, PASSWORD, len(text)):
        key = match.group(_INLINE_KEY).casefold()
        start = match.start(_INLINE_VALUE)
        if start < covered or len(key) > _MAX_KEY or "secretar" in key or key.endswith(_REFERENCE_KEYS) or about(key):
            continue
        read = INLINE_VALUE.match(text, start)
        if read is None:
            continue
        value, end = read.group(), read.end()
        covered = end
        if key.endswith("s") and text.startswith(",", end):
            continue  # "secrets: Paperless-ngx, Vaultwarden" lists things; `.env` lists go to `env.py`
        if plausible(value):
            found.append(Finding(PASSWORD, *unquote(text, start, end)))
    return found


def _listed(key: str, value: str) -> bool:
    """A plural key with several words ("Secrets: Paperless-ngx, Vaultwarden"), or the Spanish `clave` (also
    "key" in general) with a word instead of a password-shaped value."""
    key = key.casefold()
    if key.endswith(("s", "wörter", "worte")) and len(value.split()) > 1:
        return True
    return key == "clave" and not any(ch.isdigit() or not ch.isalnum() for ch in value.strip())


def _line(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_LINE.finditer(text), found, PASSWORD, len(text)):
        start = match.start(_LINE_VALUE)
        eol = text.find("\n", start, start + _MAX_LINE_VALUE + 1)
        if eol < 0 and len(text) > start + _MAX_LINE_VALUE:
            continue  # a value longer than a line's is prose
        value = text[start : len(text) if eol < 0 else eol].rstrip("\r \t")
        if match.start(_LINE_KEY) - match.end(_LINE_LEAD) > _MAX_LABEL + 4:
            continue
        words = value.casefold().split()
        if len(words) > _MAX_VALUE_WORDS or not plausible(value) or _listed(match.group(_LINE_KEY), value):
            continue
        found.append(Finding(PASSWORD, *unquote(text, start, start + len(value))))
    return found


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
    row = examined = 0
    while row < len(lines) - 1:
        header, below = lines[row], lines[row + 1]
        if "|" not in header or not _is_delimiter_row(below):
            row += 1
            continue
        examined += 1
        cells = _cells(header, offsets[row])
        columns = [
            n
            for n, (a, b) in enumerate(cells)
            if b - a <= _MAX_CELL and _HEADER_CELL.fullmatch(text[a:b].strip(" \t*_`")) is not None
        ]
        row += 2
        while row < len(lines) and "|" in lines[row]:
            examined += 1
            if examined > MAX_MATCHES:
                found.append(Finding(PASSWORD, offsets[row], len(text)))  # see `MAX_MATCHES`
                return found
            if columns:
                body = _cells(lines[row], offsets[row], max(columns) + 1)
                for n in columns:
                    if n < len(body) and plausible(text[body[n][0] : body[n][1]]):
                        found.append(Finding(PASSWORD, *unquote(text, *body[n])))
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
