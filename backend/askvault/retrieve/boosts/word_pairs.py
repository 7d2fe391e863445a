"""The phrase boost: the fused leaders holding the question's adjacent word pairs side by side gain a small share."""

from __future__ import annotations

from askvault.config import RetrievalParams
from askvault.model import SearchMode
from askvault.retrieve.boosts.step import BoostResult, SearchContext
from askvault.retrieve.fusion import Fused
from askvault.retrieve.phrases import pair_share, pairs_held, term_pairs, with_phrase_scores


class WordPairs:
    """`phrase_weight` (`RetrievalParams`; 0: off): adds the phrase share (`retrieve/phrases.py`) over the first
    `phrase_candidates` fused chunks. Each is tokenized as the keyword index tokenizes its note, and the question
    the same way, so pairs meet in the chunk's own language. Labels nothing: it only reorders what the legs found."""

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool:
        return mode == "hybrid" and params.phrase_weight > 0

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult:
        keywords, top = ctx.keywords, ctx.params.phrase_candidates
        # The leaders' texts: usually the hits themselves, so the read that shows them is the one made here.
        ctx.texts.read([f.chunk_id for f in ranking[:top]])
        texts = ctx.texts.full
        leaders = [c for f in ranking[:top] if (c := texts.get(f.chunk_id)) is not None]  # one missing: left out
        wanted = {
            language: term_pairs(keywords.tokenize(ctx.query.text, language))
            for language in dict.fromkeys(chunk.language for chunk in leaders)
        }
        terms = sorted({term for pairs in wanted.values() for pair in pairs for term in pair})
        # Most leaders lack one of each pair's terms (the postings say which they hold): only the rest are
        # tokenized. A question of one word has no pair, and no leader is tokenized at all.
        held = keywords.held_terms(terms, [chunk.id for chunk in leaders]) if terms else {}
        shares: dict[str, float] = {}
        for chunk in leaders:
            pairs = wanted[chunk.language]
            possible = pairs_held(pairs, held.get(chunk.id)) if pairs else pairs
            shares[chunk.id] = (
                pair_share(pairs, keywords.tokenize(chunk.index_text, chunk.language), possible) if possible else 0.0
            )
        return BoostResult(with_phrase_scores(ranking, shares, ctx.weights, ctx.params.phrase_weight))
