"""A question analysed once into what every part of a search reads: terms, identifiers, mentions, date phrase."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from askvault.query.dates import DateScope, find_date_scope
from askvault.query.identifiers import identifiers
from askvault.query.mentions import Mention, parse_mentions
from askvault.store.text.multilingual import QueryTerms


@dataclass(frozen=True, slots=True)
class AnalysedQuery:
    """One question as the search sees it; built once per search (`analyse_query`) and passed down, so neither
    leg, nor a boost, nor the date-scope retry parses or tokenizes the question again."""

    text: str
    """The question, stripped."""
    terms: tuple[str, ...]
    """The keyword index's terms for it, in every language it is analysed in (`QueryTerms.terms`)."""
    language: str | None
    """The question's own language when the index detected one (notes in several languages), else None."""
    identifiers: tuple[str, ...]
    """Identifier-like tokens, casefolded (`query.identifiers`): what the exact-identifier boost looks for."""
    mentions: tuple[Mention, ...]
    """Its `[[Note]]` links and `#tags`, in order."""
    date_scope: DateScope | None
    """Its first date phrase as a day range; None without one (or when date phrases are not looked for)."""


def analyse_query(text: str, keywords: QueryTerms, now: datetime | None, week_start: int = 0) -> AnalysedQuery:
    """Analyses `text` with the keyword index's languages and tokenizers (`KeywordIndex.query_analysis`); `now`
    is the moment relative date phrases count from, None to look for no date phrase (`query_dates` off)."""
    language = keywords.language(text)
    return AnalysedQuery(
        text=text,
        terms=tuple(keywords.terms(text, language)),
        language=language,
        identifiers=tuple(identifiers(text)),
        mentions=tuple(parse_mentions(text)),
        date_scope=None if now is None else find_date_scope(text, now, week_start),
    )
