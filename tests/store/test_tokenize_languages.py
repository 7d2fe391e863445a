"""Notes tokenized in their own language, and questions analysed in several: stems, stop words, main languages."""

from __future__ import annotations

import pytest

from askvault.store.text.multilingual import LanguageTokenizers, main_languages
from askvault.store.text.tokenize import Tokenizer

# The ten singular/plural pairs of `eval/sample-vault/Rezepte` (eval/experiments/query-side.md, experiment 4):
# (id, one form, the other, meet under the German stemmer, meet under the English one).
PAIRS: list[tuple[str, str, str, bool, bool]] = [
    ("zwiebel", "Zwiebel", "Zwiebeln", True, False),
    ("kartoffel", "Kartoffel", "Kartoffeln", True, False),
    ("linse", "Linse", "Linsen", True, False),
    ("kraut-umlaut-plural", "Kraut", "Kräuter", True, False),
    ("apfel-umlaut-plural", "Apfel", "Äpfel", True, False),
    ("minute", "Minute", "Minuten", True, False),
    ("sosse", "Soße", "Soßen", True, False),
    ("ei-not-unified", "Ei", "Eier", False, False),
    ("spaetzle-compound-not-unified", "Spätzle", "Spätzlehobel", False, False),
    ("participle-not-unified", "gerieben", "reiben", False, False),
]
GERMAN = Tokenizer("german")
ENGLISH = Tokenizer()


@pytest.mark.parametrize(("one", "other", "german", "english"), [p[1:] for p in PAIRS], ids=[p[0] for p in PAIRS])
def test_german_inflection_pairs(one: str, other: str, german: bool, english: bool) -> None:
    """Seven of the ten meet under German Snowball (it folds umlauts, so `Äpfel` meets `Apfel`); none under
    English, which is what every note got before languages."""
    assert (GERMAN.tokenize(one) == GERMAN.tokenize(other)) is german
    assert (ENGLISH.tokenize(one) == ENGLISH.tokenize(other)) is english


NOTES: list[tuple[str, str, str, list[str]]] = [
    ("german-note", "de", "Kartoffeln und Zwiebeln schälen", ["kartoffel", "zwiebel", "schal"]),
    ("german-stop-words", "de", "Die Suppe, die es bei Oma gab", ["supp", "oma", "gab"]),
    ("english-note", "en", "The running servers", ["run", "server"]),
    ("unknown-is-default", "", "The running servers", ["run", "server"]),
    ("french-note", "fr", "Les écoles fermées", ["écol", "ferm"]),
    ("chinese-note-no-stemmer", "zh", "服务器 backups running", ["服务", "务器", "backups", "running"]),
    ("language-snowball-lacks", "vi", "the running", ["the", "running"]),
]


@pytest.mark.parametrize(("language", "text", "expected"), [n[1:] for n in NOTES], ids=[n[0] for n in NOTES])
def test_each_note_in_its_language(language: str, text: str, expected: list[str]) -> None:
    assert LanguageTokenizers(ENGLISH).tokenize(text, language) == expected


def test_the_default_language_is_the_configured_one() -> None:
    porter = LanguageTokenizers(Tokenizer("porter"))
    assert porter.default_code == "en"
    assert porter.for_language("en") is porter.default
    assert porter.for_language("") is porter.default
    assert LanguageTokenizers(Tokenizer("german")).for_language("de").language == "german"
    assert LanguageTokenizers(ENGLISH).for_language("de").language == "german"
    unstemmed = LanguageTokenizers(Tokenizer(None))
    assert (unstemmed.default_code, unstemmed.tokenize("running"), unstemmed.tokenize("running", "en")) == (
        "und",
        ["running"],
        ["run"],
    )


QUERIES: list[tuple[str, str, list[str], str | None, list[str]]] = [
    # id, question, languages, question's own language, terms
    ("one-language-as-before", "Backups running nightly", ["en"], None, ["backup", "run", "night"]),
    ("or-of-stems", "Kartoffeln Zwiebeln", ["en", "de"], None, ["kartoffeln", "zwiebeln", "kartoffel", "zwiebel"]),
    ("same-stem-once", "Kartoffel Zwiebel", ["en", "de"], None, ["kartoffel", "zwiebel"]),
    (
        "english-question-german-vault",
        "where is the recycling bin",
        ["en", "de"],
        "en",
        ["recycl", "bin", "recycling"],
    ),
    (
        "german-question-drops-its-stop-words-everywhere",
        "Wie lange kocht die Linsensuppe",
        ["de", "en"],
        "de",
        ["lang", "kocht", "linsensupp"],
    ),
    (
        "unknown-question-drops-every-languages-stop-words",
        "the Suppe und die soup",
        ["en", "de"],
        None,
        ["supp", "soup"],
    ),
    ("default-when-no-languages", "running", [], None, ["run"]),
    ("cjk-question", "东京塔", ["en", "de"], None, ["东京", "京塔"]),
]


@pytest.mark.parametrize(
    ("question", "languages", "own", "terms"), [q[1:] for q in QUERIES], ids=[q[0] for q in QUERIES]
)
def test_query_terms_in_several_languages(
    question: str, languages: list[str], own: str | None, terms: list[str]
) -> None:
    assert LanguageTokenizers(ENGLISH).query_terms(question, languages, own) == terms


MAIN: list[tuple[str, dict[str, int], tuple[str, ...]]] = [
    ("empty", {}, ()),
    ("one-language", {"en": 160}, ("en",)),
    ("minor-language-left-out", {"en": 160, "de": 4}, ("en",)),
    ("ten-percent-is-main", {"en": 90, "de": 10}, ("en", "de")),
    ("most-notes-first", {"de": 70, "en": 30}, ("de", "en")),
    ("at-most-three", {"en": 25, "de": 25, "fr": 25, "es": 25}, ("de", "en", "es")),
    ("none-reaches-the-share-most-common", {f"l{i}": 1 + (i == 3) for i in range(12)}, ("l3",)),
    ("zero-counts-ignored", {"en": 5, "de": 0}, ("en",)),
]


@pytest.mark.parametrize(("counts", "main"), [m[1:] for m in MAIN], ids=[m[0] for m in MAIN])
def test_main_languages(counts: dict[str, int], main: tuple[str, ...]) -> None:
    assert main_languages(counts) == main
