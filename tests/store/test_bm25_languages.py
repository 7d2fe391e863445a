"""BM25 over notes in several languages: each chunk in its own stems, one set of statistics, questions in many."""

from __future__ import annotations

import numpy as np
import pytest

from askvault.model import Chunk
from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.text.detect import shared_detector
from askvault.store.text.multilingual import LanguageTokenizers
from askvault.store.text.tokenize import Tokenizer
from tests.store.bm25_oracle import LuceneIdfBM25


def chunk(chunk_id: str, path: str, text: str, language: str = "") -> Chunk:
    return Chunk(chunk_id, path, path.removesuffix(".md"), (), 1, 1, text, text, language=language)


VAULT = [
    chunk("soup", "Rezepte/Linsensuppe.md", "Linsensuppe: 3 Kartoffeln und 1 Zwiebel, 400 g Linsen", "de"),
    chunk("spaetzle", "Rezepte/Käsespätzle.md", "Käsespätzle mit Zwiebeln und Bergkäse", "de"),
    chunk("cake", "Rezepte/Apfelkuchen.md", "Säuerliche Äpfel dicht an dicht auf den Teig", "de"),
    chunk("backup", "Homelab/Backups.md", "Nightly backups running on the NAS", "en"),
    chunk("bread", "Cooking/Bread.md", "Sourdough loaf with potatoes and onions", "en"),
    chunk("plan", "Cooking/Plan.md", "Meal plan: potato soup on Monday", ""),
    chunk("tokyo", "Travel/東京.md", "东京塔的夜景很好看", "zh"),
]


def index_of(chunks: list[Chunk]) -> Bm25Index:
    index = Bm25Index(Tokenizer(), detect=shared_detector().detect)
    index.rebuild(chunks)
    return index


def ids(index: Bm25Index, query: str) -> list[str]:
    return [hit.chunk_id for hit in index.search(query, limit=10).ranked]


SEARCHES: list[tuple[str, str, list[str]]] = [
    ("german-singulars-find-plurals", "Kartoffel Zwiebel", ["soup", "spaetzle"]),
    ("umlaut-plural-finds-singular", "Apfel", ["cake"]),
    ("german-question", "Welche Äpfel kommen auf den Kuchen?", ["cake"]),
    ("english-question-english-notes", "running backup", ["backup"]),
    ("english-plural", "potatoes", ["bread", "plan"]),
    ("chinese", "东京塔", ["tokyo"]),
]


@pytest.mark.parametrize(("query", "expected"), [s[1:] for s in SEARCHES], ids=[s[0] for s in SEARCHES])
def test_each_note_is_found_by_its_own_languages_stems(query: str, expected: list[str]) -> None:
    assert ids(index_of(VAULT), query) == expected


@pytest.mark.parametrize(
    "query",
    ["Kartoffel Zwiebel", "Welche Äpfel kommen auf den Kuchen?", "running backup", "potatoes onions", "东京塔"],
)
def test_scores_are_rank_bm25s_over_each_chunks_own_terms(query: str) -> None:
    """One index: a stem is one term whichever language made it, with one df, one N and one avgdl."""
    index = index_of(VAULT)
    tokenizers = LanguageTokenizers(index.tokenizer)
    corpus = [tokenizers.tokenize(c.index_text, c.language) for c in VAULT]
    reference = LuceneIdfBM25(corpus, k1=1.5, b=0.75)
    full = np.asarray(reference.get_scores(index.query_terms(query)), dtype=np.float64)
    result = index.search(query, limit=len(VAULT))
    positions = {c.id: n for n, c in enumerate(VAULT)}
    assert [hit.score for hit in result.ranked] == pytest.approx([full[positions[h.chunk_id]] for h in result.ranked])
    assert result.matched == int(np.count_nonzero(full))
    for stat in result.terms:
        assert stat.df == sum(stat.term in terms for terms in corpus)


def test_main_languages_and_what_a_question_becomes() -> None:
    index = index_of(VAULT)
    assert index.languages == ("de", "en", "zh")
    # German detected: its stop words go from every analysis; German stems, then English ones, then the words
    # as the Chinese notes hold Latin text (unstemmed: Snowball has no Chinese).
    question = "Wie lange kochen die Kartoffeln?"
    assert index.query_terms(question) == ["lang", "koch", "kartoffel", "kochen", "kartoffeln", "lange"]
    # Too short to detect: the main languages' stems, every main language's stop words dropped.
    assert index.query_terms("Kartoffeln") == ["kartoffel", "kartoffeln"]


def test_an_index_of_one_language_analyses_questions_as_before() -> None:
    english = [c for c in VAULT if c.language in ("en", "")]
    index = index_of(english)
    assert index.languages == ("en",)
    for query in ["Wie lange kochen die Kartoffeln?", "running backups nightly", "the potato"]:
        assert index.query_terms(query) == Tokenizer().query_terms(query)
    plain = Bm25Index(Tokenizer())
    plain.rebuild((c.id, c.index_text) for c in english)
    for query in ["running backups", "potatoes onions soup"]:
        assert plain.search(query, 10) == index.search(query, 10)


def test_a_german_only_vault_stems_questions_in_german() -> None:
    german = [c for c in VAULT if c.language == "de"]
    index = index_of(german)
    assert index.languages == ("de",)
    assert index.query_terms("Zwiebeln") == ["zwiebel"]
    assert ids(index, "Zwiebeln") == ["spaetzle", "soup"]


def test_a_chunk_whose_language_changes_is_tokenized_again() -> None:
    """Same text, new language (a `lang:` added, or detection): the term counts kept between rebuilds must not
    hide the change."""
    before = chunk("soup", "Rezepte/Linsensuppe.md", "Kartoffeln und Zwiebeln")
    index = index_of([before])
    assert ids(index, "Kartoffel") == []
    index.rebuild([chunk("soup", "Rezepte/Linsensuppe.md", "Kartoffeln und Zwiebeln", "de")])
    assert ids(index, "Kartoffel") == ["soup"]
    assert index.languages == ("de",)
