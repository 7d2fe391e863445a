"""BIP-39 seed phrases: the checksum, labels and bare lines, and the setting that turns them off."""

from __future__ import annotations

import pytest
from mnemonic import Mnemonic

from askvault.redact.engine import redact
from askvault.redact.seeds import WORDS, checksum_ok, find_seed_phrases

VALID_12 = "mother subject brand rally fitness water grab salon urban inside undo miracle"
VALID_24 = (
    "next multiply hole possible relax style bullet swamp resist faint melody drop tree panther repeat loop visa "
    "embrace offer disorder lamp define awake clever"
)
INVALID_12 = "lunar orbit velvet cactus ribbon zebra hockey pulse salmon wisdom garden tiny"
INDEX = {word: n for n, word in enumerate(WORDS)}


@pytest.mark.parametrize(
    "phrase",
    [
        pytest.param(VALID_12, id="valid-12"),
        pytest.param(VALID_24, id="valid-24"),
        pytest.param(INVALID_12, id="invalid-12"),
        pytest.param("abandon " * 11 + "about", id="test-vector"),
        pytest.param("abandon " * 12, id="bad-test-vector"),
    ],
)
def test_checksum_agrees_with_the_reference_implementation(phrase: str) -> None:
    words = phrase.split()
    assert checksum_ok([INDEX[w] for w in words]) is Mnemonic("english").check(" ".join(words))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param(f"kept in the drawer: {VALID_12}", True, id="checksum-unlabelled"),
        pytest.param(f"Seed phrase:\n{INVALID_12}", True, id="label-above"),
        pytest.param(f"Frase semilla: {INVALID_12}", True, id="label-spanish"),
        pytest.param(INVALID_12, True, id="bare-line"),
        pytest.param("\n".join(f"{n}. {w}" for n, w in enumerate(VALID_24.split(), 1)), True, id="numbered"),
        pytest.param(f"Notes {INVALID_12}, then more.", False, id="invalid-in-prose"),
        pytest.param("apple, banana, bread, butter, cheese, coffee, milk, orange, pepper, rice, salt", False,
                     id="grocery-list"),
        pytest.param("text " * 13, False, id="repeated-word"),
    ],
)  # fmt: skip
def test_seed_phrases_are_found_by_checksum_label_or_bare_line(text: str, found: bool) -> None:
    assert bool(find_seed_phrases(text)) is found


def test_under_a_seed_heading_any_run_counts_and_the_setting_turns_it_off() -> None:
    text = f"Notes {INVALID_12}, then more."
    assert find_seed_phrases(text, labelled=True)
    assert redact(f"Seed phrase:\n{VALID_12}").text == "Seed phrase:\n[redacted: seed-phrase]"
    assert redact(f"Seed phrase:\n{VALID_12}", seed_phrases=False).text == f"Seed phrase:\n{VALID_12}"
