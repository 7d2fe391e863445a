"""The boosts as uniform steps: their order, their switches, and how their labels merge (no engine)."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from askvault.config import RetrievalParams
from askvault.model import ChunkInfo, SearchFilters, SearchMode, noise_of
from askvault.query.analyse import AnalysedQuery
from askvault.retrieve.boosts.exact_identifiers import ExactIdentifiers
from askvault.retrieve.boosts.mention_places import MentionPlaces
from askvault.retrieve.boosts.noise_penalty import NoisePenalty
from askvault.retrieve.boosts.section_order import SectionOrder
from askvault.retrieve.boosts.step import Boost, BoostResult, NoteNamesCache, SearchContext, labels_of
from askvault.retrieve.boosts.steps import STEPS, apply_boosts
from askvault.retrieve.boosts.word_pairs import WordPairs
from askvault.retrieve.fusion import Fused
from askvault.retrieve.hit_texts import HitTexts
from askvault.retrieve.informative import NOISE_LABEL
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.protocol import KeywordIndex

SWITCHES: dict[type, str] = {
    ExactIdentifiers: "identifier_weight",
    WordPairs: "phrase_weight",
    SectionOrder: "section_weight",
    NoisePenalty: "noise_penalty",
    MentionPlaces: "mention_top",
}


def chunk(cid: str, links: int = 0) -> ChunkInfo:
    return ChunkInfo(cid, f"{cid}.md", cid, (), 1, 1, noise=noise_of(0, links, 0))


def context(
    chunks: dict[str, ChunkInfo], params: RetrievalParams | None = None, mode: SearchMode = "hybrid"
) -> SearchContext:
    """A context for steps that read neither the catalog nor the keyword index."""
    query = AnalysedQuery("q", ("q",), None, (), (), None)
    catalog = cast(ChunkCatalog, None)
    return SearchContext(
        query,
        mode,
        SearchFilters(),
        3,
        {"keyword": 1.0, "dense": 1.0},
        chunks,
        catalog,
        cast(KeywordIndex, None),
        params or RetrievalParams(),
        HitTexts(catalog, chunks),
        NoteNamesCache(),
    )


class Labeller:
    """A step that keeps the ranking and labels the given chunks."""

    def __init__(self, *pairs: tuple[str, str]) -> None:
        self.pairs = pairs
        self.applied = 0

    def enabled(self, params: RetrievalParams, mode: SearchMode) -> bool:
        return mode == "hybrid"

    def apply(self, ctx: SearchContext, ranking: list[Fused]) -> BoostResult:
        self.applied += 1
        return BoostResult(list(reversed(ranking)), labels_of(self.pairs))


def test_the_steps_run_in_the_order_the_search_has_always_applied_them() -> None:
    assert [type(step) for step in STEPS] == list(SWITCHES)


@pytest.mark.parametrize("step", STEPS, ids=lambda step: type(step).__name__)
def test_each_step_runs_in_hybrid_mode_with_its_own_switch_on(step: Boost) -> None:
    on = RetrievalParams()
    switch: dict[str, Any] = {SWITCHES[type(step)]: 0}
    off = dataclasses.replace(on, **switch)
    assert step.enabled(on, "hybrid")
    assert not step.enabled(off, "hybrid")
    assert not any(step.enabled(on, mode) for mode in ("dense", "keyword"))


def test_labels_keep_the_order_of_the_steps_and_within_a_step_their_own() -> None:
    first, second = Labeller(("a", "x"), ("b", "y"), ("a", "z")), Labeller(("a", "w"))
    ranking = [Fused("a", 1.0, {}), Fused("b", 0.5, {})]
    out, labels = apply_boosts(context({}), ranking, (first, second))
    assert [f.chunk_id for f in out] == ["a", "b"]  # reversed twice: each step got the one before's ranking
    assert labels == {"a": ("x", "z", "w"), "b": ("y",)}


def test_a_disabled_step_is_not_applied() -> None:
    step = Labeller(("a", "x"))
    ranking = [Fused("a", 1.0, {})]
    assert apply_boosts(context({}, mode="keyword"), ranking, (step,)) == (ranking, {})
    assert step.applied == 0


def test_the_noise_penalty_labels_what_it_lowered() -> None:
    chunks = {c.id: c for c in (chunk("links", links=100), chunk("prose"))}
    ranking = [Fused("links", 1.0, {}), Fused("prose", 0.9, {})]
    result = NoisePenalty().apply(context(chunks), ranking)
    assert [f.chunk_id for f in result.ranking] == ["prose", "links"]
    assert result.labels == {"links": (NOISE_LABEL,)}


def test_note_names_are_built_once_per_snapshot() -> None:
    cache = NoteNamesCache()
    snapshot = {"a": chunk("a")}
    names = cache.get(snapshot)
    assert cache.get(snapshot) is names
    assert names.titles == {"a.md": "a"}
    assert cache.get(dict(snapshot)) is not names
