"""BIP-39 seed phrases: 12, 15, 18, 21 or 24 words of the English wordlist (Trezor's `mnemonic` package), in
a line, a column, a numbered list (`1. abandon`), a table or a comma-separated run.

A run of twelve or more list words counts as a phrase when any of these holds:
- a valid-length window at its start or end passes the BIP-39 checksum (a real, machine-made phrase);
- it sits under a heading, a note title or a label that names a seed ("Seed phrase", "Ledger backup", "BIP39",
  "Wiederherstellungsphrase", "phrase de récupération", "frase semilla"…), on its line or the two above;
- it is a line of exactly 12, 15, 18, 21 or 24 lowercase words and nothing else.
The checksum alone would miss what people really keep (a phrase with a typo, a partial or made-up one, a
phrase copied under its label), and the label alone would miss an unlabelled one. Ordinary prose never gets
here: twelve varied list words in a row occur nowhere in 36 MB of English documentation and code (vim's and
Python's docs, package READMEs), and repeated words (`FALSE | TRUE | …`, `text text text`) only count with a
valid checksum. Only full words count: a backup of four-letter prefixes is not recognised. The RE2 pattern
finds runs of short words in linear time; Python looks their words up, with caps on the runs, on the runs
of list words and on the checksum work per text (past a cap, the rest of the text is redacted, as in
`spans.MAX_MATCHES`).
"""

from __future__ import annotations

import hashlib
import re

from mnemonic import Mnemonic

from askvault.redact.spans import Finding, compile_rule, examined

KIND = "seed-phrase"
WORDS: tuple[str, ...] = tuple(Mnemonic("english").wordlist)
_INDEX = {word: n for n, word in enumerate(WORDS)}
_LENGTHS = (24, 21, 18, 15, 12)
_MIN = 12
_MAX_RUN = 48
"""Longer runs are checked only by their label: no phrase is that long."""
_MAX_CHECKS = 4000
"""Checksum windows per text: a hostile note of many long runs cannot make the check quadratic."""

_SEP = r"[ \t,;|*>.\-)(\[\]:0-9]"
# Twelve or more words of three to eight letters (every list word's length) with only list layout between:
# the list itself stays out of the pattern, whose DFA would otherwise hold 2,048 words twelve times over.
CANDIDATE = (
    rf"(?i)\b(?:[a-z]{{3,8}}\b(?:{_SEP}{{1,24}}|{_SEP}{{0,12}}\r?\n{_SEP}{{0,12}})){{{_MIN - 1},}}[a-z]{{3,8}}\b"
)
_CANDIDATE = compile_rule(CANDIDATE)
_WORD = re.compile(r"[A-Za-z]+")
SEED_LABEL = (
    r"(?i)\b(?:seed|mnemonic|(?:recovery|backup|secret|wallet)[ \-]?(?:phrase|words|seed|sentence)|bip[ \-]?39"
    r"|wallet|ledger|trezor|metamask|electrum|coldcard|bitbox|keystone|exodus|sparrow|(?:12|24)[ \-](?:words?|wörter)"
    r"|wiederherstellungs(?:phrase|satz|wörter)|phrase (?:de r[ée]cup[ée]ration|secr[eè]te|mn[ée]monique)"
    r"|mots? de r[ée]cup[ée]ration|frase (?:semilla|de recuperaci[oó]n|secreta)|palabras (?:semilla|de recuperaci[oó]n)"
    r"|semilla|graine)"
)
_LABEL = re.compile(SEED_LABEL)
_LABEL_LINES = 2
_LOOK_BACK = 400
_MAX_RUNS = 8192
"""Runs of short words read per text (prose has about one per 3 KB); see `spans.MAX_MATCHES`."""
_MAX_CANDIDATES = 512
"""Runs of twelve list words examined per text (each costs a few hundred words' work)."""
_LONG_RUN = 2048
"""Characters of a run beyond which only its ends are read: no phrase is that long, and a checksum window sits
at an end of its run."""


def _listed_run(text: str, start: int, end: int) -> bool:
    """Twelve list words in a row somewhere in `text[start:end]` (a quick look before `_segments`)."""
    streak = 0
    for word in _WORD.findall(text, start, end):
        streak = streak + 1 if word.lower() in _INDEX else 0
        if streak >= _MIN:
            return True
    return False


def may_hold_phrase(text: str) -> bool:
    """True when `text` may hold a run of twelve list words (one linear pass, then the runs' words)."""
    for count, candidate in enumerate(_CANDIDATE.finditer(text)):
        start, end = candidate.span()
        if count == _MAX_RUNS or end - start > _LONG_RUN or _listed_run(text, start, end):
            return True
    return False


def is_seed_heading(heading: str) -> bool:
    return len(heading) <= 240 and _LABEL.search(heading) is not None


