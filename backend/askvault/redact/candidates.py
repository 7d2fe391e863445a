"""Checks on a candidate secret that the password, `.env` and link rules share: its key, its value, its span."""

from __future__ import annotations

import re

from askvault.redact.words import PLACEHOLDERS, POINTERS

PASSWORD = "password"
"""The kind of a password finding, whichever rule found it (`passwords.py`, `prose.py`, `env.py`)."""

ABOUT_PARTS = frozenset(
    {"id", "ids", "file", "files", "path", "dir", "name", "url", "uri", "endpoint", "host", "type", "length", "len"}
    | {"size", "ttl", "expiry", "expires", "expiration", "lifetime", "enabled", "disabled", "enable", "active"}
    | {"header", "prefix", "algorithm", "alg", "mode", "count", "max", "min", "limit", "version", "rotation"}
    | {"username", "format", "encoding", "location", "provider", "issuer", "audience", "method", "scope", "scopes"}
    | {"hint", "policy", "days", "hours", "seconds", "public", "pub", "required", "command", "cmd", "helper"}
    | {"store", "backend", "manager", "field", "label", "regex", "pattern", "strength"}
)
"""Parts of a key that make it about a secret rather than the secret: `TOKEN_TTL`, `API_KEY_HEADER`."""
KEY_PARTS = re.compile(r"[_.\-]+|(?<=[a-z])(?=[A-Z])")
"""Splits a key into its parts: `DB_PASSWORD`, `api-key`, `smtp.pass`, `apiKey`."""
# `getpass.getpass()`, `settings.DB_PASSWORD`, `process.env.PW`: code that fetches the secret, not the secret.
_EXPRESSION = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(.*\))?|[A-Za-z_]\w*\(.*\)")


def about(key: str) -> bool:
    """True for a key one of whose parts says its value describes the secret (`API_KEY_HEADER`, `max_tokens`)."""
    return any(part.lower() in ABOUT_PARTS for part in KEY_PARTS.split(key) if part)


def plausible(value: str) -> bool:
    """False for a value that is empty, a placeholder, a reference to elsewhere, or a masked one."""
    value = value.strip(" \t\"'`*_")
    if not any(ch in value for ch in "([{"):
        value = value.rstrip(")]}")  # `f(password: str)`, "(pw: x)", `{"password": 2}}`
    if len(value) < 3:
        return False
    low = value.casefold()
    if low in PLACEHOLDERS or value[0] in "$%{!<[(#" or value.startswith(("/", "~/", "./", "../")):
        return False
    if set(value) <= set("*x.…-_#?•") or (len(value) <= 200 and _EXPRESSION.fullmatch(value)):
        return False
    words = low.split()
    return bool(words) and words[0].strip(":,.").removesuffix("'s").removesuffix("’s") not in POINTERS


def unquote(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrinks a value's span past markup and quotes around it: `**hunter2**` → hunter2, `(pw: x)` → x."""
    junk = " \t\"'`*_"
    while start < end and text[start] in junk:
        start += 1
    while end > start and text[end - 1] in junk:
        end -= 1
    if end > start + 1 and text[end - 1] == ")" and "(" not in text[start:end]:
        end -= 1
    return start, end
