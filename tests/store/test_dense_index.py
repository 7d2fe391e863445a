"""The dense leg's state machine: each transition's resulting state, and the invariants it refuses to break."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from askvault.store.protocol import VectorStore
from askvault.store.vectors.dense_index import DenseIndex, DenseState
from askvault.store.vectors.qdrant_edge import EdgeVectorStore

Step = Callable[[DenseIndex[str], VectorStore], None]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[VectorStore]:
    opened = await EdgeVectorStore.open(tmp_path / "vectors", "chunks", 4)
    yield opened
    await opened.close()


def _building_empty(dense: DenseIndex[str], store: VectorStore) -> None:
    dense.building(None, 0.0)


def _building_part(dense: DenseIndex[str], store: VectorStore) -> None:
    dense.building(store, 0.25)


def _ready(dense: DenseIndex[str], store: VectorStore) -> None:
    dense.ready(store)


def _off(dense: DenseIndex[str], store: VectorStore) -> None:
    dense.off("Ollama is not running")


# (state, has store, problem, coverage, usable) after the steps, from a fresh index.
TRANSITIONS: list[tuple[list[Step], DenseState, bool, str | None, float, bool]] = [
    ([], "off", False, None, 0.0, False),
    ([_building_empty], "building", False, None, 0.0, False),
    ([_building_empty, _building_part], "building", True, None, 0.25, True),
    ([_ready], "ready", True, None, 1.0, True),
    ([_off], "off", False, "Ollama is not running", 0.0, False),
    ([_ready, _off], "off", False, "Ollama is not running", 0.0, False),
    ([_building_part, _off], "off", False, "Ollama is not running", 0.0, False),
    ([_off, _ready], "ready", True, None, 1.0, True),
    ([_off, _building_empty], "building", False, None, 0.0, False),
    ([_ready, _building_empty], "building", False, None, 0.0, False),
    ([_building_part, _ready], "ready", True, None, 1.0, True),
]


@pytest.mark.parametrize(
    ("steps", "state", "has_store", "problem", "coverage", "usable"),
    TRANSITIONS,
    ids=[
        "fresh",
        "building-without-vectors",
        "building-with-some",
        "ready",
        "off",
        "ready-then-off",
        "building-then-off",
        "off-then-ready",
        "off-then-building",
        "ready-then-new-model",
        "building-then-ready",
    ],
)
def test_transitions(
    store: VectorStore,
    steps: list[Step],
    state: DenseState,
    has_store: bool,
    problem: str | None,
    coverage: float,
    usable: bool,
) -> None:
    dense = DenseIndex("embedder")
    for step in steps:
        step(dense, store)
    assert (dense.state, dense.store is store, dense.problem, dense.coverage, dense.usable) == (
        state,
        has_store,
        problem,
        coverage,
        usable,
    )


REFUSED: list[tuple[Step, str]] = [
    (lambda dense, store: dense.building(None, 0.5), "coverage 0"),
    (lambda dense, store: dense.building(store, 0.0), "in \\(0, 1\\]"),
    (lambda dense, store: dense.building(store, 1.5), "in \\(0, 1\\]"),
    (lambda dense, store: dense.off(""), "a sentence"),
    (lambda dense, store: dense.off("  "), "a sentence"),
]


@pytest.mark.parametrize(
    ("step", "message"),
    REFUSED,
    ids=["coverage-without-store", "store-without-coverage", "coverage-above-one", "off-without-why", "off-blank"],
)
def test_refuses_a_broken_invariant(store: VectorStore, step: Step, message: str) -> None:
    dense = DenseIndex("embedder")
    dense.ready(store)
    with pytest.raises(ValueError, match=message):
        step(dense, store)
    assert (dense.state, dense.store is store, dense.coverage) == ("ready", True, 1.0)  # left as it was