def checksum_ok(indices: list[int]) -> bool:
    """The BIP-39 checksum of a phrase given as wordlist indices (11 bits each; the last n/3 bits check)."""
    bits = 11 * len(indices)
    check_bits = bits // 33
    value = 0
    for index in indices:
        value = (value << 11) | index
    entropy = (value >> check_bits).to_bytes((bits - check_bits) // 8, "big")
    return hashlib.sha256(entropy).digest()[0] >> (8 - check_bits) == value & ((1 << check_bits) - 1)


class _Budget:
    def __init__(self) -> None:
        self.left = _MAX_CHECKS

    def checksum_window(self, indices: list[int]) -> tuple[int, int] | None:
        """(first, last) word of a valid-length window at the start or the end of the run that passes the
        checksum, or None."""
        if len(indices) > _MAX_RUN:
            return None
        for size in _LENGTHS:
            for first in (0, len(indices) - size):
                if first < 0 or len(indices) < size or self.left <= 0:
                    continue
                self.left -= 1
                if checksum_ok(indices[first : first + size]):
                    return first, first + size - 1
        return None


def _labelled(text: str, start: int) -> bool:
    """A seed label on the run's own line (before it) or on one of the two lines above (a label is short, so
    only the last `_LOOK_BACK` characters of them are searched)."""
    floor = max(0, start - _LOOK_BACK)
    above = text.rfind("\n", floor, start) + 1
    for _ in range(_LABEL_LINES):
        if above <= floor:
            break
        above = text.rfind("\n", floor, above - 1) + 1
    return _LABEL.search(text, max(above, floor), start) is not None


def _segments(text: str, start: int, end: int) -> list[list[re.Match[str]]]:
    """The run's words, cut at words that are not list words, after a word that ends a label ("seed:"), and
    around a heading line ("## Seed")."""
    segments: list[list[re.Match[str]]] = [[]]
    floor = max(0, start - _LOOK_BACK)
    heading = text[max(floor, text.rfind("\n", floor, start) + 1) : start].lstrip().startswith("#")
    previous = start
    for match in _WORD.finditer(text, start, end):
        newline = text.rfind("\n", previous, match.start())
        previous = match.end()
        if newline >= 0:
            heading = text[newline + 1 : match.start()].lstrip().startswith("#")
        if heading or match.group().lower() not in _INDEX:
            segments.append([])
            continue
        if text.startswith(":", match.end()) and match.end() + 1 < end and text[match.end() + 1].isspace():
            segments.append([])
            continue
        segments[-1].append(match)
    return [segment for segment in segments if len(segment) >= _MIN]


def _bare_line(text: str, words: list[re.Match[str]]) -> bool:
    """The words are a whole line of their own, lowercase, one space apart, as many as a phrase has."""
    if len(words) not in _LENGTHS:
        return False
    floor, ceiling = max(0, words[0].start() - _LOOK_BACK), words[-1].end() + _LOOK_BACK
    line_start = text.rfind("\n", floor, words[0].start())
    line_end = text.find("\n", words[-1].end(), ceiling)
    if (line_start < 0 and floor > 0) or (line_end < 0 and ceiling < len(text)):
        return False  # a longer line holds more than the phrase
    line = text[line_start + 1 : len(text) if line_end < 0 else line_end].strip()
    return line == " ".join(w.group() for w in words) and line.islower()


def find_seed_phrases(text: str, *, labelled: bool = False) -> list[Finding]:
    """Seed phrases in `text`; `labelled`: the text sits under a heading or title that names a seed."""
    found: list[Finding] = []
    budget = _Budget()
    listed = 0
    for candidate in examined(_CANDIDATE.finditer(text), found, KIND, len(text), _MAX_RUNS):
        start, end = candidate.span()
        if end - start <= _LONG_RUN and not _listed_run(text, start, end):
            continue
        listed += 1
        if listed > _MAX_CANDIDATES:
            found.append(Finding(KIND, start, len(text)))
            break
        if end - start > _LONG_RUN:
            if labelled or _labelled(text, start):
                found.append(Finding(KIND, start, end))
                continue
            segments = [*_segments(text, start, start + _LONG_RUN // 2), *_segments(text, end - _LONG_RUN // 2, end)]
        else:
            segments = _segments(text, start, end)
        for words in segments:
            lowered = [w.group().lower() for w in words]
            varied = len(set(lowered)) * 4 >= len(lowered) * 3
            if varied and (labelled or _labelled(text, words[0].start()) or _bare_line(text, words)):
                found.append(Finding(KIND, words[0].start(), words[-1].end()))
                continue
            window = budget.checksum_window([_INDEX[w] for w in lowered])
            if window is not None:
                found.append(Finding(KIND, words[window[0]].start(), words[window[1]].end()))
    return found
