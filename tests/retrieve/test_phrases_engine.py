"""The phrase share on the real engine: of two chunks with the same words, the one holding the question's word
pairs side by side ranks first; a question without pairs is ranked as before."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.model import SearchResult
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paragraph, tuned_searcher, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUESTION = "What does the sunday morning job do?"
FILLER = paragraph("chore", 30)
NOTES = {
    # The same words in both (so the same BM25 score and, with the fake embedder's bag of words, the same cosine),
    # in another order: only the first says "sunday morning job".
    "Chores/Weekly one.md": f"# Weekly one\n\nEvery sunday morning job cleans the player cache. {FILLER}\n",
    "Chores/Weekly two.md": f"# Weekly two\n\nEvery morning job cleans the player cache sunday. {FILLER}\n",
    "Garden/Tomatoes.md": f"# Tomatoes\n\nWater the tomato plants during July heat. {paragraph('garden', 30)}\n",
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("phrases")
    write_notes(root / "vault", NOTES)
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


def by_path(result: SearchResult) -> dict[str, tuple[float, int | None, int | None]]:
    return {hit.chunk.path: (hit.fused_score, hit.dense_rank, hit.keyword_rank) for hit in result.hits}


async def test_adjacent_pairs_lift_the_chunk_that_holds_them(engine: Engine) -> None:
    assert engine.config.retrieval.phrase_weight == 0.1  # on by default
    plain = by_path(await tuned_searcher(engine, phrase_weight=0.0).search(QUESTION, 3))
    one, two = plain["Chores/Weekly one.md"], plain["Chores/Weekly two.md"]
    assert one[0] == pytest.approx(two[0])  # the legs cannot tell them apart

    result = await tuned_searcher(engine, phrase_weight=0.1).search(QUESTION, 3)
    assert [hit.chunk.path for hit in result.hits[:2]] == ["Chores/Weekly one.md", "Chores/Weekly two.md"]
    phrased = by_path(result)
    assert phrased["Chores/Weekly one.md"][0] > phrased["Chores/Weekly two.md"][0]
    # Where each leg ranked a chunk is the legs' business: the share leaves it alone.
    assert {path: ranks[1:] for path, ranks in phrased.items()} == {path: ranks[1:] for path, ranks in plain.items()}


async def test_a_question_without_word_pairs_is_ranked_as_before(engine: Engine) -> None:
    plain = await tuned_searcher(engine, phrase_weight=0.0).search("tomato", 3)
    phrased = await tuned_searcher(engine, phrase_weight=0.1).search("tomato", 3)
    assert by_path(phrased) == by_path(plain)
