"""Retrieval modes the evaluation can run: a registry of name → async retrieve(question, k) → ranked hits."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

from askvault.ask.relevance import RelevanceSignals, relevance_signals
from askvault.ask.rerank import Reranker
from askvault.errors import ConfigError, ModelError
from askvault.evaluate.metrics import JsonValue
from askvault.model import Hit, SearchMode, SearchResult
from askvault.retrieve.protocol import Searcher

Retrieve = Callable[[str, int], Awaitable[Sequence[Hit]]]
"""Ranks chunks for one question: (question, how many hits at most) → hits, best first."""

BUILTIN_MODES: tuple[SearchMode, ...] = ("dense", "keyword", "hybrid")
RERANK_MODE = "rerank"


@dataclass(frozen=True, slots=True)
class EvalMode:
    """One way of ranking chunks, as the evaluation sees it."""

    name: str
    retrieve: Retrieve
    needs_dense: bool = True
    """True when the figures are meaningless without the embedding model (the run refuses to start then)."""
    stats: Callable[[], dict[str, JsonValue]] | None = None
    """Figures the mode gathered over the run (the reranker's outcomes), put in the report's metadata."""
    relevance: Callable[[], RelevanceSignals | None] | None = None
    """The relevance signals of the mode's last search, as the answer pipeline would see them (hybrid only), so
    the run can report and calibrate the "not in your notes" decision."""


class ModeRegistry:
    """Mode names to modes, in registration order. Later work (a reranker…) adds a mode; the runner is unchanged."""

    def __init__(self, modes: Iterable[EvalMode] = ()) -> None:
        self._modes: dict[str, EvalMode] = {}
        for mode in modes:
            self.add(mode)

    def add(self, mode: EvalMode) -> None:
        if not mode.name or "," in mode.name or mode.name != mode.name.strip():
            raise ValueError(f"a mode name must be non-empty, without commas or outer spaces: {mode.name!r}")
        if mode.name in self._modes:
            raise ValueError(f"mode {mode.name!r} is registered twice")
        self._modes[mode.name] = mode

    def names(self) -> tuple[str, ...]:
        return tuple(self._modes)

    def select(self, names: Sequence[str]) -> list[EvalMode]:
        """The named modes in the order given; ConfigError lists every unknown name and the known ones."""
        unknown = [name for name in names if name not in self._modes]
        if unknown:
            raise ConfigError(
                f"--modes: unknown mode(s) {', '.join(repr(n) for n in unknown)}; known: {', '.join(self.names())}"
            )
        return [self._modes[name] for name in names]


async def _search_result(searcher: Searcher, question: str, k: int, mode: SearchMode) -> SearchResult:
    result = await searcher.search(question, k, mode)
    if mode == "hybrid" and not result.dense_available:
        # Hybrid quietly falls back to keywords for users; for a measurement that would be a lie.
        raise ModelError("the embedding model stopped answering during the run; hybrid figures would be keyword-only")
    return result


async def _search(searcher: Searcher, question: str, k: int, mode: SearchMode) -> Sequence[Hit]:
    return (await _search_result(searcher, question, k, mode)).hits


def _searcher_mode(searcher: Searcher, mode: SearchMode, answer_k: int) -> EvalMode:
    last: list[RelevanceSignals] = []

    async def retrieve(question: str, k: int) -> Sequence[Hit]:
        result = await _search_result(searcher, question, max(k, answer_k), mode)
        if mode == "hybrid":
            # The pipeline decides on the `answer_k` hits it fetched for an answer; the signals here do the same.
            last[:] = [relevance_signals(dataclasses.replace(result, hits=result.hits[:answer_k]))]
        return result.hits[:k]

    def relevance() -> RelevanceSignals | None:
        return last[0] if last else None

    return EvalMode(
        name=mode, retrieve=retrieve, needs_dense=mode != "keyword", relevance=relevance if mode == "hybrid" else None
    )


def searcher_modes(searcher: Searcher, answer_k: int = 8) -> ModeRegistry:
    """The three built-in modes, each a `Searcher` mode of the same name; `answer_k` is how many hits the answer
    pipeline fetches (`retrieval.top_k`), which the hybrid mode's relevance signals are computed on."""
    return ModeRegistry(_searcher_mode(searcher, mode, answer_k) for mode in BUILTIN_MODES)


def rerank_mode(searcher: Searcher, reranker: Reranker, candidates: int) -> EvalMode:
    """Hybrid search, then the reranker over its top `candidates`, as the answer pipeline does when reranking
    is on (whatever `retrieval.rerank` says: naming the mode asks for it). A fallback keeps the fused order and
    is counted: `stats()` gives how often the model's order was used, why it was not, and its time."""
    outcomes: Counter[str] = Counter()
    changed: list[bool] = []
    seconds: list[float] = []

    async def retrieve(question: str, k: int) -> Sequence[Hit]:
        hits = await _search(searcher, question, max(k, candidates), "hybrid")
        reranked = await reranker.rerank(question, hits)
        report = reranked.report
        outcomes["applied" if report.applied else f"fallback:{report.fallback_reason}"] += 1
        if report.applied:
            changed.append(report.order_changed)
        seconds.append(report.ms / 1000.0)
        return reranked.hits[:k]

    def stats() -> dict[str, JsonValue]:
        return {
            "model": reranker.model,
            "candidates": candidates,
            "outcomes": dict(sorted(outcomes.items())),
            "order_changed": sum(changed),
            "rerank_seconds_mean": round(sum(seconds) / len(seconds), 3) if seconds else None,
            "rerank_seconds_max": round(max(seconds), 3) if seconds else None,
        }

    return EvalMode(name=RERANK_MODE, retrieve=retrieve, needs_dense=True, stats=stats)
