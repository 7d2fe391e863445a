"""Passages that say nothing rank below those that do: a fused score weighed by the chunk's own share (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askvault.model import ChunkInfo
from askvault.retrieve.fusion import Fused

LOW_INFORMATION = 50
"""A chunk with less of its own prose than this (percent) is a footer, a template, a query or a link list; one with
more is prose that cites a link or two, and keeps its score (the eval's losses to a penalty on every share, in
eval/README.md, "Passages that say nothing")."""
NOISE_LABEL = "boilerplate"
"""The boost label of a hit whose score its template, link or query lines lowered (the inspector shows it)."""


def weigh_noise(
    fused: Sequence[Fused], chunks: Mapping[str, ChunkInfo], penalty: float
) -> tuple[list[Fused], list[str]]:
    """For a chunk that is mostly template, links or query (under `LOW_INFORMATION` percent of its own prose), the
    fused score times 1 − penalty · excess, the excess rising from 0 at that line to 1 for a chunk of nothing but
    noise; best first, ties in the given order. A link list or a footer drops below an informative chunk the legs
    scored within `penalty` of it, and stays where it was when nothing close says more (a MOC asked for by name
    still comes first). A daily note's log inside its template loses little, and no chunk's score jumps when its
    share crosses the line. Every other chunk keeps its score, so the relevance decision reads them as before.
    Returns the ranking and the chunks whose score it lowered, in the given order."""
    if penalty <= 0:
        return list(fused), []
    keyed: list[tuple[float, int, Fused]] = []
    lowered: list[str] = []
    for place, entry in enumerate(fused):
        chunk = chunks.get(entry.chunk_id)
        noisy = 0 if chunk is None else 100 - chunk.noise.informative
        if noisy > 100 - LOW_INFORMATION:
            excess = (noisy - (100 - LOW_INFORMATION)) / LOW_INFORMATION
            entry = Fused(entry.chunk_id, entry.score * (1.0 - penalty * excess), entry.ranks)
            lowered.append(entry.chunk_id)
        keyed.append((-entry.score, place, entry))
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [item[2] for item in keyed], lowered
