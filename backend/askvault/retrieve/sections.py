"""The section order inside each note among the fused leaders: sibling chunks ranked by the words that tell them
apart (pure).

BM25 weighs a word by how rare it is in the whole vault, so inside a note about JavaScript every section holds
"javascript" at full weight and the shortest section wins; the embedder sees the note's topic in each section too.
Which section answers is told by the question's words that are rare *among that note's chunks*. Among the first
`section_candidates` fused chunks, each note with two or more of them has those chunks re-ordered, within the
places they already hold, by their fused score plus `section_weight` × (the leaders' score spread) × their
min-max normalised note-local score: Σ over the question's terms a chunk holds of the term's IDF among the note's
chunks. A note never gains or loses a place, so which notes rank where is unchanged (eval/README.md, round four,
"Within a note").
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

from askvault.retrieve.fusion import Fused


def note_idf(held: Mapping[str, Collection[str]], note_chunks: int, terms: Sequence[str]) -> dict[str, float]:
    """Each term's BM25 IDF among one note's `note_chunks` chunks, `held` saying which terms each chunk holds (a
    chunk holding none may be absent). A term every chunk holds weighs almost nothing; one held by a single
    section of many weighs most."""
    df = dict.fromkeys(terms, 0)
    for found in held.values():
        for term in found:
            if term in df:
                df[term] += 1
    return {term: math.log(1.0 + (note_chunks - count + 0.5) / (count + 0.5)) for term, count in df.items()}


def local_score(held: Collection[str], idf: Mapping[str, float]) -> float:
    """The note-local score of a chunk holding `held`: the IDF of each question term it holds, summed."""
    return math.fsum(weight for term, weight in idf.items() if term in held)


def notes_to_order(fused: Sequence[Fused], note_of: Mapping[str, str], leaders: int) -> dict[str, list[int]]:
    """Note → the places (0-based, among the first `leaders`) its chunks hold, for notes holding two or more."""
    places: dict[str, list[int]] = {}
    for place, entry in enumerate(fused[:leaders]):
        path = note_of.get(entry.chunk_id)
        if path is not None:
            places.setdefault(path, []).append(place)
    return {path: held for path, held in places.items() if len(held) > 1}


def reorder_within_notes(
    fused: Sequence[Fused],
    places: Mapping[str, Sequence[int]],
    local: Mapping[str, float],
    weight: float,
    leaders: int,
) -> tuple[list[Fused], list[str]]:
    """The fused order with each note's `places` re-filled by its chunks in order of fused score + `weight` ×
    spread × normalised `local` score (spread: the first `leaders`' highest minus lowest fused score). A place keeps
    its score, so the scores still fall down the list. Returns the order and the chunks that moved up."""
    order = list(fused)
    scores = [entry.score for entry in fused[:leaders]]
    spread = max(scores) - min(scores) if scores else 0.0
    if weight <= 0 or spread <= 0:
        return order, []
    raised: list[str] = []
    for held in places.values():
        values = [local.get(fused[place].chunk_id, 0.0) for place in held]
        low, high = min(values), max(values)
        if not high > low:
            continue
        ranked = sorted(
            held,
            key=lambda place: (
                -(fused[place].score + weight * spread * (local.get(fused[place].chunk_id, 0.0) - low) / (high - low)),
                place,
            ),
        )
        for slot, source in zip(held, ranked, strict=True):
            entry = fused[source]
            order[slot] = Fused(entry.chunk_id, fused[slot].score, entry.ranks)
            if slot < source:
                raised.append(entry.chunk_id)
    return order, raised
