"""The secret rule set: Yelp detect-secrets' provider patterns, made linear-time (RE2), plus a few newer formats.

Provider patterns come from the detect-secrets library itself (imported, never copied), so upgrading the
package upgrades the rules; `RULESET_VERSION` names the version, and the indexer re-chunks every note when it
changes. Every pattern is compiled with RE2 (google-re2): matching time is linear in the text, whatever the
text, so a hostile note cannot stall indexing (several detect-secrets patterns backtrack quadratically under
Python's `re`, e.g. the JWT one on `eyJeyJeyJ…`). The few constructs RE2 lacks are rewritten mechanically:
a look-behind boundary becomes a consumed boundary and a trailing look-ahead a consumed non-match; the secret
itself is a capture group or the trimmed match, so the consumed characters are never redacted.

Left out on purpose: `IPPublicDetector` (IP addresses are what homelab notes are about, not secrets), the
entropy and keyword plugins (noisy on Markdown; `passwords.py` and `prose.py` have note-aware password rules)
and `BasicAuthDetector` (`urls.py` replaces it: it also sees an empty user, `redis://:secret@host`, and leaves
a template's `user:password@` alone).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from detect_secrets.__version__ import VERSION as DETECT_SECRETS_VERSION
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

ASKVAULT_RULES_REVISION = 2
"""Bump when a rule below, in another module of this package or in the engine changes what is redacted."""
RULESET_VERSION = f"detect-secrets {DETECT_SECRETS_VERSION} + askvault rules {ASKVAULT_RULES_REVISION}"

PRIVATE_KEY = "private-key"


@dataclass(frozen=True, slots=True)
class Rule:
    """One pattern: `kind` names the marker (`[redacted: kind]`), `group` the capture holding the secret."""

    kind: str
    pattern: str
    """RE2 syntax, flags inline."""
    group: int
    source: str
    check: Callable[[str], bool] | None = None
    """Validates the matched secret (e.g. a JWT's parts decode); None accepts every match."""


PLUGINS: tuple[type[RegexBasedDetector], ...] = (
    ArtifactoryDetector,
    AWSKeyDetector,
    AzureStorageKeyDetector,
    CloudantDetector,
    DiscordBotTokenDetector,
    GitHubTokenDetector,
    GitLabTokenDetector,
    IbmCloudIamDetector,
    IbmCosHmacDetector,
    JwtTokenDetector,
    MailchimpDetector,
    NpmDetector,
    OpenAIDetector,
    PrivateKeyDetector,
    PypiTokenDetector,
    SendGridDetector,
    SlackDetector,
    SoftlayerDetector,
    SquareOAuthDetector,
    StripeDetector,
    TelegramBotTokenDetector,
    TwilioKeyDetector,
)

# Plugins whose first capture group is the secret itself (in the others a group is only a prefix, e.g. `ghp`).
_SECRET_IN_GROUP = {
    AWSKeyDetector,
    CloudantDetector,
    IbmCloudIamDetector,
    IbmCosHmacDetector,
    NpmDetector,
    SoftlayerDetector,
}
_KIND_OVERRIDES = {"json-web-token": "jwt", "openai-token": "openai-key", "stripe-access-key": "stripe-key"}

_LOOKBEHIND_BOUNDARY = re.compile(r"\(\?:\(\?<=\\W\)\|\(\?<=\^\)\)")
_LOOKAHEAD = re.compile(r"\(\?!(\\w|\[[^\]]+\])\)")
_RE2_MAX_REPEAT = 1000


def to_re2(pattern: str, flags: int) -> str:
    """A detect-secrets (Python `re`) pattern in RE2 syntax: flags inline, look-arounds as consumed boundaries."""
    if flags & re.VERBOSE and re.search(r"\s", pattern):
        raise ValueError(f"verbose pattern with whitespace is not supported: {pattern[:40]!r}")
    body = _LOOKBEHIND_BOUNDARY.sub(r"(?:^|\\W)", pattern)

    def negate(match: re.Match[str]) -> str:
        inner = match.group(1)
        if inner == r"\w":
            return r"(?:\W|$)"
        return f"(?:[^{inner[1:-1]}]|$)"

    body = _LOOKAHEAD.sub(negate, body)
    body = re.sub(r"\{(\d+),(\d+)\}", lambda m: f"{{{m.group(1)},{min(int(m.group(2)), _RE2_MAX_REPEAT)}}}", body)
    inline = "m" + ("i" if flags & re.IGNORECASE else "")
    return f"(?{inline}){body}"


def slug(secret_type: str) -> str:
    kind = re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")
    return _KIND_OVERRIDES.get(kind, kind)


def _jwt_valid(token: str) -> bool:
    return bool(JwtTokenDetector.is_formally_valid(token))


def _plugin_rules() -> list[Rule]:
    rules: list[Rule] = []
    for plugin in PLUGINS:
        detector = plugin()
        kind = slug(detector.secret_type)
        source = f"detect-secrets {DETECT_SECRETS_VERSION}: {plugin.__name__}"
        check = _jwt_valid if plugin is JwtTokenDetector else None
        for compiled in detector.denylist:
            group = 1 if plugin in _SECRET_IN_GROUP and compiled.groups >= 1 else 0
            rule_kind = "aws-secret-key" if plugin is AWSKeyDetector and group == 1 else kind
            rules.append(Rule(rule_kind, to_re2(compiled.pattern, compiled.flags), group, source, check))
    return rules


# Formats detect-secrets 1.5.0 does not know, from the providers' documented key shapes.
_ASKVAULT_RULES = (
    Rule("openai-key", r"(?m)sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}", 0, "askvault"),
    Rule("anthropic-key", r"(?m)sk-ant-(?:api|admin|oat)[0-9]{2}-[A-Za-z0-9_\-]{20,}", 0, "askvault"),
    Rule("google-api-key", r"(?m)AIza[0-9A-Za-z_\-]{35}", 0, "askvault"),
    Rule("github-token", r"(?m)github_pat_[A-Za-z0-9_]{22,}", 0, "askvault"),
    Rule("stripe-key", r"(?m)(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{16,}", 0, "askvault"),
    Rule("huggingface-token", r"(?m)hf_[A-Za-z0-9]{30,}", 0, "askvault"),
    Rule("slack-token", r"(?m)xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]{16,}", 0, "askvault"),
    Rule("bearer-token", r"(?mi)\bbearer[ \t]+([A-Za-z0-9_\-.=+/~]{20,})", 1, "askvault"),
    # Any PEM private key, including `ENCRYPTED PRIVATE KEY`, which PrivateKeyDetector does not list.
    Rule(PRIVATE_KEY, r"(?m)-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----", 0, "askvault"),
)

RULES: tuple[Rule, ...] = (*_plugin_rules(), *_ASKVAULT_RULES)
