"""The section boost: a note's chunks among the fused leaders re-ordered by the words that tell its sections apart."""

from __future__ import annotations

from askvault.config import RetrievalParams
from askvault.model import SearchMode
from askvault.retrieve.boosts.step import BoostResult, SearchContext, labels_of
from askvault.retrieve.fusion import Fused
from askvault.retrieve.sections import local_score, note_idf, notes_to_order, reorder_within_notes


class SectionOrder:
    """`section_weight` (`RetrievalParams`; 0: off): re-orders the chunks of each note that holds two or more of
    the first `section_candidates` places by the question's words that are rare among that note's chunks
    (`retrieve/sections.py`); which terms each of the note's chunks holds comes from the keyword postings, in one
    call for all such notes. Labels each chunk that moved up `section`."""

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool:
        return mode == "hybrid" and params.section_weight > 0

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult:
        leaders = ctx.params.section_candidates
        note_of = {f.chunk_id: info.path for f in ranking[:leaders] if (info := ctx.chunks.get(f.chunk_id)) is not None}
        places = notes_to_order(ranking, note_of, leaders)
        terms = list(dict.fromkeys(ctx.query.terms))
        if not places or not terms:
            return BoostResult(ranking)
        by_note = ctx.catalog.by_note()
        members = {path: by_note.get(path, ()) for path in places}
        held = ctx.keywords.held_terms(terms, [cid for ids in members.values() for cid in ids])
        local: dict[str, float] = {}
        for path, ids in members.items():
            idf = note_idf({cid: held[cid] for cid in ids if cid in held}, len(ids), terms)
            for place in places[path]:
                chunk_id = ranking[place].chunk_id
                local[chunk_id] = local_score(held.get(chunk_id, frozenset()), idf)
        order, raised = reorder_within_notes(ranking, places, local, ctx.params.section_weight, leaders)
        return BoostResult(order, labels_of((chunk_id, "section") for chunk_id in raised))
