"""The noise penalty: a chunk that is mostly template, links or query loses part of its fused score."""

from __future__ import annotations

from askvault.config import RetrievalParams
from askvault.model import SearchMode
from askvault.retrieve.boosts.step import BoostResult, SearchContext, labels_of
from askvault.retrieve.fusion import Fused
from askvault.retrieve.informative import NOISE_LABEL, weigh_noise


class NoisePenalty:
    """`noise_penalty` (`RetrievalParams`; 0: off): `retrieve.informative.weigh_noise` over the whole ranking.
    Labels each chunk it lowered `boilerplate` (`NOISE_LABEL`, which the explanation of a hit reads)."""

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool:
        return mode == "hybrid" and params.noise_penalty > 0

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult:
        weighed, lowered = weigh_noise(ranking, ctx.chunks, ctx.params.noise_penalty)
        return BoostResult(weighed, labels_of((chunk_id, NOISE_LABEL) for chunk_id in lowered))
