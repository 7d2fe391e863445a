"""Identifier-like tokens of a question (`kodi-livingroom`, `10.0.0.41`, `WireGuard`): what must match literally."""

from __future__ import annotations

import unicodedata

import regex

from askvault.store.text.tokenize import ANY_JOIN, COMPOUND

_DIGIT = regex.compile(r"\p{N}")
_ORDINAL = regex.compile(r"\p{N}+(?:st|nd|rd|th)", regex.IGNORECASE)
_INNER_CAPITAL = regex.compile(r"\p{Ll}\p{Lu}")
_POSSESSIVE = regex.compile(r"'s$", regex.IGNORECASE)


def is_identifier(raw: str) -> bool:
    """True for a token that names one thing rather than being a word: glued by `. - _ / \\ @ : ~ = +` with a
    part of two or more characters (`kodi-livingroom`, `container_name`, `10.0.0.41`, `INC-0214`; not `e.g`),
    letters mixed with digits (`n8n`, `sha256`, `nANsCsF9gf975ojT`; not an ordinal such as `24th`), a number of
    three or more digits (`5433`, `2024`; not `15` or `80`, which are mostly days, counts and amounts), or a word
    with a capital after a lower-case letter (`WireGuard`, `iPhone`)."""
    if ANY_JOIN.search(raw) is not None:
        return any(len(part) >= 2 for part in ANY_JOIN.split(raw))
    digits = len(_DIGIT.findall(raw))
    if digits == len(raw):
        return digits >= 3
    if digits:
        return _ORDINAL.fullmatch(raw) is None
    return _INNER_CAPITAL.search(raw) is not None


def identifiers(text: str) -> list[str]:
    """The identifier-like tokens of a query (see `is_identifier`), casefolded, without a trailing `'s`, distinct,
    in first-seen order; leading joiners are not part of them (`--hp-accent` → `hp-accent`), as in `tokenize`."""
    normalized = unicodedata.normalize("NFKC", text).replace("’", "'")
    found = (_POSSESSIVE.sub("", raw) for raw in COMPOUND.findall(normalized))
    return list(dict.fromkeys(raw.casefold() for raw in found if is_identifier(raw)))
