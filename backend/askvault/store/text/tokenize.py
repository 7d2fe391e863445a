"""The tokenizer of one language for keyword indexing and querying: words, identifiers, stems, CJK bigrams."""

from __future__ import annotations

import threading
import unicodedata
from itertools import chain
from typing import cast

import regex
import Stemmer

from askvault.errors import ConfigError
from askvault.store.text.cjk import bigrams, has_cjk, split_runs
from askvault.store.text.stopwords import stop_words as stop_words_of

# `regex`'s \w, unlike `re`'s, includes combining marks, without which Devanagari or Tamil words (Snowball stems
# both) fall apart; NFKC has already turned other numerals such as `²` into digits.
_ALNUM = r"[^\W_]"
_WORD = rf"{_ALNUM}+(?:'{_ALNUM}+)*"
# Characters that glue words into one value when they sit between two words: `10.0.0.5`, `my-service_v2`,
# `nas.local`, `alice@example.com`, `/etc/nginx/nginx.conf`, `host:5433`, `key=value`. Leading ones are not part
# of the value (`--background-primary` is kept as `background-primary`, the same whether queried with dashes or not).
_JOIN = r"[._\-/\\@:~=+]"
_COMPOUND = regex.compile(rf"{_WORD}(?:{_JOIN}+{_WORD})*")
_ANY_JOIN = regex.compile(rf"{_JOIN}+")
COMPOUND, ANY_JOIN = _COMPOUND, _ANY_JOIN
"""A token as the index sees it, and its joiners: `query.identifiers` reads identifiers by the same rules."""
# Separators between the named pieces of a path, address or assignment; `nginx.conf` of a path is worth a term.
_STRONG_JOIN = regex.compile(r"[/\\@:=]+")
_CAMEL = regex.compile(r"\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+")
_DIGIT = regex.compile(r"\p{N}")

_CACHE_LIMIT = 131_072
_ASCII_NON_ALNUM = "".join(chr(code) for code in range(128) if not chr(code).isalnum())


def _camel_parts(atom: str) -> list[str] | None:
    """`camelCase` → [camel, Case], `HTTPServer` → [HTTP, Server], `myService2` → [my, Service, 2]; None for
    anything else, in particular random IDs such as `nANsCsF9gf975ojT` whose pieces would only be noise."""
    if atom.isascii():
        # Only digits may end the atom, and a second word needs a capital after the first letter.
        word = atom.rstrip("0123456789")
        if not word.isalpha() or word[1:].islower() or not word[1:]:
            return None
    segments: list[str] = _CAMEL.findall(atom)
    if len(segments) < 2 or "".join(segments) != atom:
        return None
    if any(segment[0].isnumeric() for segment in segments[:-1]):
        return None
    letters = [segment for segment in segments if not segment[0].isnumeric()]
    if len(letters) < 2 or any(len(segment) < 2 for segment in letters):
        return None
    return segments


