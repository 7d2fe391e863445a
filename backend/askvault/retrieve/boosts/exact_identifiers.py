"""The exact-identifier boost: chunks holding the question's identifiers literally gain a third share of the score."""

from __future__ import annotations

from collections.abc import Mapping

from askvault.config import RetrievalParams
from askvault.model import SearchMode
from askvault.retrieve.boosts.step import BoostResult, SearchContext, labels_of
from askvault.retrieve.fusion import Fused, add_share
from askvault.retrieve.identifiers import IdentifierTerms, exact_ranking, identifier_terms, may_hold


class ExactIdentifiers:
    """`identifier_weight` (`RetrievalParams`; 0: off): fuses a third ranking in, the candidates that hold one of
    the query's identifiers literally, in fused order (more identifiers first), so `kodi-livingroom` lifts the rows
    that name it over chunks that only share its parts. Labels each such chunk `identifier:<name>` per name."""

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool:
        return mode == "hybrid" and params.identifier_weight > 0

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult:
        query = ctx.query
        if query.identifiers:  # matched in the candidates' texts: read those that may hold one, in one go
            ctx.texts.read(_candidates(ctx, ranking, max(ctx.k, ctx.params.phrase_candidates)))
        exact, held_by = exact_ranking([f.chunk_id for f in ranking], ctx.texts.full, query.identifiers)
        if not exact:
            return BoostResult(ranking)
        labels = labels_of((chunk_id, f"identifier:{name}") for chunk_id, held in held_by.items() for name in held)
        scored = _with_identifier_scores(ranking, exact, held_by, ctx.weights, ctx.params.identifier_weight)
        return BoostResult(scored, labels)


def _candidates(ctx: SearchContext, fused: list[Fused], lead: int) -> list[str]:
    """The candidates whose texts the boost must read: the first `lead` (shown or phrase-scored, so read anyway),
    and past them those the keyword postings say may hold an identifier (`may_hold`, in the chunk's own language).
    Most candidates hold none, and a text read costs more than the postings do."""
    chunks, keywords = ctx.chunks, ctx.keywords
    ids = [f.chunk_id for f in fused]
    rest = [chunk_id for chunk_id in ids[lead:] if chunk_id in chunks]
    if not ctx.query.identifiers or not rest:
        return ids
    wanted: dict[str, list[IdentifierTerms]] = {
        language: [identifier_terms(keywords.tokenize(i, language)) for i in ctx.query.identifiers]
        for language in dict.fromkeys(chunks[chunk_id].language for chunk_id in rest)
    }
    terms = sorted({term for found in wanted.values() for t in found if t is not None for term in (t[0], *t[1])})
    held = keywords.held_terms(terms, rest)
    return ids[:lead] + [c for c in rest if may_hold(held.get(c), wanted[chunks[c].language])]


def _with_identifier_scores(
    fused: list[Fused],
    exact: list[str],
    held_by: Mapping[str, tuple[str, ...]],
    weights: Mapping[str, float],
    identifier_weight: float,
) -> list[Fused]:
    """Score fusion's form of the identifier ranking: a third component beside the legs' normalised scores, 1 for
    the chunks holding the most of the query's identifiers (a share for fewer), weighted against the legs as in
    rank fusion (`identifier_weight` beside each leg's weight), so holding `general-purpose` lifts a chunk the
    legs rank well and never one they barely found above their joint leader."""
    most = max((len(held_by[chunk_id]) for chunk_id in exact), default=1)
    bonus = {chunk_id: len(held) / most for chunk_id, held in held_by.items()}
    ranks = {chunk_id: {"exact": rank} for rank, chunk_id in enumerate(exact, start=1)}
    return add_share(fused, bonus, identifier_weight, weights, ranks)
