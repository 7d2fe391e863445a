"""The golden set through the privacy step: recall 1.00 per kind, every look-alike kept, four languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.redact.golden import (
    Case,
    LookAlike,
    figures,
    indexed,
    kept,
    load_look_alikes,
    load_secrets,
    report,
    run_case,
)

PROVIDER_KINDS = None
"""`provider-keys` cases take the provider's own kind (`aws-access-key`, `github-token`, …)."""
MARKERS: dict[str, frozenset[str] | None] = {
    "provider-keys": PROVIDER_KINDS,
    "bank": frozenset({"iban", "card-number"}),
}
SECRETS = load_secrets()
LOOK_ALIKES = load_look_alikes()


def _case_id(case: Case) -> str:
    return f"{case.kind}-{case.lang}-{SECRETS.index(case)}"


@pytest.mark.parametrize("case", [pytest.param(c, id=_case_id(c)) for c in SECRETS])
def test_every_secret_of_the_golden_set_is_redacted_with_its_kind(case: Case) -> None:
    outcome = run_case(case)
    assert outcome.leaked == (), f"left in the index: {outcome.leaked}\n{indexed(case.text)[0]}"
    expected = MARKERS.get(case.kind, frozenset({case.kind}))
    assert outcome.kinds, "no marker"
    assert expected is None or set(outcome.kinds) & expected, f"markers {dict(outcome.kinds)}, want {expected}"


@pytest.mark.parametrize(
    "look_alike", [pytest.param(a, id=f"{a.kind}-{n}") for n, a in enumerate(LOOK_ALIKES)]
)  # fmt: skip
def test_every_look_alike_of_the_golden_set_is_kept(look_alike: LookAlike) -> None:
    assert kept(look_alike), indexed(look_alike.text)[0]


def test_the_golden_set_is_large_and_varied_and_its_figures_hold() -> None:
    result = figures()
    assert sum(total for _, total in result.recall.values()) >= 150
    assert len(LOOK_ALIKES) >= 150
    assert {"en", "de", "fr", "es"} <= result.languages
    assert len(result.recall) >= 9
    for kind, (caught, total) in result.recall.items():
        assert caught == total, f"{kind}: recall {caught}/{total}"
    kept_total = sum(done for done, _ in result.kept.values())
    assert kept_total / len(LOOK_ALIKES) >= 0.97
    assert report(result).startswith(f"secrets: {sum(t for _, t in result.recall.values())}/")


def test_the_readme_prints_the_figures_of_the_golden_set() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    paragraph = " ".join(
        readme.split("Secrets are redacted before anything is embedded", 1)[1].split("\n\n")[0].split()
    )
    secrets = sum(len(case.secrets) for case in SECRETS)
    assert f"{len(SECRETS)} notes" in paragraph
    assert f"all {secrets} secrets are redacted" in paragraph
    assert f"all {len(LOOK_ALIKES)} look-alikes are kept" in paragraph
