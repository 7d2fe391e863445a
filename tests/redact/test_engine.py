"""Secret detection and redaction: a golden set of fakes that must be caught, look-alikes that must not be."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askvault.redact.engine import find_secrets, redact, widen
from askvault.redact.rules import RULES, RULESET_VERSION, to_re2

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIy"
    "fQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\n"
    "AAAAMwAAAAtzc2gtZWQyNTUxOQAAACBvZmFrZWtleWZha2VrZXlmYWtla2V5\n-----END OPENSSH PRIVATE KEY-----"
)

# (text, the secret that must vanish, its kind)
MUST_CATCH = [
    pytest.param("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "aws-access-key", id="aws-key"),
    pytest.param('aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"', "wJalrXUtnFEMI/K7MDENG",
                 "aws-secret-key", id="aws-secret"),
    pytest.param("token ghp_" + "A1b2" * 9, "ghp_" + "A1b2" * 9, "github-token", id="github-classic"),
    pytest.param("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789", "github_pat_11ABCDEFG",
                 "github-token", id="github-fine-grained"),
    pytest.param("CI uses glpat-Abcdefghij0123456789xy here", "glpat-Abcdefghij0123456789xy", "gitlab-token",
                 id="gitlab"),
    pytest.param("bot xoxb-1234567890-0987654321-AbCdEfGhIjKl", "xoxb-1234567890-0987654321", "slack-token",
                 id="slack"),
    pytest.param("stripe sk_live_" + "a1B2c3D4" * 3, "sk_live_a1B2", "stripe-key", id="stripe-live"),
    pytest.param("OPENAI_API_KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34", "sk-proj-Ab12Cd34", "openai-key",
                 id="openai-project"),
    pytest.param("key 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", "T3BlbkFJ", "openai-key",
                 id="openai-legacy"),
    pytest.param("sk-ant-api03-" + "Zz9_" * 24 + "AA", "sk-ant-api03-Zz9_", "anthropic-key", id="anthropic"),
    pytest.param("maps AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AIzaSyA1b2C3d4E5f6G7h8", "google-api-key",
                 id="google"),
    pytest.param(f"Authorization: Bearer {JWT}", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "jwt", id="jwt"),
    pytest.param(f"deploy key:\n{PEM}\nafter", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", "private-key", id="pem-block"),
    pytest.param("db: postgres://app:S3cr3tPass@db.local:5432/app", "S3cr3tPass", "url-credentials",
                 id="url-credentials"),
    pytest.param("password: hunter2xyz", "hunter2xyz", "password", id="password-line"),
    pytest.param("DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3", "password", id="env-password"),
    pytest.param("- **WiFi password:** correct horse battery staple", "correct horse battery", "password",
                 id="passphrase"),
    pytest.param("Passwort: Sommer2024!", "Sommer2024!", "password", id="german-passwort"),
    pytest.param("WLAN-Kennwort: Kaffeebohne7", "Kaffeebohne7", "password", id="german-kennwort"),
    pytest.param("Mot de passe : azerty123", "azerty123", "password", id="french"),
    pytest.param("Bank card PIN: 4711", "4711", "password", id="pin"),
    pytest.param("log in with admin, password: Xy7-Qq2, then reboot", "Xy7-Qq2", "password", id="inline-password"),
    pytest.param("| Service | User | Password |\n|---|---|---|\n| NAS | admin | N4s-Adm1n! |", "N4s-Adm1n!",
                 "password", id="table-column"),
    pytest.param("## Recovery codes\n```\n7fq2k-9xm4p\nh3n8d-q2w7z\n```", "7fq2k-9xm4p", "recovery-codes",
                 id="recovery-fenced"),
    pytest.param("GitHub backup codes:\n- 1234-5678\n- 8765-4321\n\nDone.", "8765-4321", "recovery-codes",
                 id="backup-list"),
    pytest.param("Wiederherstellungscodes:\n\nab12 cd34\nef56 gh78", "ef56 gh78", "recovery-codes", id="german-codes"),
    pytest.param("Backup-Codes: 11aa-22bb 33cc-44dd 55ee-66ff", "33cc-44dd", "recovery-codes", id="german-inline"),
    pytest.param("IBAN: DE89 3704 0044 0532 0130 00 (Girokonto)", "3704 0044 0532", "iban", id="iban-spaced"),
    pytest.param("pay to GB82WEST12345698765432 today", "GB82WEST12345698765432", "iban", id="iban-compact"),
    pytest.param("Visa 4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111", "card-number", id="card-spaced"),
    pytest.param("amex 378282246310005", "378282246310005", "card-number", id="card-amex"),
]  # fmt: skip

MUST_NOT_FLAG = [
    pytest.param("uuid 123e4567-e89b-12d3-a456-426614174000", id="uuid"),
    pytest.param("commit 3f786850e387550fdab836ed7e6dc881de23001b", id="git-sha"),
    pytest.param("image sha256:9b2a8f2c7e1d4c3b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b", id="digest"),
    pytest.param("n8n workflow nANsCsF9gf975ojT runs nightly", id="n8n-id"),
    pytest.param("A paragraph with a block id ^abc123", id="block-id"),
    pytest.param("ISBN 978-3-16-148410-0", id="isbn"),
    pytest.param("Call +49 151 23456789 or +4915123456789", id="phone"),
    pytest.param("Postgres on 10.0.0.12:5433, container pg-main", id="homelab-values"),
    pytest.param("```dataview\nTABLE file.mtime FROM #homelab\n```", id="dataview"),
    pytest.param("![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk)",
                 id="base64-image"),
    pytest.param("Password: see Vaultwarden", id="password-pointer"),
    pytest.param("password: ${DB_PASSWORD}", id="env-reference"),
    pytest.param("RESTIC_PASSWORD_FILE=/root/.restic-pg", id="password-file"),
    pytest.param("token: !secret ha_token", id="yaml-secret-tag"),
    pytest.param("    pin: GPIO4", id="esphome-pin"),
    pytest.param("Max tokens: 4096 and max_tokens=8192", id="llm-tokens"),
    pytest.param("Secret Santa: Tom", id="secret-santa"),
    pytest.param("Secretary: Mrs Smith", id="secretary"),
    pytest.param("Boarding pass: 12B", id="boarding-pass"),
    pytest.param("I lost my recovery codes last year and had to call support about it.", id="recovery-prose"),
    pytest.param("Order 4111 1111 1111 1112 was refunded", id="card-bad-luhn"),
    pytest.param("Account DE89 3704 0044 0532 0130 01", id="iban-bad-checksum"),
    pytest.param("Timestamp 1716239022000 and 20240511123045", id="long-numbers"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "secret", "kind"), MUST_CATCH)
def test_secret_is_found_and_redacted(text: str, secret: str, kind: str) -> None:
    result = redact(text)
    assert secret not in result.text
    assert f"[redacted: {kind}]" in result.text
    assert result.kinds[kind] >= 1
    assert result.text.count("\n") == text.count("\n")


@pytest.mark.parametrize("text", MUST_NOT_FLAG)
def test_look_alike_is_left_alone(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text).text == text


def test_the_sample_vault_b2_note_loses_every_canary() -> None:
    text = (
        "```ini\nAWS_ACCESS_KEY_ID = AKIACANARYSEC4D8QW2Z\n"
        "AWS_SECRET_ACCESS_KEY = wJ8rCANARYSECRETc4d8Kp2/Xq7vLm9TzB0nYe3H\n"
        "```\n`OPENAI_API_KEY=sk-proj-CANARYSECRETc4d8T3BlbkFJx9aQ2mZ7rL4vN8pW1sK6`\n"
    )
    result = redact(text)
    assert "CANARY" not in result.text
    assert "AWS_ACCESS_KEY_ID = [redacted: aws-access-key]" in result.text


def test_recovery_heading_redacts_every_code_block_in_the_section() -> None:
    text = "Recovery codes\nStored for the B2 account:\n\n```\nCANARY-SECRET-c4d8\nabcd-1234\n```\n\n- zz99-yy88"
    result = redact(text, recovery_section=True)
    assert "CANARY" not in result.text
    assert "zz99-yy88" not in result.text
    assert result.text.startswith("Recovery codes\nStored for the B2 account:")
    assert result.text.count("\n") == text.count("\n")


def test_pem_without_end_line_is_redacted_to_the_blank_line() -> None:
    text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nqFAKEKEYMATERIAL\n\nNext paragraph"
    result = redact(text)
    assert "MIIEow" not in result.text
    assert "qFAKE" not in result.text
    assert result.text.endswith("\n\nNext paragraph")


def test_rules_come_from_detect_secrets_and_compile_for_re2() -> None:
    sources = {rule.source.split(":")[0] for rule in RULES}
    assert any(source.startswith("detect-secrets 1.5") for source in sources)
    assert "detect-secrets" in RULESET_VERSION
    assert len(RULES) >= 40


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        pytest.param(r"(?:(?<=\W)|(?<=^))key=([a-z]{4})", re.IGNORECASE, r"(?mi)(?:^|\W)key=([a-z]{4})",
                     id="lookbehind"),
        pytest.param(r"glpat-[A-Za-z0-9_\-]{20,50}(?!\w)", 0, r"(?m)glpat-[A-Za-z0-9_\-]{20,50}(?:\W|$)",
                     id="lookahead"),
        pytest.param(r"x[a-f]{48}(?![a-f0-9])", 0, r"(?m)x[a-f]{48}(?:[^a-f0-9]|$)", id="negated-class"),
        pytest.param(r"glagent-[A-Z]{50,1024}", 0, r"(?m)glagent-[A-Z]{50,1000}", id="repeat-cap"),
    ],
)  # fmt: skip
def test_to_re2_rewrites_what_re2_lacks(pattern: str, flags: int, expected: str) -> None:
    assert to_re2(pattern, flags) == expected


ADVERSARIAL = [
    pytest.param("eyJ" * 200_000, id="jwt-prefixes"),
    pytest.param("sk-" * 200_000, id="openai-prefixes"),
    pytest.param("//" * 300_000 + "/:_authToken", id="npm-slashes"),
    pytest.param("cloudant_password" + " " * 600_000 + "x", id="keyword-spaces"),
    pytest.param("|password|\n|---|\n" + "| a |" * 100_000, id="wide-table"),
    pytest.param("|---" + " " * 300_000 + "x", id="delimiter-spaces"),
    pytest.param("DE89 " * 100_000, id="iban-groups"),
    pytest.param("4" * 600_000, id="digits"),
    pytest.param("password=" * 60_000, id="repeated-keys"),
    pytest.param("recovery codes:\n" + "1234-5678\n" * 50_000, id="many-codes"),
]


@pytest.mark.parametrize("text", ADVERSARIAL)
def test_adversarial_lines_finish_and_keep_lines(text: str) -> None:
    # Bounded by pytest's timeout, not timed here: RE2 keeps every pattern linear.
    result = redact(text)
    assert result.text.count("\n") == text.count("\n")


FRAGMENTS = [
    *"aZ09 -_:=|`*#\n\t/.+@!Äöß", "AKIA", "sk-proj-", "password: ", "IBAN ", "```", "Wifi password is ", "pw ",
    "PIN ", "pass: ", "user admin ", "otpauth://", "://u:", "@h", "JWT_SECRET=", "abandon ", "zoo ", "Seed phrase:",
    "## Recovery codes\n", "- 4kf9-2mzq", " (used)", "~~", "✓ ", "JBSW Y3DP ", "a@b.cc / ", "Passwort ist ",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS)).map("".join), st.booleans(), st.booleans())
def test_redaction_never_fails_and_keeps_line_count(text: str, recovery: bool, seed: bool) -> None:
    result = redact(text, recovery_section=recovery, seed_section=seed)
    assert result.text.count("\n") == text.count("\n")
    assert sum(result.kinds.values()) == result.text.count("[redacted: ")


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        pytest.param(r"[a-z]{0,40}key", r"[a-z]{0,}key", id="wide-repeat-opens"),
        pytest.param(r"\d{1,3}[.)]", r"\d{1,3}[.)]", id="narrow-repeat-stays"),
        pytest.param(r"x{1,200}?y", r"x{1,}?y", id="lazy"),
        pytest.param(r"\$\{?[A-Z_]+\}?", r"\$\{?[A-Z_]+\}?", id="escaped-braces"),
    ],
)
def test_widen_opens_only_wide_bounded_repeats(pattern: str, expected: str) -> None:
    assert widen(pattern) == expected
