"""Neighbour candidates: the chunks next to a top hit in its note, placed right after it, within that note's places."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from askvault.model import Chunk
from askvault.retrieve.fusion import Fused


def _offsets(span: int) -> list[int]:
    # The following chunk first: the answer is more often in the next paragraph than in the previous one.
    return [step for distance in range(1, span + 1) for step in (distance, -distance)]


def add_neighbours(
    ranking: Sequence[Fused],
    chunks: Mapping[str, Chunk],
    by_note: Mapping[str, Sequence[str]],
    anchors: int,
    span: int,
    allow: Callable[[Chunk], bool] | None = None,
) -> list[Fused]:
    """`ranking` with the neighbours of its first `anchors` chunks moved up, never at another note's expense.

    Each anchor's neighbours (up to `span` chunks either side in its note, the following one first) are
    scored just below the anchor, so they come right after it, before anything the anchor beat; an anchor
    ranked above keeps its place. Then every note keeps exactly the places it held: its chunks are re-ordered
    within them, and a neighbour no leg found takes the place of the note's lowest chunk, which goes to the
    end of the ranking (a neighbour left without a place is dropped). Other notes never move, so no note is
    pushed out of any top k. A moved-up chunk takes the fused score of the place it fills (scores stay in
    order) and is marked `via="neighbour"`.
    """
    if anchors < 1 or span < 1 or not ranking:
        return list(ranking)
    position = {fused.chunk_id: n for n, fused in enumerate(ranking)}
    by_id = {fused.chunk_id: fused for fused in ranking}
    tops = [f.chunk_id for f in ranking[:anchors] if f.chunk_id in chunks]
    # Sort keys: (place of the anchor it follows, 1, pull order) puts a neighbour right after its anchor.
    key: dict[str, tuple[int, int, int]] = {fused.chunk_id: (n, 0, 0) for n, fused in enumerate(ranking)}
    pulled: set[str] = set()
    pulls = 0
    for anchor in tops:
        place = position[anchor]
        order = list(by_note.get(chunks[anchor].path, ()))
        if anchor not in order:
            continue
        index = order.index(anchor)
        for step in _offsets(span):
            at = index + step
            if not 0 <= at < len(order):
                continue
            neighbour = order[at]
            chunk = chunks.get(neighbour)
            if neighbour in pulled or chunk is None or position.get(neighbour, len(ranking)) < place:
                continue  # already placed by a stronger anchor, gone, or ranked above this anchor anyway
            if allow is not None and not allow(chunk):
                continue
            pulled.add(neighbour)
            pulls += 1
            key[neighbour] = (place, 1, pulls)
    if not pulled:
        return list(ranking)

    def note_of(chunk_id: str) -> str | None:
        chunk = chunks.get(chunk_id)
        return chunk.path if chunk is not None else None

    sequence: dict[str, list[str]] = {}
    for chunk_id in sorted(key, key=key.__getitem__):
        note = note_of(chunk_id)
        if note is not None:
            sequence.setdefault(note, []).append(chunk_id)
    out: list[Fused] = []
    used: dict[str, int] = {}
    for fused in ranking:
        note = note_of(fused.chunk_id)
        if note is None:
            out.append(fused)  # a chunk the catalog no longer has: its place is untouched (the caller skips it)
            continue
        n = used.get(note, 0)
        used[note] = n + 1
        chosen = sequence[note][n]
        out.append(_placed(by_id.get(chosen), chosen, fused.score, position.get(chosen, len(ranking)) > len(out)))
    for note, members in sequence.items():
        # Pushed out of the note's places: what a leg found goes to the end; a neighbour no leg found is dropped.
        out.extend(by_id[chosen] for chosen in members[used.get(note, 0) :] if chosen in by_id)
    return out


def _placed(old: Fused | None, chunk_id: str, score: float, moved_up: bool) -> Fused:
    if old is None:
        return Fused(chunk_id, score, {}, "neighbour")
    if old.score == score:
        return old
    return Fused(chunk_id, score, old.ranks, "neighbour" if moved_up else old.via)
