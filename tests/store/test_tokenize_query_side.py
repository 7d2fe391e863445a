"""Query-side tokenizer rules: which tokens are identifiers, and stop words left out of a query's terms."""

from __future__ import annotations

import pytest

from askvault.query.identifiers import identifiers, is_identifier
from askvault.store.text.tokenize import Tokenizer

IS_IDENTIFIER: list[tuple[str, str, bool]] = [
    ("hyphenated-host", "kodi-livingroom", True),
    ("snake-case", "container_name", True),
    ("constant", "EXECUTIONS_DATA_MAX_AGE", True),
    ("ticket", "INC-0214", True),
    ("ip", "10.0.0.41", True),
    ("version", "v1.5", True),
    ("letters-and-digits", "n8n", True),
    ("digest-name", "sha256", True),
    ("random-id", "nANsCsF9gf975ojT", True),
    ("port", "5433", True),
    ("year", "2024", True),
    ("camel-case", "WireGuard", True),
    ("lower-then-upper", "iPhone", True),
    ("hyphenated-word", "well-known", True),
    ("two-digit-number", "80", False),
    ("day", "15", False),
    ("ordinal", "24th", False),
    ("ordinal-upper", "3RD", False),
    ("abbreviation", "e.g", False),
    ("plain-word", "workflow", False),
    ("capitalised-word", "Kodi", False),
    ("acronym", "UDP", False),
    ("possessive", "Vaultwarden's", False),
]


@pytest.mark.parametrize(
    ("token", "expected"), [(t, e) for _, t, e in IS_IDENTIFIER], ids=[i for i, _, _ in IS_IDENTIFIER]
)
def test_is_identifier(token: str, expected: bool) -> None:
    assert is_identifier(token) is expected


IDENTIFIERS: list[tuple[str, str, list[str]]] = [
    ("exact-04", "What is the IP address of kodi-livingroom?", ["kodi-livingroom"]),
    ("exact-08", "What is the container_name of the shared database?", ["container_name"]),
    ("css-variable-leading-dashes", "What value does --hp-accent have?", ["hp-accent"]),
    ("possessive-stripped", "Where does kodi-livingroom's library live?", ["kodi-livingroom"]),
    ("casefolded-and-distinct", "INC-0214 or inc-0214, then WireGuard", ["inc-0214", "wireguard"]),
    ("dates-and-amounts-are-not", "On the 24th, 15 April, 5 out of 5, port 80", []),
    ("no-identifier", "What does the Kodi maintenance workflow do?", []),
    ("mixed", "Which sha256 is jellyfin pinned to on 10.0.0.12:8096?", ["sha256", "10.0.0.12:8096"]),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in IDENTIFIERS], ids=[i for i, _, _ in IDENTIFIERS])
def test_identifiers(text: str, expected: list[str]) -> None:
    assert identifiers(text) == expected


STOP_WORDS: list[tuple[str, str, list[str]]] = [
    # id, query, its terms (stop words are never terms)
    ("band-name", "Who is The Who?", []),
    ("hamlet", "to be or not to be", []),
    ("stem-equal-to-a-stop-word-is-content", "the add-ons", ["add-ons", "add", "on"]),
    ("one-content-word-wins", "Who is Jonas?", ["jona"]),
    ("content-words-only", "What does the Kodi maintenance workflow do?", ["kodi", "mainten", "workflow"]),
    ("identifier-is-content", "what is it on 5433", ["5433"]),
]


@pytest.mark.parametrize(("text", "terms"), [(t, e) for _, t, e in STOP_WORDS], ids=[i for i, *_ in STOP_WORDS])
def test_stop_words_are_never_query_terms(text: str, terms: list[str]) -> None:
    assert Tokenizer().query_terms(text) == terms
    assert Tokenizer().tokenize("The Who were having fun") == ["fun"]