class Tokenizer:
    """Turns text into BM25 terms; the same instance (same rules) must serve indexing and querying.

    - Text is NFKC-normalised and casefolded; typographic apostrophes become `'`.
    - A plain word is dropped when it is a stop word, otherwise Snowball-stemmed (`services` → `servic`).
    - A token with a digit is an identifier or a number: kept whole and never stemmed (`5433`,
      `nanscsf9gf975ojt`, `v2`). A letters-only token is stemmed whatever its case, so `iPhone` and `iphone`
      still meet.
    - A compound glued by `. - _ / \\ @ : ~ = +` is kept whole (unstemmed), plus each named piece between
      `/ \\ @ : =` that is itself a compound (`nginx.conf`, `example.com`), plus every part treated as above;
      one-character parts are dropped (`10.0.0.5` → `10.0.0.5`, `10`), since they only add noise.
    - `camelCase`/`PascalCase` tokens also yield their words (`camelCase` → `camelcas`, `camel`, `case`).
    - Runs of Han, kana or Hangul become overlapping character bigrams (`store.text.cjk`), in any language: Chinese
      and Japanese have no spaces between words, and one term per clause would match nothing.
    """

    def __init__(
        self,
        language: str | None = "english",
        *,
        stop_words: frozenset[str] | None = None,
    ) -> None:
        """`language` is a Snowball algorithm name, or None for no stemming (CJK, a language Snowball lacks);
        `stop_words` replaces the language's own list (query analysis across languages, `store.text.multilingual`)."""
        name = language.strip().lower() if language is not None else None
        if name is not None and name not in Stemmer.algorithms():
            raise ConfigError(
                f"unknown stemming language {language!r}; choose one of: {', '.join(sorted(Stemmer.algorithms()))}"
            )
        self._language = name
        self._stop = stop_words if stop_words is not None else stop_words_of(name) if name else frozenset()
        # PyStemmer objects must not be shared between threads; indexing runs in a worker thread while searches
        # run on the event loop, so each thread gets its own.
        self._local = threading.local()
        # Terms of each whitespace-separated piece already seen; vault text is Zipfian, so most pieces repeat.
        self._cache: dict[str, tuple[str, ...]] = {}

    @property
    def language(self) -> str:
        """The Snowball algorithm; empty when this tokenizer does not stem."""
        return self._language or ""

    @property
    def stop_words(self) -> frozenset[str]:
        return self._stop

    def tokenize(self, text: str) -> list[str]:
        """Every term in text order, repeats kept (they are the term frequencies)."""
        # No term spans whitespace, so whitespace-separated pieces can be looked up whole: in Zipfian text most
        # pieces were seen before, and a dict lookup is far cheaper than running the pattern again.
        pieces = unicodedata.normalize("NFKC", text).replace("’", "'").split()
        # Each distinct piece missing from the cache is computed once (`_terms_of_piece` caches it while there is
        # room), then every piece is looked up by `map`: two million short lines cost no Python bytecode each.
        cache = self._cache
        fresh = {piece: self._terms_of_piece(piece) for piece in dict.fromkeys(pieces) if piece not in cache}
        if not fresh:
            return list(chain.from_iterable(map(cache.__getitem__, pieces)))
        # Every piece is in the cache or in `fresh` (what a full cache could not keep), so no lookup gives None.
        found = cast("map[tuple[str, ...]]", map(cache.get, pieces, map(fresh.get, pieces)))
        return list(chain.from_iterable(found))

    def query_terms(self, text: str) -> list[str]:
        """The distinct terms of a query, first-seen order; stop words are left out."""
        return list(dict.fromkeys(self.tokenize(text)))

    def _terms_of_piece(self, piece: str) -> tuple[str, ...]:
        terms: list[str] = []
        core = piece.strip(_ASCII_NON_ALNUM)
        if core.isascii() and (core.isalnum() or not core):
            # `word,` `(x)` `key123:`: punctuation round ASCII letters and digits glues nothing, so the one
            # compound `_COMPOUND` would find is the core (none when there is no core).
            if core:
                self._add_atom(core, terms, part=False)
        elif has_cjk(piece):
            for segment, cjk in split_runs(piece):
                if cjk:
                    terms.extend(bigrams(segment))
                else:
                    for raw in _COMPOUND.findall(segment):
                        self._add_raw(raw, terms)
        else:
            for raw in _COMPOUND.findall(piece):
                self._add_raw(raw, terms)
        result = tuple(terms)
        # Once full the cache stops growing rather than being cleared: in Zipfian text the frequent pieces show up
        # early, so the first ones seen are the ones worth keeping, and a cleared cache would thrash.
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[piece] = result
        return result

    def _add_raw(self, raw: str, terms: list[str]) -> None:
        if _ANY_JOIN.search(raw) is None:
            self._add_atom(raw, terms, part=False)
            return
        terms.append(raw.casefold())
        pieces = _STRONG_JOIN.split(raw)
        if len(pieces) > 1:
            terms.extend(piece.casefold() for piece in pieces if _ANY_JOIN.search(piece))
        for atom in _ANY_JOIN.split(raw):
            self._add_atom(atom, terms, part=True)

    def _add_atom(self, atom: str, terms: list[str], *, part: bool) -> None:
        folded = atom.casefold()
        if part and len(folded) < 2:
            return
        ascii_word = folded.isascii() and folded.isalnum()
        if (not folded.isalpha()) if ascii_word else _DIGIT.search(folded) is not None:
            terms.append(folded)
        elif folded in self._stop:
            return
        else:
            terms.append(self._stem(folded))
        pieces = _camel_parts(atom)
        if pieces is not None:
            for piece in pieces:
                self._add_atom(piece, terms, part=True)

    def _stem(self, word: str) -> str:
        if self._language is None:
            return word
        stemmer = getattr(self._local, "stemmer", None)
        if stemmer is None:
            stemmer = Stemmer.Stemmer(self._language)
            self._local.stemmer = stemmer
        stem: str = stemmer.stemWord(word)
        return stem
