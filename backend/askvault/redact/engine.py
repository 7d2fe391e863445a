"""`find_secrets` and `redact`: every rule over one text, with one linear RE2 pass deciding which rules run.

The RE2 set holds every pattern (provider rules and the notes' own prefilters); a text none of them matches,
which is nearly every section of a vault, costs that one pass. Only the rules that matched run on their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import re2

from askvault.redact import codes, numbers, passwords
from askvault.redact.rules import PRIVATE_KEY, RULES, Rule
from askvault.redact.spans import Finding, apply, merge, trim

_Detector = Callable[[str], list[Finding]]
JWT = "jwt"
_JWT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+/=")


def _rule_detector(rule: Rule) -> _Detector:
    regex = re2.compile(rule.pattern)

    def detect(text: str) -> list[Finding]:
        found: list[Finding] = []
        for match in regex.finditer(text):
            start, end = match.span(rule.group)
            if start < 0:
                continue
            start, end = trim(text, start, end)
            if end <= start or (rule.check is not None and not rule.check(text[start:end])):
                continue
            if rule.kind == PRIVATE_KEY:
                start, end = codes.extend_private_key(text, start, end)
            elif rule.kind == JWT:
                # The pattern ends lazily after the payload: take the signature too.
                while end < len(text) and text[end] in _JWT_CHARS:
                    end += 1
            found.append(Finding(rule.kind, start, end))
        return found

    return detect


@dataclass(frozen=True, slots=True)
class _Entry:
    pattern: str
    detect: _Detector | None
    """None for the password prefilters, which are combined (see `find_secrets`)."""
    name: str


_ENTRIES: list[_Entry] = [_Entry(rule.pattern, _rule_detector(rule), rule.kind) for rule in RULES]
_ENTRIES += [
    _Entry(numbers.IBAN_CANDIDATE, numbers.find_ibans, numbers.IBAN),
    _Entry(numbers.CARD_CANDIDATE, numbers.find_cards, numbers.CARD),
    _Entry(codes.PREFILTER, lambda text: codes.find_recovery_codes(text, whole_section=False), codes.KIND),
    _Entry(passwords.INLINE, None, "inline"),
    _Entry(passwords.LINE, None, "line"),
    _Entry(passwords.TABLE, None, "table"),
]


def _build_set() -> re2.Set:
    options = re2.Options()
    options.max_mem = 64 << 20  # the combined DFA of ~60 patterns outgrows RE2's 8 MiB default
    matcher = re2.Set.SearchSet(options)
    for index, entry in enumerate(_ENTRIES):
        if matcher.Add(entry.pattern) != index:
            raise RuntimeError(f"secret rule {entry.name} did not compile")
    matcher.Compile()
    return matcher


_SET = _build_set()


def may_contain_secrets(text: str) -> bool:
    """False when no rule can match anywhere in `text` (one linear pass): the caller may skip the text."""
    return bool(text) and bool(_SET.Match(text))


def find_secrets(text: str, *, recovery_section: bool = False) -> list[Finding]:
    """Every secret in `text`, merged and sorted; `recovery_section` treats each code block as recovery codes
    (the text sits under a heading that names them)."""
    if not text:
        return []
    hits = set(_SET.Match(text) or ())
    found: list[Finding] = []
    flags: dict[str, bool] = {}
    for index in sorted(hits):
        entry = _ENTRIES[index]
        if entry.detect is None:
            flags[entry.name] = True
        elif not (recovery_section and entry.name == codes.KIND):
            found.extend(entry.detect(text))
    if flags:
        found.extend(
            passwords.find_passwords(text, **{name: flags.get(name, False) for name in ("inline", "line", "table")})
        )
    if recovery_section:
        found.extend(codes.find_recovery_codes(text, whole_section=True))
    return merge(found)


@dataclass(frozen=True, slots=True)
class Redacted:
    text: str
    kinds: Counter[str]
    """How many secrets of each kind were replaced."""


def redact(text: str, *, recovery_section: bool = False) -> Redacted:
    """`text` with each secret replaced by `[redacted: kind]` (line breaks kept), and the counts by kind."""
    findings = find_secrets(text, recovery_section=recovery_section)
    return Redacted(apply(text, findings), Counter(f.kind for f in findings))
