"""analyse_query: one question, every part a search reads, analysed by the keyword index's own rules."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from askvault.query.analyse import analyse_query
from askvault.query.mentions import Mention
from askvault.store.text.multilingual import LanguageTokenizers, QueryTerms
from askvault.store.text.tokenize import Tokenizer

NOW = datetime(2024, 3, 20, 12, tzinfo=UTC)
ENGLISH = QueryTerms(LanguageTokenizers(Tokenizer()), ("en",))

# (id, question, terms, identifiers, mentions, date phrase or None)
CASES: list[tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[Mention, ...], str | None]] = [
    ("plain", "What does the Kodi workflow do?", ("kodi", "workflow"), (), (), None),
    ("identifier", "IP of kodi-livingroom?", ("ip", "kodi-livingroom", "kodi", "livingroom"),
        ("kodi-livingroom",), (), None),
    ("mention-and-tag", "[[Postgres#Tuning]] in #homelab", ("postgr", "tune", "homelab"), (), (
        Mention("note", "Postgres", "Tuning"),
        Mention("tag", "homelab"),
    ), None),
    ("date-phrase", "bread I baked last week", ("bread", "bake", "last", "week"), (), (), "last week"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "terms", "identifiers", "mentions", "phrase"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_analyse_query(
    text: str, terms: tuple[str, ...], identifiers: tuple[str, ...], mentions: tuple[Mention, ...], phrase: str | None
) -> None:
    analysed = analyse_query(text, ENGLISH, NOW)

    assert (analysed.text, analysed.terms, analysed.language) == (text, terms, None)
    assert (analysed.identifiers, analysed.mentions) == (identifiers, mentions)
    assert (analysed.date_scope.phrase if analysed.date_scope else None) == phrase
    assert analysed.terms == tuple(ENGLISH.terms(text, None))  # the terms the keyword index itself would search


def test_without_a_moment_no_date_phrase_is_looked_for() -> None:
    assert analyse_query("bread I baked last week", ENGLISH, None).date_scope is None
    scope = analyse_query("bread I baked last week", ENGLISH, NOW).date_scope
    assert scope is not None
    assert (scope.start, scope.end) == (date(2024, 3, 11), date(2024, 3, 18))


def test_a_question_in_a_language_some_notes_are_in_is_analysed_in_it_too() -> None:
    both = QueryTerms(LanguageTokenizers(Tokenizer()), ("en",), frozenset({"en", "de"}), lambda _text: "de")
    analysed = analyse_query("Kartoffeln", both, None)

    assert analysed.language == "de"
    assert analysed.terms == ("kartoffel", "kartoffeln")  # German stem, then English
    assert analyse_query("Kartoffeln", ENGLISH, None).language is None  # one language: nothing is detected
