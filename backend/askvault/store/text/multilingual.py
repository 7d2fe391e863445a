"""Tokenizers per note language, and how a question is analysed in several languages at once (pure)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from askvault.store.text.languages import code_of_algorithm, language_code, snowball_algorithm
from askvault.store.text.stopwords import stop_words
from askvault.store.text.tokenize import Tokenizer

MAIN_SHARE = 0.10
"""A language of at least this share of the notes is one the vault is written in: every question is analysed
in it as well as in its own language."""
MAIN_AT_MOST = 3

Detect = Callable[[str], str | None]
"""A question's language code, or None when unsure (`store.text.detect.LanguageDetector.detect`)."""


def main_languages(notes_per_language: Mapping[str, int]) -> tuple[str, ...]:
    """The languages of at least `MAIN_SHARE` of the notes, most notes first (ties by code), at most
    `MAIN_AT_MOST`; the most common one when none reaches the share; () for no notes."""
    total = sum(notes_per_language.values())
    if total <= 0:
        return ()
    ranked = sorted(
        (code for code, n in notes_per_language.items() if n > 0), key=lambda c: (-notes_per_language[c], c)
    )
    main = [code for code in ranked if notes_per_language[code] >= MAIN_SHARE * total]
    return tuple((main or ranked[:1])[:MAIN_AT_MOST])


class LanguageTokenizers:
    """The default tokenizer (the configured `stem_language`, for notes whose language is not known) and, built
    on first use with the same settings, one per other note language: its Snowball stemmer and stop words, or no
    stemming where Snowball has no algorithm (CJK, `vi`, …).

    A term is just a string, whichever language made it: a German note's `kartoffel` and an English note's
    `kartoffel` are one term, with one document frequency, so BM25's statistics stay those of one index.
    """

    def __init__(self, default: Tokenizer) -> None:
        self._default = default
        # A default that does not stem stands for no language in particular: BCP 47's "undetermined".
        self._default_code = code_of_algorithm(default.language) if default.language else "und"
        self._lock = threading.RLock()  # building a merged tokenizer builds its parts
        self._by_key: dict[tuple[str, str], Tokenizer] = {}
        """(language, question language) → tokenizer; the question language adds its stop words (see
        `query_terms`), "" adds none."""
        self._by_tag: dict[str, Tokenizer] = {"": default}
        """A note's language as stored → its tokenizer: the lookup every chunk of a rebuild makes."""

    @property
    def default(self) -> Tokenizer:
        return self._default

    @property
    def default_code(self) -> str:
        return self._default_code

    def code(self, language: str) -> str:
        """The language a note's text is tokenized in: its own code, or the default's when it has none."""
        if not language:
            return self._default_code
        return language_code(language) or self._default_code

    def for_language(self, language: str, extra_stop: Iterable[str] = ()) -> Tokenizer:
        code = self.code(language)
        extra = tuple(sorted({self.code(other) for other in extra_stop} - {code}))
        if not extra and code == self._default_code:
            return self._default
        key = (code, "+".join(extra))
        found = self._by_key.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._by_key.get(key)
            if found is None:
                found = self._build(code, extra)
                self._by_key[key] = found
        return found

    def _build(self, code: str, extra: Sequence[str]) -> Tokenizer:
        algorithm = self._default.language if code == self._default_code else snowball_algorithm(code)
        own = self._default.stop_words if code == self._default_code else stop_words(algorithm or "")
        merged = own.union(*(self.for_language(other).stop_words for other in extra))
        return Tokenizer(algorithm, stop_words=merged)

    def tokenize(self, text: str, language: str = "") -> list[str]:
        """A note's terms, in its own language (`""`: the default)."""
        tokenizer = self._by_tag.get(language)
        if tokenizer is None:
            tokenizer = self._by_tag[language] = self.for_language(language)
        return tokenizer.tokenize(text)

    def query_terms(self, text: str, languages: Sequence[str] = (), question_language: str | None = None) -> list[str]:
        """A question's distinct terms in every language of `languages` (the default when empty), first-seen
        order: the OR of their stems, so `Kartoffeln` asked in a vault of German and English notes is
        `kartoffel` (German) and `kartoffeln` (English), and each note matches the stem its own language made.

        A word that is a stop word of the question's language (`question_language`; when it is unknown, of any
        of `languages`) is dropped in every analysis: otherwise an English question's `the`, analysed as
        German, would be a rare (and so heavily weighted) German term, and a German question's `die` a rare
        English one.
        """
        codes = list(dict.fromkeys(self.code(language) for language in languages)) or [self._default_code]
        if len(codes) == 1 and (question_language is None or self.code(question_language) == codes[0]):
            return self.for_language(codes[0]).query_terms(text)
        stop_from = [question_language] if question_language else codes
        found = chain.from_iterable(self.for_language(code, stop_from).tokenize(text) for code in codes)
        return list(dict.fromkeys(found))


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """How the keyword index analyses a question at one snapshot of it: the languages its notes are in and the
    tokenizers it indexed them with (`Bm25Index.query_analysis`). Pure given these: the same question gives the
    same terms, so a question is analysed once and its terms searched with `search_terms`."""

    tokenizers: LanguageTokenizers
    main: tuple[str, ...]
    """The vault's main languages (`main_languages`); the default language's code when there are no notes."""
    present: frozenset[str] = frozenset()
    """Every language some note is in: a question's own language counts only if notes are written in it."""
    detect: Detect | None = None

    def language(self, text: str) -> str | None:
        """The question's own language when it matters (notes in more than one language) and some note is in it."""
        if len(self.present) <= 1 or self.detect is None:
            return None
        own = self.detect(text)
        return own if own is not None and own in self.present else None

    def terms(self, text: str, language: str | None) -> list[str]:
        """The terms a search for `text` looks up: its stems in its own `language` (from `language`) and in each
        main language (`LanguageTokenizers.query_terms`)."""
        if language is None:
            return self.tokenizers.query_terms(text, self.main)
        return self.tokenizers.query_terms(text, [language, *self.main], question_language=language)
