"""Exact identifiers: which candidate chunks hold a query's identifier-like tokens literally, as a ranking."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

import regex

from askvault.model import Chunk

# A weak joiner (`.`, `-`, `_`, `~`, `+`) followed by a letter or digit continues a token (`10.0.0.410`,
# `kodi-livingroom-2`), so the identifier would only be part of another value there. A strong one (`/ \ @ : =`)
# separates the named pieces of a URL, path or assignment: `http://kodi-livingroom:8080` does hold
# `kodi-livingroom`.
_ALNUM = regex.compile(r"[\p{L}\p{N}]")
_WEAK = frozenset("._-~+")


def _glued(char: str, beyond: str) -> bool:
    """Whether `char`, next to a match, glues it to more of a token: a letter or digit does, and so does a weak
    joiner with a letter or digit beyond it (`beyond`, the character after it on that side; "" at an end)."""
    if _ALNUM.match(char) is not None:
        return True
    return char in _WEAK and beyond != "" and _ALNUM.match(beyond) is not None


def holds_whole(folded: str, identifier: str) -> bool:
    """Whether `identifier` (casefolded) occurs in `folded` (casefolded, NFKC-normalised) as a whole token: at
    some occurrence neither side glues it to more (`_glued`). Found with `str.find`, then two characters looked at
    on each side: a pattern with look-behinds per identifier cost ten times as much per text."""
    size = len(identifier)
    start = folded.find(identifier)
    while start >= 0:
        end = start + size
        before = start > 0 and _glued(folded[start - 1], folded[start - 2] if start > 1 else "")
        if not before and not (end < len(folded) and _glued(folded[end], folded[end + 1 : end + 2])):
            return True
        start = folded.find(identifier, start + 1)
    return False


def fold(text: str) -> str:
    """Text as identifiers are matched against it: NFKC, casefolded, typographic apostrophes as `'`."""
    return unicodedata.normalize("NFKC", text).replace("’", "'").casefold()


def held(text: str, identifiers: Sequence[str]) -> tuple[str, ...]:
    """The identifiers (casefolded, as `store.text.tokenize.identifiers` gives them) that occur in `text` as whole
    tokens, exactly and unstemmed, ignoring case."""
    folded = fold(text)
    return tuple(i for i in identifiers if holds_whole(folded, i))


IdentifierTerms = tuple[str, frozenset[str]] | None
"""An identifier as a note's keyword terms: the whole token's term and its parts' (`kodi-livingroom` → the whole,
`kodi`, `livingroom`); None when tokenizing gives no term to look for."""


def identifier_terms(terms: Sequence[str]) -> IdentifierTerms:
    """`IdentifierTerms` from an identifier's terms as the keyword index tokenizes it (whole first, then parts)."""
    return (terms[0], frozenset(terms[1:])) if terms else None


def may_hold(held: frozenset[str] | None, wanted: Sequence[IdentifierTerms]) -> bool:
    """Whether a chunk whose postings hold `held` (None: not in the keyword index) can hold one of the `wanted`
    identifiers literally: it holds the whole token's term, or every one of its parts (`kodi-livingroom's` keeps
    the possessive on the whole term, `x.-kodi-livingroom` makes a longer one, but the parts are there). An
    identifier with no term, or a chunk the index does not know, can only be told by its text."""
    if held is None:
        return True
    for terms in wanted:
        if terms is None:
            return True
        whole, parts = terms
        if whole in held or (parts and parts <= held):
            return True
    return False


def exact_ranking(
    candidates: Sequence[str], chunks: Mapping[str, Chunk], identifiers: Sequence[str]
) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """The candidates (chunk ids, best first) whose index text (title, headings, text) holds at least one
    identifier: those holding more of them first, otherwise in the candidates' order; and, for each of them,
    which identifiers it holds.

    Only candidates are looked at (what the legs returned), so the cost does not grow with the vault.
    """
    if not identifiers:
        return [], {}
    found: dict[str, tuple[str, ...]] = {}
    for chunk_id in candidates:
        chunk = chunks.get(chunk_id)
        if chunk is None or chunk_id in found:
            continue
        names = held(chunk.index_text, identifiers)
        if names:
            found[chunk_id] = names
    order = {chunk_id: position for position, chunk_id in enumerate(found)}
    ranking = sorted(found, key=lambda chunk_id: (-len(found[chunk_id]), order[chunk_id]))
    return ranking, found
