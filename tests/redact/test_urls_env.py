"""Credentials in URLs, `otpauth://` URIs, TOTP seeds and `.env` lines whose key names a secret."""

from __future__ import annotations

import pytest

from askvault.redact.engine import redact
from askvault.redact.env import key_kind


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("redis://:r3dis-Pa55@redis.lan:6379/0", "redis://:[redacted: url-credentials]@redis.lan:6379/0",
                     id="empty-user"),
        pytest.param("https://paul:p@ss-W0rd@cloud.example.com/dav",
                     "https://paul:[redacted: url-credentials]@cloud.example.com/dav", id="at-in-password"),
        pytest.param("otpauth://totp/GitHub:me?secret=JBSWY3DPEHPK3PXP&issuer=GitHub", "[redacted: otpauth]",
                     id="otpauth"),
        pytest.param("TOTP secret: JBSW Y3DP EHPK 3PXP", "TOTP secret: [redacted: totp-seed]", id="totp-grouped"),
        pytest.param("Setup key (GitHub):\n  gezd gnbv gy3t qojq", "Setup key (GitHub):\n  [redacted: totp-seed]",
                     id="totp-below"),
        pytest.param("JWT_SECRET=9f8e7d6c5b4a", "JWT_SECRET=[redacted: env-secret]", id="env-secret"),
        pytest.param("export N8N_ENCRYPTION_KEY=s0m3K3y", "export N8N_ENCRYPTION_KEY=[redacted: env-secret]",
                     id="env-export"),
        pytest.param("SENTRY_DSN: https://4f2b@o1.ingest.sentry.io/2", "SENTRY_DSN: [redacted: env-secret]",
                     id="env-colon"),
        pytest.param("DB_PASSWORD=Tr0ub4dor&3", "DB_PASSWORD=[redacted: password]", id="env-password"),
    ],
)  # fmt: skip
def test_link_and_environment_secrets_go(text: str, expected: str) -> None:
    assert redact(text).text == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("postgres://user:password@localhost:5432/db", id="template"),
        pytest.param("redis://default:${REDIS_PASSWORD}@redis:6379", id="variable"),
        pytest.param("http://localhost:8080/@admin", id="port-then-at"),
        pytest.param("ssh://git@github.com/me/dotfiles.git", id="user-only"),
        pytest.param("MFA: WEBAUTHNPASSKEYS is the policy name", id="capital-word"),
        pytest.param("TOTP: look into this more", id="four-letter-words"),
        pytest.param("MAX_TOKENS=4096", id="max-tokens"),
        pytest.param("API_KEY_HEADER=X-Api-Key", id="about-the-key"),
        pytest.param(":let pat=LogiPat({boolean-logic pattern})", id="vim-pat"),
    ],
)
def test_link_and_environment_look_alikes_stay(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("JWT_SECRET", "env-secret"), ("N8N_ENCRYPTION_KEY", "env-secret"), ("apiKey", "env-secret"),
        ("GITHUB_PAT", "env-secret"), ("SENTRY_DSN", "env-secret"), ("SMTP_PASS", "password"),
        ("DB_PASSWORD", "password"), ("SORT_KEY", None), ("PRIMARY_KEY", None), ("AWS_ACCESS_KEY_ID", None),
        ("PUBLIC_KEY", None), ("TOKEN_TTL", None), ("SECRET_FILE", None), ("PAT", None),
    ],
)  # fmt: skip
def test_key_kind(key: str, kind: str | None) -> None:
    assert key_kind(key) == kind
