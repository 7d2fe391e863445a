"""Secrets in links and 2FA setup: `scheme://user:secret@host` credentials, `otpauth://` URIs, TOTP seeds.

A URL's password goes, its user, host and path stay (the note still says which database it points at); a
template's stand-in (`user:password@`, `:${REDIS_PASSWORD}@`, `<pass>`) is not a secret. An `otpauth://` URI
(or Google Authenticator's `otpauth-migration://` export) goes whole: its label is the only harmless part.
A TOTP seed is base32 (RFC 4648: `A-Z`, `2-7`, 16 characters or more, often in groups of four) next to a word
that names it ("TOTP secret", "setup key", "2FA-Schlüssel", "clé secrète", "clave de configuración"): on the
same line, or alone on the line right below a line that names it. Patterns are RE2 (linear time).
"""

from __future__ import annotations

import re

from askvault.redact.candidates import plausible
from askvault.redact.spans import Finding, compile_rule, examined

URL_CREDENTIALS = "url-credentials"
OTPAUTH = "otpauth"
TOTP_SEED = "totp-seed"

# The password may hold an unescaped `@` (people paste them so): the host is what follows the last one.
URL = (
    r"(?mi)\b[a-z][a-z0-9+.\-]{1,30}://(?P<user>[^\s:/@?#\[\]\"'`<>]{0,100}):(?P<secret>[^\s/?#\"'`<>]{1,200}?)"
    r"@(?P<host>[A-Za-z0-9\-._~%]+|\[[0-9A-Fa-f:.]+\])(?:[:/?#\s\"'`<>)\],;]|$)"
)
OTPAUTH_URI = r"(?i)otpauth(?:-migration)?://[^\s\"'`<>)\]]+"
_SEED_WORDS = (
    r"totp|2fa|mfa|otp|authenticator|setup[ \-]?key|secret[ \-]?key|seed|shared[ \-]?secret|einrichtungsschlüssel"
    r"|geheimschlüssel|2fa[ \-]schlüssel|totp[ \-]schlüssel|cl[ée] (?:secr[eè]te|de configuration)"
    r"|clave (?:secreta|de configuraci[oó]n)|c[oó]digo de configuraci[oó]n"
)
_BASE32 = (
    r"(?:[A-Z2-7]{16,128}|[a-z2-7]{16,128}|(?:[A-Z2-7]{4}[ \-]){3,31}[A-Z2-7]{4}|(?:[a-z2-7]{4}[ \-]){3,31}[a-z2-7]{4})"
)
TOTP = (
    rf"(?mi)\b(?:{_SEED_WORDS})(?:[^\n]{{0,80}}?(?-i:(?:^|[^A-Za-z0-9])(?P<seed>{_BASE32})=*(?:[^A-Za-z0-9]|$))"
    rf"|[^\n]{{0,80}}\n[ \t>*\-`]*(?-i:(?P<below>{_BASE32}))=*[ \t`*]*$)"
)  # fmt: skip

_URL = compile_rule(URL)
_SECRET = _URL.groupindex["secret"]
_OTPAUTH = compile_rule(OTPAUTH_URI)
_TOTP = compile_rule(TOTP)
_SEED, _BELOW = _TOTP.groupindex["seed"], _TOTP.groupindex["below"]
_STAND_INS = frozenset(
    {"token", "pw", "pwd", "passwd", "mypassword", "yourpassword", "your_password", "your-password", "mypass"}
    | {"secretpassword", "userpass", "apikey", "api_key"}
)
_TEMPLATE = re.compile(r"(?i)\$\{?[A-Z_]+\}?|%[0-9A-Z_]+%|\{\{.*\}\}|<[^>]*>|\[[^\]]*\]|x{3,}|\*{3,}")


def find_url_credentials(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_URL.finditer(text), found, URL_CREDENTIALS, len(text)):
        secret = match.group(_SECRET)
        if _TEMPLATE.fullmatch(secret) is None and secret.lower() not in _STAND_INS and plausible(secret):
            found.append(Finding(URL_CREDENTIALS, *match.span(_SECRET)))
    return found


def find_otpauth(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_OTPAUTH.finditer(text), found, OTPAUTH, len(text)):
        found.append(Finding(OTPAUTH, *match.span()))
    return found


def _base32(seed: str) -> bool:
    """Random base32, not words: a digit among the letters, or else capitals with few vowels (random base32 has
    about one in six, words in capitals two in five: `WEBAUTHNPASSKEYS`); grouped lowercase letters without a
    digit are prose ("look into this more")."""
    compact = seed.replace(" ", "").replace("-", "")
    if any(ch.isdigit() for ch in compact):
        return not compact.isdigit()
    vowels = sum(ch in "AEIOU" for ch in compact)
    return compact.isupper() and len(compact) == len(seed) and vowels * 4 < len(compact)


def find_totp_seeds(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_TOTP.finditer(text), found, TOTP_SEED, len(text)):
        group = _SEED if match.start(_SEED) >= 0 else _BELOW
        start, end = match.span(group)
        if start >= 0 and _base32(text[start:end]):
            found.append(Finding(TOTP_SEED, start, end))
    return found
