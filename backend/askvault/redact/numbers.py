"""Bank numbers that must pass a checksum to count: IBANs (python-stdnum's mod-97 and country format) and
payment card numbers (Luhn, an issuer prefix and the issuer's length), written plain or in groups."""

from __future__ import annotations

from stdnum import iban, luhn

from askvault.redact.spans import Finding, compile_rule, examined

IBAN = "iban"
CARD = "card-number"

IBAN_CANDIDATE = r"(?m)\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,32}\b"
CARD_CANDIDATE = r"(?m)(?:^|[^0-9A-Za-z+\-./:,#])(?P<number>[0-9](?:[ \-]?[0-9]){12,18})(?:$|[^0-9A-Za-z])"
_IBAN = compile_rule(IBAN_CANDIDATE)
_CARD = compile_rule(CARD_CANDIDATE)
_NUMBER = _CARD.groupindex["number"]
_MIN_IBAN = 15


def _mod97_lengths(compact: str) -> set[int]:
    """Every prefix length (>= 15) of `compact` that passes the ISO 7064 mod-97 check, in one pass: cheap
    enough to run on every candidate before python-stdnum's full validation (country format and length)."""
    head = "".join(str(int(ch, 36)) for ch in compact[:4])
    head_value, head_shift = int(head), 10 ** len(head)
    rest = 0
    lengths: set[int] = set()
    for length, ch in enumerate(compact[4:], start=5):
        digits = str(int(ch, 36))
        rest = (rest * 10 ** len(digits) + int(digits)) % 97
        if length >= _MIN_IBAN and (rest * head_shift + head_value) % 97 == 1:
            lengths.add(length)
    return lengths


def _valid_iban(candidate: str) -> int:
    """Length of the longest prefix of `candidate` that is a valid IBAN (whole space-separated groups), or 0."""
    passing = _mod97_lengths(candidate.replace(" ", ""))
    if not passing:
        return 0
    if " " in candidate:
        groups = candidate.split(" ")
        for count in range(len(groups), 0, -1):
            prefix = " ".join(groups[:count])
            if len(prefix) - count + 1 in passing and iban.is_valid(prefix):
                return len(prefix)
        return 0
    return next((n for n in sorted(passing, reverse=True) if iban.is_valid(candidate[:n])), 0)


def find_ibans(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_IBAN.finditer(text), found, IBAN, len(text)):
        length = _valid_iban(match.group(0))
        if length:
            found.append(Finding(IBAN, match.start(), match.start() + length))
    return found


def _issuer_ok(digits: str) -> bool:
    """Visa, Mastercard, Amex, Discover, Diners, JCB and UnionPay prefixes with their lengths."""
    size = len(digits)
    two, four = int(digits[:2]), int(digits[:4])
    if digits[0] == "4":
        return size in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return size == 16
    if two in (34, 37):
        return size == 15
    if four == 6011 or two == 65 or 644 <= int(digits[:3]) <= 649:
        return 16 <= size <= 19
    if two in (36, 38, 39) or 300 <= int(digits[:3]) <= 305:
        return 14 <= size <= 19
    if 3528 <= four <= 3589 or two == 62:
        return 16 <= size <= 19
    return False


def _grouping_ok(number: str) -> bool:
    """Plain digits, or groups of four (the last may be shorter), or Amex/Diners 4-6-5 / 4-6-4, one separator."""
    separators = {ch for ch in number if not ch.isdigit()}
    if not separators:
        return True
    if len(separators) > 1:
        return False
    sizes = [len(group) for group in number.split(separators.pop())]
    if sizes in ([4, 6, 5], [4, 6, 4]):
        return True
    return len(sizes) >= 3 and all(size == 4 for size in sizes[:-1]) and 1 <= sizes[-1] <= 4


def _valid_card(number: str) -> int:
    """Length of the longest valid card number at the start of `number` (whole groups), or 0."""
    separators = [i for i, ch in enumerate(number) if not ch.isdigit()]
    cuts = [len(number)] + [i for i in reversed(separators)]
    for cut in cuts:
        prefix = number[:cut]
        digits = "".join(ch for ch in prefix if ch.isdigit())
        if 13 <= len(digits) <= 19 and _grouping_ok(prefix) and _issuer_ok(digits) and luhn.is_valid(digits):
            return cut
    return 0


def find_cards(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_CARD.finditer(text), found, CARD, len(text)):
        number = match.group(_NUMBER)
        length = _valid_card(number)
        if length:
            start = match.start(_NUMBER)
            found.append(Finding(CARD, start, start + length))
    return found
