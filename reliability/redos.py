"""ReDoS payloads for the redaction rules: for each rule, a note at the indexer's size cap built to make that
rule work hardest (its keywords, separators and near-misses repeated, one huge line or a million short ones).

`python -m reliability.fuzzrun` times them through the whole pipeline with the rest of the corpus and reports
the redaction step's own time; `tests/fuzz/test_redaction_redos.py` bounds each one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from askvault.redact.seeds import WORDS

CAP_BYTES = 4 * 1024 * 1024
"""The largest note the indexer reads (`VaultConfig.max_note_bytes`)."""
RECOVERY = "## Recovery codes\n\n"
SEED = "## Seed phrase\n\n"


def fill(unit: str, head: str = "", tail: str = "") -> Callable[[], bytes]:
    """A note of `head`, then `unit` repeated up to the cap (the last time cut short), then `tail`."""

    def make() -> bytes:
        room = CAP_BYTES - len(head.encode()) - len(tail.encode())
        whole, rest = divmod(room, len(unit.encode()))
        return (head + unit * whole + unit.encode()[:rest].decode("utf-8", "ignore") + tail).encode()

    return make


_KEYWORDS = (
    "password", "Passwort", "pw", "PIN", "pass", "code", "key", "token", "secret", "user", "login", "admin",
    "recovery codes", "backup", "seed", "wallet", "wifi", "is", "ist", "est", "es", "for", "the", "der", "la",
)  # fmt: skip
_PUNCTUATION = (" ", " ", " ", " ", ": ", " = ", ", ", ". ", "\n", "\n- ", " / ", " | ", "@", "://", "-")


def mixed_prose() -> bytes:
    """A note of varied text (a seeded mix of list words, the rules' keywords, numbers and punctuation): unlike
    the repeated payloads, it keeps the DFAs meeting new states all the way through."""
    rng = random.Random(20261201)
    parts: list[str] = []
    size = 0
    while size < CAP_BYTES - 64:
        pick = rng.random()
        word = rng.choice(_KEYWORDS) if pick < 0.2 else str(rng.randrange(10**6)) if pick < 0.3 else rng.choice(WORDS)
        piece = word + rng.choice(_PUNCTUATION)
        parts.append(piece)
        size += len(piece.encode())
    return "".join(parts).encode()


_PHRASE_48 = " ".join(WORDS[(n * 37) % len(WORDS)] for n in range(48))
_VARIED = " ".join(WORDS[n % len(WORDS)] for n in range(2048)) + " "

REDOS: dict[str, Callable[[], bytes]] = {
    # Provider rules and the older note rules (the cases `tests/redact/test_engine.py` also runs, at the cap).
    "redos-jwt-prefixes": fill("eyJ"),
    "redos-jwt-tokens": fill("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0."),
    "redos-pem-begins": fill("-----BEGIN RSA PRIVATE KEY----- "),
    "redos-pem-blocks": fill("-----BEGIN EC PRIVATE KEY----- x -----END EC PRIVATE KEY----- "),
    "redos-openai-prefixes": fill("sk-"),
    "redos-npm-slashes": fill("//", tail="/:_authToken"),
    "redos-keyword-spaces": fill(" ", head="cloudant_password", tail="x"),
    "redos-wide-table": fill("| a |", head="|password|\n|---|\n"),
    "redos-many-tables": fill("|password|\n|---|\n| x1y2z3 |\n"),
    "redos-delimiter-spaces": fill(" ", head="|---", tail="x"),
    "redos-iban-groups": fill("DE89 "),
    "redos-digits": fill("4"),
    "redos-repeated-keys": fill("password="),
    "redos-inline-values": fill("password: hunter2 "),
    # Passwords in sentences and shorthand.
    "redos-prose-keys": fill("password is "),
    "redos-prose-qualifier": fill("Passwort für das "),
    "redos-prose-changed": fill("password was changed to "),
    "redos-prose-passphrase": fill("correct ", head="Wifi password is "),
    "redos-prose-keypad": fill("the code for the door is "),
    "redos-prose-pin": fill("PIN is "),
    "redos-shorthand-pw": fill("pw "),
    "redos-shorthand-pass": fill("user admin pass "),
    "redos-shorthand-colon": fill("pass: "),
    "redos-named": fill("Passwort Router Netflix "),
    "redos-pairs": fill("login: a / "),
    "redos-email-pairs": fill("a@b.cc / "),
    # Links and 2FA setup.
    "redos-url-schemes": fill("https://"),
    "redos-url-colons": fill(":", head="x://", tail="@h"),
    "redos-url-ats": fill("p@", head="http://u:"),
    "redos-otpauth": fill("otpauth://"),
    "redos-otpauth-long": fill("a", head="otpauth://"),
    "redos-totp-keywords": fill("TOTP "),
    "redos-totp-groups": fill("ABCD ", head="2FA: "),
    "redos-totp-lines": fill("seed\n"),
    "redos-totp-base32": fill("A", head="totp secret "),
    # `.env` lines.
    "redos-env-equals": fill("KEY="),
    "redos-env-secrets": fill("A_SECRET="),
    "redos-env-colons": fill(" X_KEY:"),
    "redos-env-export": fill("export "),
    # Seed phrases.
    "redos-seed-words": fill("abandon "),
    "redos-seed-lines": fill("abandon\n"),
    "redos-seed-numbered": fill("1. abandon\n"),
    "redos-seed-runs-12": fill("abandon " * 12 + "zzz\n"),
    "redos-seed-runs-48": fill(_PHRASE_48 + " zzz\n"),
    "redos-seed-labelled": fill("Seed phrase:\n" + _PHRASE_48 + "\n"),
    "redos-seed-varied": fill(_VARIED),
    "redos-seed-short-runs": fill("qqq " * 12 + "x "),
    "redos-seed-listed-runs": fill(" ".join(WORDS[:12]) + " x "),
    "redos-seed-section": fill(_PHRASE_48 + " zzz\n", head=SEED),
    # Recovery codes, labelled and under a heading that names them.
    "redos-codes-annotated": fill("- 4kf9-2mzq (used in May)\n", head=RECOVERY),
    "redos-codes-grouped": fill("- 1234 5678 ✓\n", head="recovery codes:\n"),
    "redos-codes-labels": fill("backup codes "),
    "redos-codes-label-lines": fill("Recovery codes:\nx\n"),
    "redos-codes-fences": fill("```\n", head=RECOVERY),
    "redos-codes-consensus": fill("abcde-fghij a1b2c-3d4e5\n", head=RECOVERY),
    "redos-codes-one-line": fill("4kf9-2mzq ", head=RECOVERY),
    "redos-codes-fields": fill("Secret key: A3-KQ7X2M\n", head=RECOVERY),
    "redos-codes-many-lines": fill("1\n", head=RECOVERY),
    # Varied text: every rule at once, none of them repeated.
    "redos-mixed-prose": mixed_prose,
    "redos-mixed-prose-recovery": lambda: RECOVERY.encode() + mixed_prose()[: CAP_BYTES - len(RECOVERY)],
}
