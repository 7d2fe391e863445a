"""The search body of `POST /api/search` and `askvault search`: hits, each leg's raw score, the relevance decision."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from askvault.ask.relevance import Calibration, decide, relevance_signals
from askvault.model import SearchMode, SearchResult
from askvault.wire.events import relevance_to_json, rounded
from askvault.wire.search import search_result_to_json


@dataclass(frozen=True, slots=True)
class SearchRelevance:
    """What the relevance decision needs: the embedder's calibration and how many hits `ask` reads (its top_k)."""

    calibration: Calibration
    judged: int

    def fetch(self, k: int, mode: SearchMode) -> int:
        """How many hits to search for so that the decision reads the hits `ask` would, whatever `k` shows."""
        return max(k, self.judged) if mode == "hybrid" else k


def search_body(result: SearchResult, k: int, mode: SearchMode, judge: SearchRelevance | None) -> dict[str, object]:
    """The first `k` hits as `POST /api/search` shapes them, each with `dense_score` (cosine) and `keyword_score`
    (BM25), and `relevance`: the decision `ask` would make on the first `judged` hits (its top_k), so search and
    ask agree on whether the notes cover a question. The decision is calibrated on hybrid searches only, so it is
    null for the dense and keyword modes (and when `judge` is None).

    The fused score is min-max normalised per query (the best hit scores 1 however poor it is); these raw scores
    and the decision are what a reader can judge a result by."""
    shown = dataclasses.replace(result, hits=result.hits[:k])
    body = dict(search_result_to_json(shown))
    items = body.get("results")
    for item, hit in zip(items if isinstance(items, list) else [], shown.hits, strict=False):
        if isinstance(item, dict):
            item["dense_score"] = rounded(hit.dense_score)
            item["keyword_score"] = rounded(hit.keyword_score)
    relevance = None
    if mode == "hybrid" and judge is not None:
        judged_result = dataclasses.replace(result, hits=result.hits[: judge.judged])
        relevance = relevance_to_json(decide(relevance_signals(judged_result), judge.calibration))
    body["relevance"] = relevance
    return body
