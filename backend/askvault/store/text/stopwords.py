"""Stop-word lists per Snowball language, taken from bm25s (NLTK's Snowball-derived lists), casefolded."""

from __future__ import annotations

from collections.abc import Iterable

# bm25s ships NLTK's lists (themselves from the Snowball project), the ones a Snowball stemmer is meant to pair
# with. The popular `stop-words` package was rejected: its English list (1,333 words) removes "home", "system",
# "computer", "copy", "fix", "test", "run" and "free" — words people look up in a vault.
from bm25s.stopwords import (
    STOPWORDS_DANISH,
    STOPWORDS_DUTCH,
    STOPWORDS_EN_PLUS,
    STOPWORDS_FRENCH,
    STOPWORDS_GERMAN,
    STOPWORDS_ITALIAN,
    STOPWORDS_NORWEGIAN,
    STOPWORDS_PORTUGUESE,
    STOPWORDS_RUSSIAN,
    STOPWORDS_SPANISH,
    STOPWORDS_SWEDISH,
    STOPWORDS_TURKISH,
)


def _fold(words: Iterable[str]) -> frozenset[str]:
    # Tokens are casefolded and use the ASCII apostrophe, so the lists must be too ("daß" → "dass").
    return frozenset(word.casefold().replace("’", "'") for word in words)


_LISTS: dict[str, frozenset[str]] = {
    "english": _fold(STOPWORDS_EN_PLUS),
    "porter": _fold(STOPWORDS_EN_PLUS),
    "danish": _fold(STOPWORDS_DANISH),
    "dutch": _fold(STOPWORDS_DUTCH),
    "dutch_porter": _fold(STOPWORDS_DUTCH),
    "french": _fold(STOPWORDS_FRENCH),
    "german": _fold(STOPWORDS_GERMAN),
    "italian": _fold(STOPWORDS_ITALIAN),
    "norwegian": _fold(STOPWORDS_NORWEGIAN),
    "portuguese": _fold(STOPWORDS_PORTUGUESE),
    "russian": _fold(STOPWORDS_RUSSIAN),
    "spanish": _fold(STOPWORDS_SPANISH),
    "swedish": _fold(STOPWORDS_SWEDISH),
    "turkish": _fold(STOPWORDS_TURKISH),
}


def stop_words(language: str) -> frozenset[str]:
    """The stop words for a Snowball algorithm name; empty for a language without a list (IDF still
    down-weights its frequent words, they just stay in the index)."""
    return _LISTS.get(language, frozenset())


def languages_with_stop_words() -> tuple[str, ...]:
    return tuple(sorted(_LISTS))
