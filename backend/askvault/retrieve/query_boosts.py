"""Query-side boosts after fusion: identifiers held literally, word pairs, the order of a note's sections, and
`[[Note]]` / `#tag` mentions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askvault.config import RetrievalParams
from askvault.model import Chunk, ChunkInfo, SearchFilters
from askvault.parse.links import LinkResolver
from askvault.query.analyse import AnalysedQuery
from askvault.query.mentions import Mention
from askvault.retrieve.fusion import Fused, add_share
from askvault.retrieve.identifiers import IdentifierTerms, exact_ranking, identifier_terms, may_hold
from askvault.retrieve.mentions import alias_index, best_of, has_tag, heading_matches, promote, resolve_note
from askvault.retrieve.phrases import pair_share, pairs_held, term_pairs, with_phrase_scores
from askvault.retrieve.sections import local_score, note_idf, notes_to_order, reorder_within_notes
from askvault.store.protocol import KeywordIndex


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


class QueryBoosts:
    """The switches `identifier_weight` and `mention_top` (`RetrievalParams`); each records what it moved in
    `boosts` (chunk id → labels) for the inspector."""

    def __init__(self, params: RetrievalParams, keywords: KeywordIndex) -> None:
        self._params = params
        self._keywords = keywords
        self._resolver: tuple[Mapping[str, ChunkInfo], LinkResolver, dict[str, str], dict[str, str]] | None = None

    def identifier_candidates(
        self, query: AnalysedQuery, fused: list[Fused], chunks: Mapping[str, ChunkInfo], lead: int
    ) -> list[str]:
        """The candidates whose texts `exact_identifiers` must read: the first `lead` (shown or phrase-scored, so
        read anyway), and past them those the keyword postings say may hold an identifier (`may_hold`, in the
        chunk's own language). Most candidates hold none, and a text read costs more than the postings do."""
        ids = [f.chunk_id for f in fused]
        rest = [chunk_id for chunk_id in ids[lead:] if chunk_id in chunks]
        if not query.identifiers or not rest:
            return ids
        wanted: dict[str, list[IdentifierTerms]] = {
            language: [identifier_terms(self._keywords.tokenize(i, language)) for i in query.identifiers]
            for language in dict.fromkeys(chunks[chunk_id].language for chunk_id in rest)
        }
        terms = sorted({term for found in wanted.values() for t in found if t is not None for term in (t[0], *t[1])})
        held = self._keywords.held_terms(terms, rest)
        return ids[:lead] + [c for c in rest if may_hold(held.get(c), wanted[chunks[c].language])]

    def exact_identifiers(
        self,
        query: AnalysedQuery,
        fused: list[Fused],
        weights: dict[str, float],
        chunks: Mapping[str, Chunk],
        boosts: dict[str, list[str]],
    ) -> list[Fused]:
        """Fuses a third ranking in: the candidates that hold one of the query's identifiers literally, in fused
        order (more identifiers first), so `kodi-livingroom` lifts the rows that name it over chunks that only
        share its parts. `chunks` holds the candidates with their texts."""
        exact, held_by = exact_ranking([f.chunk_id for f in fused], chunks, query.identifiers)
        if not exact:
            return fused
        for chunk_id, held in held_by.items():
            boosts.setdefault(chunk_id, []).extend(f"identifier:{name}" for name in held)
        return _with_identifier_scores(fused, exact, held_by, weights, self._params.identifier_weight)

    def phrases(
        self, query: AnalysedQuery, fused: list[Fused], weights: dict[str, float], chunks: Mapping[str, Chunk]
    ) -> list[Fused]:
        """Adds the phrase share over the first `phrase_candidates` fused chunks: each is tokenized as the keyword
        index tokenizes its note, and the question the same way, so pairs meet in the chunk's own language.
        `chunks` holds the leaders with their texts (one missing is left out)."""
        leaders = [c for f in fused[: self._params.phrase_candidates] if (c := chunks.get(f.chunk_id)) is not None]
        wanted = {
            language: term_pairs(self._keywords.tokenize(query.text, language))
            for language in dict.fromkeys(chunk.language for chunk in leaders)
        }
        terms = sorted({term for pairs in wanted.values() for pair in pairs for term in pair})
        # Most leaders lack one of each pair's terms (the postings say which they hold): only the rest are
        # tokenized. A question of one word has no pair, and no leader is tokenized at all.
        held = self._keywords.held_terms(terms, [chunk.id for chunk in leaders]) if terms else {}
        shares: dict[str, float] = {}
        for chunk in leaders:
            pairs = wanted[chunk.language]
            possible = pairs_held(pairs, held.get(chunk.id)) if pairs else pairs
            shares[chunk.id] = (
                pair_share(pairs, self._keywords.tokenize(chunk.index_text, chunk.language), possible)
                if possible
                else 0.0
            )
        return with_phrase_scores(fused, shares, weights, self._params.phrase_weight)

    def sections(
        self,
        query: AnalysedQuery,
        fused: list[Fused],
        chunks: Mapping[str, ChunkInfo],
        by_note: Mapping[str, Sequence[str]],
        boosts: dict[str, list[str]],
    ) -> list[Fused]:
        """Re-orders the chunks of each note that holds two or more of the first `section_candidates` places by
        the question's words that are rare among that note's chunks (`retrieve/sections.py`); which terms each of
        the note's chunks holds comes from the keyword postings, in one call for all such notes."""
        leaders = self._params.section_candidates
        note_of = {f.chunk_id: info.path for f in fused[:leaders] if (info := chunks.get(f.chunk_id)) is not None}
        places = notes_to_order(fused, note_of, leaders)
        terms = list(dict.fromkeys(query.terms))
        if not places or not terms:
            return fused
        members = {path: by_note.get(path, ()) for path in places}
        held = self._keywords.held_terms(terms, [cid for ids in members.values() for cid in ids])
        local: dict[str, float] = {}
        for path, ids in members.items():
            idf = note_idf({cid: held[cid] for cid in ids if cid in held}, len(ids), terms)
            for place in places[path]:
                chunk_id = fused[place].chunk_id
                local[chunk_id] = local_score(held.get(chunk_id, frozenset()), idf)
        order, raised = reorder_within_notes(fused, places, local, self._params.section_weight, leaders)
        for chunk_id in raised:
            boosts.setdefault(chunk_id, []).append("section")
        return order

    def promote_mentions(
        self,
        query: AnalysedQuery,
        filters: SearchFilters,
        fused: list[Fused],
        chunks: Mapping[str, ChunkInfo],
        boosts: dict[str, list[str]],
    ) -> list[Fused]:
        """Each `[[Note]]` / `#tag` the query names gets its best chunk within the first `mention_top` places."""
        mentions = query.mentions
        if not mentions:
            return fused
        resolver, titles, aliases = self._notes(chunks)
        wanted: list[Fused] = []
        labels: dict[str, str] = {}
        for mention in mentions:
            path = resolve_note(mention.target, resolver, titles, aliases) if mention.kind == "note" else None
            if mention.kind == "note" and path is None:
                continue
            best = best_of(fused, chunks, mention, path) or self._best_outside(query, filters, chunks, mention, path)
            if best is not None and best.chunk_id not in labels:
                wanted.append(best)
                labels[best.chunk_id] = mention.label
        promoted, moved = promote(fused, wanted, self._params.mention_top)
        for chunk_id in moved:
            boosts.setdefault(chunk_id, []).append(labels[chunk_id])
        return promoted

    def _notes(self, chunks: Mapping[str, ChunkInfo]) -> tuple[LinkResolver, dict[str, str], dict[str, str]]:
        """A link resolver, path → title and alias → path over the catalog snapshot, built once per snapshot (it
        is swapped whole on every index change)."""
        cached = self._resolver
        if cached is not None and cached[0] is chunks:
            return cached[1], cached[2], cached[3]
        titles = {chunk.path: chunk.title for chunk in chunks.values()}
        resolver = LinkResolver(titles)
        aliases = alias_index(chunks)
        self._resolver = (chunks, resolver, titles, aliases)
        return resolver, titles, aliases

    def _best_outside(
        self,
        query: AnalysedQuery,
        filters: SearchFilters,
        chunks: Mapping[str, ChunkInfo],
        mention: Mention,
        path: str | None,
    ) -> Fused | None:
        """When no chunk of the mention ranks: its best keyword match for the query (the keyword leg restricted to
        it), else, for a note, the linked heading's chunk or its first chunk. No leg placed it, so its score is 0."""

        def in_scope(chunk: ChunkInfo | None) -> bool:
            if chunk is None or not filters.accepts(chunk):
                return False
            return chunk.path == path if mention.kind == "note" else has_tag(chunk, mention.target)

        found = self._keywords.search_terms(query.terms, 1, lambda chunk_id: in_scope(chunks.get(chunk_id))).ranked
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
