"""`find_secrets` and `redact`: every rule over one text, with four linear RE2 passes deciding which rules run.

One RE2 set holds the provider rules, the bank numbers and the recovery-code words; three more hold the note
rules (password lines, passwords in sentences, links and `.env` lines), their wide windows left open (see
`widen`). In fewer sets, or with their bounded windows, the combined DFA grows until its cache thrashes and is
rebuilt all along a text: seconds for a 4 MiB note, every time (measured on docs, code and keyword-dense
text; `reliability/redos.py`). A text no set matches, which is most sections of a vault, costs those passes;
only the rules that matched run.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import re2

from askvault.redact import codes, env, numbers, passwords, prose, seeds, urls
from askvault.redact.rules import PRIVATE_KEY, RULES, Rule
from askvault.redact.spans import Finding, apply, compile_rule, examined, merge, trim

_Detector = Callable[[str], list[Finding]]
JWT = "jwt"
_JWT_TAIL = re.compile(r"[A-Za-z0-9\-_.+/=]*")
_PEM_END = re.compile(r"-----END[ A-Z0-9]{0,40}-----")


def _extend_private_key(text: str, start: int, end: int, floor: int = 0) -> tuple[int, int]:
    """A private-key finding grows to its whole PEM block: from its line's start (not before `floor`, where the
    previous block ended) to the END line (or, with no END line, to the next blank line), so no line of key
    material stays behind."""
    line_start = max(floor, text.rfind("\n", floor, start) + 1)
    ending = _PEM_END.search(text, end)
    if ending is not None:
        return line_start, ending.end()
    blank = text.find("\n\n", end)
    return line_start, len(text) if blank == -1 else blank


def _rule_detector(rule: Rule) -> _Detector:
    regex = compile_rule(rule.pattern)

    def detect(text: str) -> list[Finding]:
        found: list[Finding] = []
        covered = 0
        """Where the last finding ended: a match inside it (a BEGIN line within a PEM block, a JWT's grown
        signature) is part of it, and the scans that grow findings stay linear."""
        for match in examined(regex.finditer(text), found, rule.kind, len(text)):
            start, end = match.span(rule.group)
            if start < 0 or start < covered:
                continue
            start, end = trim(text, start, end)
            if end <= start or (rule.check is not None and not rule.check(text[start:end])):
                continue
            if rule.kind == PRIVATE_KEY:
                start, end = _extend_private_key(text, start, end, covered)
            elif rule.kind == JWT:
                # The pattern ends lazily after the payload: take the signature too.
                end = _JWT_TAIL.match(text, end).end()  # type: ignore[union-attr]
            covered = end
            found.append(Finding(rule.kind, start, end))
        return found

    return detect


@dataclass(frozen=True, slots=True)
class _Entry:
    pattern: str
    detect: _Detector | None
    """None for the password forms, which run together and take flags (see `find_secrets`)."""
    name: str


_SHARED: list[_Entry] = [_Entry(rule.pattern, _rule_detector(rule), rule.kind) for rule in RULES]
_SHARED += [
    _Entry(numbers.IBAN_CANDIDATE, numbers.find_ibans, numbers.IBAN),
    _Entry(numbers.CARD_CANDIDATE, numbers.find_cards, numbers.CARD),
    _Entry(codes.PREFILTER, lambda text: codes.find_recovery_codes(text, whole_section=False), codes.KIND),
]
_PASSWORD_LINES: list[_Entry] = [
    _Entry(passwords.INLINE, None, "inline"),
    _Entry(passwords.LINE, None, "line"),
    _Entry(passwords.TABLE, None, "table"),
]
_PASSWORD_PROSE: list[_Entry] = [
    _Entry(prose.PROSE, None, "prose"),
    _Entry(prose.SHORTHAND, None, "shorthand"),
    _Entry(prose.PAIR, None, "pair"),
    _Entry(prose.EMAIL_PAIR, None, "email_pair"),
    _Entry(prose.NAMED, None, "named"),
]
_LINKS: list[_Entry] = [
    _Entry(urls.URL, urls.find_url_credentials, urls.URL_CREDENTIALS),
    _Entry(urls.OTPAUTH_URI, urls.find_otpauth, urls.OTPAUTH),
    _Entry(urls.TOTP, urls.find_totp_seeds, urls.TOTP_SEED),
    _Entry(env.LINE, env.find_env_secrets, env.KIND),
]
_PASSWORD_FORMS = ("inline", "line", "table")
_PROSE_FORMS = ("prose", "shorthand", "pair", "email_pair", "named")


_BOUNDED = re.compile(r"\{(\d+),(\d+)\}")


def widen(pattern: str) -> str:
    """`pattern` with its wide bounded repeats (`{0,40}`) left open (`{0,}`): it matches wherever the original
    does, which is all a prefilter needs, and its DFA no longer multiplies its states by the bound."""
    return _BOUNDED.sub(lambda m: m.group(0) if int(m.group(2)) <= 8 else f"{{{m.group(1)},}}", pattern)


def _build_set(entries: list[_Entry], *, wide: bool = False) -> re2.Set:
    options = re2.Options()
    options.max_mem = 64 << 20  # the DFA of ~60 patterns outgrows RE2's 8 MiB default
    matcher = re2.Set.SearchSet(options)
    for index, entry in enumerate(entries):
        if matcher.Add(widen(entry.pattern) if wide else entry.pattern) != index:
            raise RuntimeError(f"secret rule {entry.name} did not compile")
    matcher.Compile()
    return matcher


_GROUPS: list[tuple[re2.Set, list[_Entry]]] = [
    (_build_set(_SHARED), _SHARED),
    *((_build_set(group, wide=True), group) for group in (_PASSWORD_LINES, _PASSWORD_PROSE, _LINKS)),
]


def _matching(text: str) -> list[_Entry]:
    """The rules whose pattern matches somewhere in `text`, in rule order."""
    return [entries[index] for matcher, entries in _GROUPS for index in sorted(matcher.Match(text) or ())]


def may_contain_secrets(text: str, *, seed_phrases: bool = True) -> bool:
    """False when no rule can match anywhere in `text` (linear passes): the caller may skip the text."""
    if not text:
        return False
    return any(matcher.Match(text) for matcher, _ in _GROUPS) or (seed_phrases and seeds.may_hold_phrase(text))


def find_secrets(
    text: str, *, recovery_section: bool = False, seed_section: bool = False, seed_phrases: bool = True
) -> list[Finding]:
    """Every secret in `text`, merged and sorted. `recovery_section` treats each code block as recovery codes
    (the text sits under a heading that names them); `seed_section` each run of wordlist words as a seed
    phrase (under a heading or title that names one); `seed_phrases` False leaves seed phrases alone."""
    if not text:
        return []
    found: list[Finding] = []
    flags: dict[str, bool] = {}
    for entry in _matching(text):
        if entry.detect is None:
            flags[entry.name] = True
        elif not (recovery_section and entry.name == codes.KIND):
            found.extend(entry.detect(text))
    if any(flags.get(name) for name in _PASSWORD_FORMS):
        found.extend(passwords.find_passwords(text, **{name: flags.get(name, False) for name in _PASSWORD_FORMS}))
    if any(flags.get(name) for name in _PROSE_FORMS):
        found.extend(prose.find_prose_passwords(text, **{name: flags.get(name, False) for name in _PROSE_FORMS}))
    if seed_phrases:
        found.extend(seeds.find_seed_phrases(text, labelled=seed_section))
    if recovery_section:
        found.extend(codes.find_recovery_codes(text, whole_section=True))
    return merge(found)


@dataclass(frozen=True, slots=True)
class Redacted:
    text: str
    kinds: Counter[str]
    """How many secrets of each kind were replaced."""


def redact(
    text: str, *, recovery_section: bool = False, seed_section: bool = False, seed_phrases: bool = True
) -> Redacted:
    """`text` with each secret replaced by `[redacted: kind]` (line breaks kept), and the counts by kind."""
    findings = find_secrets(
        text, recovery_section=recovery_section, seed_section=seed_section, seed_phrases=seed_phrases
    )
    return Redacted(apply(text, findings), Counter(f.kind for f in findings))
