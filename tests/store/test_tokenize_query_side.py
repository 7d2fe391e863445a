"""Query-side tokenizer rules: which tokens are identifiers, and the stop-word fallback when the index keeps them."""

from __future__ import annotations

import pytest

from askvault.query.identifiers import identifiers, is_identifier
from askvault.store.tokenize import Tokenizer

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


KEEPING = Tokenizer(keep_stop_words=True)

STOP_FALLBACK: list[tuple[str, str, list[str], list[str] | None]] = [
    # id, query, terms when the index keeps stop words, terms by default
    ("band-name", "Who is The Who?", ["=who", "=is", "=the"], []),
    ("hamlet", "to be or not to be", ["=to", "=be", "=or", "=not"], []),
    ("pronouns-only", "what is it", ["=what", "=is", "=it"], []),
    ("stem-equal-to-a-stop-word-is-content", "the add-ons", ["add-ons", "add", "on"], ["add-ons", "add", "on"]),
    ("one-content-word-wins", "Who is Jonas?", ["jona"], ["jona"]),
    ("content-words-only", "What does the Kodi maintenance workflow do?", ["kodi", "mainten", "workflow"], None),
    ("identifier-is-content", "what is it on 5433", ["5433"], ["5433"]),
]


@pytest.mark.parametrize(
    ("text", "keeping", "default"),
    [(t, k, d) for _, t, k, d in STOP_FALLBACK],
    ids=[i for i, *_ in STOP_FALLBACK],
)
def test_stop_words_are_query_terms_only_when_nothing_else_is_left(
    text: str, keeping: list[str], default: list[str] | None
) -> None:
    assert KEEPING.query_terms(text) == keeping
    assert Tokenizer().query_terms(text) == (keeping if default is None else default)


def test_an_index_that_keeps_stop_words_holds_them_unstemmed() -> None:
    assert KEEPING.keeps_stop_words
    assert not Tokenizer().keeps_stop_words
    assert KEEPING.tokenize("The Who were having fun") == ["=the", "=who", "=were", "=having", "fun"]
    assert Tokenizer().tokenize("The Who were having fun") == ["fun"]
