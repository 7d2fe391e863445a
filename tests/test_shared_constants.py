"""The sidecar's side of tests/fixtures/shared-constants.json: the constants the plugin must agree with, held once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from askvault.config import DEFAULT_CHAT_MODEL, DEFAULT_EMBED_MODEL, DEFAULT_PORT, PromptParams
from askvault.embed.choice import BUILTIN_MODEL
from askvault.embed.ollama import DEFAULT_OLLAMA_EMBED_MODEL
from askvault.safety.answer import SAFE_LANGUAGES

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "shared-constants.json"
FIXTURE_NAME = "tests/fixtures/shared-constants.json"
SIDES = ("sidecar", "plugin")

SIDECAR: dict[str, object] = {
    "default_port": DEFAULT_PORT,
    "default_chat_model": DEFAULT_CHAT_MODEL,
    "default_embed_model": DEFAULT_EMBED_MODEL,
    "builtin_embed_model": BUILTIN_MODEL,
    "default_ollama_embed_model": DEFAULT_OLLAMA_EMBED_MODEL,
    "prompt_max_sources": PromptParams().max_sources,
    "safe_languages": sorted(SAFE_LANGUAGES),
}
"""The sidecar's real constants, under the fixture's names (sets as sorted lists, as the fixture holds them)."""


@dataclass(frozen=True, slots=True)
class Shared:
    values: dict[str, object]
    owners: dict[str, dict[str, str | None]]
    """Per value, per side, the constant that holds it (None: that side has none)."""


def load_shared() -> Shared:
    raw: object = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert isinstance(raw, dict), f"{FIXTURE_NAME} is not a JSON object"
    values, owners = raw.get("values"), raw.get("owners")
    assert isinstance(values, dict), f"{FIXTURE_NAME} has no `values` object"
    assert isinstance(owners, dict), f"{FIXTURE_NAME} has no `owners` object"
    typed_owners: dict[str, dict[str, str | None]] = {}
    for key, sides in owners.items():
        assert isinstance(sides, dict), f"{FIXTURE_NAME}: owners.{key} is not an object"
        assert set(sides) == set(SIDES), f"{FIXTURE_NAME}: owners.{key} names {sorted(sides)}, not {list(SIDES)}"
        for side, owner in sides.items():
            assert owner is None or isinstance(owner, str), f"{FIXTURE_NAME}: owners.{key}.{side} is not a string"
        typed_owners[str(key)] = {str(side): owner for side, owner in sides.items()}
    return Shared(values={str(key): value for key, value in values.items()}, owners=typed_owners)


SHARED = load_shared()


def mismatch(key: str, fixture_value: object, sidecar_value: object) -> str:
    """Names both sides: the fixture is changed first, then the sidecar's owner and the plugin's."""
    sidecar, plugin = SHARED.owners[key]["sidecar"], SHARED.owners[key]["plugin"]
    said = f"says {fixture_value!r}, the sidecar's {sidecar} is {sidecar_value!r}"
    if isinstance(fixture_value, list) and isinstance(sidecar_value, list):
        only_fixture = sorted(set(map(str, fixture_value)) - set(map(str, sidecar_value)))
        only_sidecar = sorted(set(map(str, sidecar_value)) - set(map(str, fixture_value)))
        said = f"and the sidecar's {sidecar} differ: only in the fixture {only_fixture}, only there {only_sidecar}"
    plugin_part = f" and the plugin's {plugin}" if plugin else " (the plugin has no copy)"
    return (
        f"{key}: {FIXTURE_NAME} {said}. "
        f"Change {FIXTURE_NAME} first, then the sidecar's {sidecar}{plugin_part}, so both suites pass."
    )


def test_every_value_names_its_owner_on_each_side() -> None:
    assert set(SHARED.values) == set(SHARED.owners), f"{FIXTURE_NAME}: `values` and `owners` name different keys"
    for key, sides in SHARED.owners.items():
        assert any(sides.values()), f"{FIXTURE_NAME}: {key} is owned by neither side"


def test_the_fixtures_lists_are_sorted_without_duplicates() -> None:
    for key, value in SHARED.values.items():
        if isinstance(value, list):
            assert value == sorted(set(value)), f"{FIXTURE_NAME}: {key} is not sorted, or repeats an entry"


def test_this_suite_checks_every_value_the_sidecar_owns() -> None:
    owned = {key for key, sides in SHARED.owners.items() if sides["sidecar"] is not None}
    assert set(SIDECAR) == owned, (
        f"{FIXTURE_NAME} gives the sidecar {sorted(owned)}; this test checks {sorted(SIDECAR)}: "
        "add (or drop) the constant in SIDECAR above"
    )


@pytest.mark.parametrize("key", sorted(SIDECAR))
def test_the_sidecars_constant_equals_the_fixture(key: str) -> None:
    assert key in SHARED.values, f"{FIXTURE_NAME} has no {key}"
    fixture_value, sidecar_value = SHARED.values[key], SIDECAR[key]
    assert sidecar_value == fixture_value, mismatch(key, fixture_value, sidecar_value)
