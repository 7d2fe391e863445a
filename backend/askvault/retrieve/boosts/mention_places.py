"""The mention boost: each `[[Note]]` / `#tag` the question names gets its best chunk a place near the top."""

from __future__ import annotations

from askvault.config import RetrievalParams
from askvault.model import ChunkInfo, SearchMode
from askvault.query.mentions import Mention
from askvault.retrieve.boosts.step import BoostResult, SearchContext, labels_of
from askvault.retrieve.fusion import Fused
from askvault.retrieve.mentions import best_of, has_tag, heading_matches, promote, resolve_note


class MentionPlaces:
    """`mention_top` (`RetrievalParams`; 0: off): each mention's best chunk within the first `mention_top` places
    (`retrieve.mentions.promote`). Labels each chunk that had to move with its mention (`[[Note]]`, `#tag`)."""

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool:
        return mode == "hybrid" and params.mention_top > 0

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult:
        mentions = ctx.query.mentions
        if not mentions:
            return BoostResult(ranking)
        names = ctx.note_names()
        wanted: list[Fused] = []
        labels: dict[str, str] = {}
        for mention in mentions:
            path = (
                resolve_note(mention.target, names.resolver, names.titles, names.aliases)
                if mention.kind == "note"
                else None
            )
            if mention.kind == "note" and path is None:
                continue
            best = best_of(ranking, ctx.chunks, mention, path) or _best_outside(ctx, mention, path)
            if best is not None and best.chunk_id not in labels:
                wanted.append(best)
                labels[best.chunk_id] = mention.label
        promoted, moved = promote(ranking, wanted, ctx.params.mention_top)
        return BoostResult(promoted, labels_of((chunk_id, labels[chunk_id]) for chunk_id in moved))


def _best_outside(ctx: SearchContext, mention: Mention, path: str | None) -> Fused | None:
    """When no chunk of the mention ranks: its best keyword match for the query (the keyword leg restricted to it),
    else, for a note, the linked heading's chunk or its first chunk. No leg placed it, so its score is 0."""
    chunks, filters = ctx.chunks, ctx.filters

    def in_scope(chunk: ChunkInfo | None) -> bool:
        if chunk is None or not filters.accepts(chunk):
            return False
        return chunk.path == path if mention.kind == "note" else has_tag(chunk, mention.target)

    found = ctx.keywords.search_terms(ctx.query.terms, 1, lambda chunk_id: in_scope(chunks.get(chunk_id))).ranked
    if found:
        return Fused(found[0].chunk_id, 0.0, {})
    if mention.kind == "tag":
        return None
    first = min(
        (c for c in chunks.values() if in_scope(c)),
        key=lambda c: (not heading_matches(c, mention.heading), c.start_line),
        default=None,
    )
    return Fused(first.id, 0.0, {}) if first is not None else None
