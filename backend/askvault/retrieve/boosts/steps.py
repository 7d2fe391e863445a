"""The boosts after score fusion, in the order they run: a new boost is one module and one line in `STEPS`."""

from __future__ import annotations

from collections.abc import Sequence

from askvault.retrieve.boosts.exact_identifiers import ExactIdentifiers
from askvault.retrieve.boosts.mention_places import MentionPlaces
from askvault.retrieve.boosts.noise_penalty import NoisePenalty
from askvault.retrieve.boosts.section_order import SectionOrder
from askvault.retrieve.boosts.step import Boost, SearchContext
from askvault.retrieve.boosts.word_pairs import WordPairs
from askvault.retrieve.fusion import Fused

STEPS: tuple[Boost, ...] = (
    ExactIdentifiers(),
    WordPairs(),
    SectionOrder(),
    # Before the mentions: a note named in the question keeps its place even when it is a link list.
    NoisePenalty(),
    MentionPlaces(),
)


def apply_boosts(
    ctx: SearchContext, ranking: list[Fused], steps: Sequence[Boost] = STEPS
) -> tuple[list[Fused], dict[str, tuple[str, ...]]]:
    """Each enabled step applied to the ranking the one before it left, and each chunk's labels: those of every
    step that labelled it, in the order the steps ran."""
    labels: dict[str, tuple[str, ...]] = {}
    for step in steps:
        if not step.enabled(ctx.params, ctx.mode):
            continue
        result = step.apply(ctx, ranking)
        ranking = result.ranking
        for chunk_id, found in result.labels.items():
            labels[chunk_id] = labels.get(chunk_id, ()) + found
    return ranking, labels
