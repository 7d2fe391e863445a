"""`.env`-style lines whose key names a secret: `JWT_SECRET=…`, `export N8N_ENCRYPTION_KEY=…`, `- APP_KEY=…`
in a compose file, "set PAPERLESS_SECRET_KEY=…" in a sentence, `SENTRY_DSN: …` at the start of a line.

The key is read by its parts (`_`, `-`, `.` separated): a part that names a secret (`SECRET`, `TOKEN`, `SALT`,
`DSN`, `CREDENTIALS`…) or a `KEY` after a part that makes it one (`API_KEY`, `ENCRYPTION_KEY`, `SIGNING_KEY`;
not `SORT_KEY` or `PRIMARY_KEY`), unless a part says the value is about the secret rather than the secret
(`TOKEN_TTL`, `SECRET_FILE`, `MAX_TOKENS`, `PUBLIC_KEY`, `AWS_ACCESS_KEY_ID`). Keys that name a password
(`DB_PASSWORD`, `SMTP_PASS`) give `password` findings, the others `env-secret`.
"""

from __future__ import annotations

import itertools
import re

from askvault.redact.candidates import KEY_PARTS, PASSWORD, about, plausible, unquote
from askvault.redact.spans import Finding, compile_rule, examined

KIND = "env-secret"

_NAMES = r"(?i:secret|token|key|pass|pwd|pw|salt|dsn|cred|pat|hmac|psk|pepper|kennwort)"
LINE = (
    r"(?m)(?P<lead>^[ \t]*(?:[-*>][ \t]+)?|[ \t(:])`?(?:export[ \t]+)?"
    rf"(?P<key>[A-Za-z0-9_.\-]*{_NAMES}[A-Za-z0-9_.\-]*)"
    r"(?:=|[ \t]*:[ \t]+)(?P<value>[^\s`#])"
)
_LINE = compile_rule(LINE)
_MAX_KEY = 160
_VALUE_READ = re.compile(r"\"[^\"\n]++\"|'[^'\n]++'|[^\s\"'`#][^\s`]*+")
"""The value from its first character on (see `passwords.INLINE_VALUE`)."""
_LEAD, _KEY, _VALUE = _LINE.groupindex["lead"], _LINE.groupindex["key"], _LINE.groupindex["value"]

_PASSWORD_PARTS = frozenset({"password", "passwd", "pass", "pwd", "pw", "passphrase", "kennwort", "passwort"})
_SECRET_PARTS = frozenset(
    {"secret", "secrets", "token", "tokens", "apikey", "apitoken", "dsn", "salt", "credential", "credentials", "creds"}
    | {"privatekey", "secretkey", "accesstoken", "authtoken", "webhooksecret", "hmac", "psk", "pepper"}
)
_KEY_QUALIFIERS = frozenset(
    {"api", "app", "encryption", "encrypt", "crypt", "crypto", "cipher", "aes", "private", "secret", "signing", "sign"}
    | {"master", "session", "access", "auth", "client", "hmac", "jwt", "webhook", "service", "admin", "root", "shared"}
    | {"preshared", "cookie", "csrf", "license", "licence", "account", "storage", "wg", "wireguard", "vapid", "ssh"}
    | {"deploy", "recovery", "backup", "restic", "borg", "gpg", "pgp", "age", "user", "bot", "consumer", "subscription"}
)


def key_kind(key: str) -> str | None:
    """`password`, `env-secret`, or None when the key does not name a secret."""
    parts = [part.lower() for part in KEY_PARTS.split(key) if part]
    if not parts or about(key):
        return None
    if any(part in _PASSWORD_PARTS for part in parts):
        return PASSWORD
    if any(part in _SECRET_PARTS for part in parts) or (len(parts) > 1 and parts[-1] == "pat"):
        return KIND
    for before, part in itertools.pairwise(parts):
        if part in ("key", "keys") and before in _KEY_QUALIFIERS:
            return KIND
    return None


def find_env_secrets(text: str) -> list[Finding]:
    found: list[Finding] = []
    covered = 0
    for match in examined(_LINE.finditer(text), found, KIND, len(text)):
        key = match.group(_KEY)
        if len(key) > _MAX_KEY or match.start(_VALUE) < covered:
            continue
        # `Key: value` is a YAML or prose line unless the key is an environment variable's name (capitals).
        colon = text[match.end(_KEY) : match.start(_VALUE)].strip() == ":"
        at_line_start = match.start(_LEAD) == 0 or text[match.start(_LEAD) - 1] == "\n"
        variable = key.isupper() and ("_" in key or len(key) > 3)
        # Mid-line or as `Key: value`, only an environment variable's name (capitals) counts; mid-line, only `=`.
        if (colon and not at_line_start) or ((colon or not at_line_start) and not variable):
            continue
        kind = key_kind(key)
        read = _VALUE_READ.match(text, match.start(_VALUE))
        if kind is None or read is None:
            continue
        value, covered = read.group(), read.end()
        if not plausible(value) or value.strip("\"'").lower() in ("true", "false", "0", "1"):
            continue
        found.append(Finding(kind, *unquote(text, read.start(), read.end())))
    return found
