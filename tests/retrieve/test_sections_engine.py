"""The section order on the real engine: of a note's sections, the one holding the question's word that only it
holds in that note takes the note's best place, while which notes rank where stays as the legs and shares left it."""

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

QUESTION = "javascript version"
SCRIPTING = "Scripting/JavaScript.md"
NOTES = {
    # "javascript" is in every section of one note; "version" in many notes, but in only one of its sections. The
    # overview leads both legs (four times the rare word); the changes section answers.
    SCRIPTING: (
        f"# JavaScript\n\n## Overview\n\nJavaScript javascript javascript javascript. {paragraph('intro', 25)}\n\n"
        f"## Changes\n\nJavaScript changed in this version. {paragraph('change', 30)}\n\n"
        f"## Examples\n\nJavaScript examples to copy. {paragraph('example', 30)}\n"
    ),
    **{
        f"Releases/Release {n}.md": f"# Release {n}\n\nThis version fixes things. {paragraph(f'fix{n}x', 30)}\n"
        for n in range(6)
    },
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("sections")
    write_notes(root / "vault", NOTES)
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


def places(result: SearchResult) -> list[tuple[str, tuple[str, ...], float]]:
    return [(hit.chunk.path, hit.chunk.heading_path, hit.fused_score) for hit in result.hits]


async def test_the_section_holding_the_notes_rare_word_takes_the_notes_best_place(engine: Engine) -> None:
    assert engine.config.retrieval.section_weight == 1.5  # on by default
    plain = await tuned_searcher(engine, section_weight=0.0).search(QUESTION, 8)
    assert plain.hits[0].chunk.heading_path == ("JavaScript", "Overview")  # what the legs alone give

    ordered = await tuned_searcher(engine, section_weight=1.5).search(QUESTION, 8)
    first = ordered.hits[0]
    assert first.chunk.heading_path == ("JavaScript", "Changes")
    assert "section" in first.boosts
    # Every place keeps its note and its score; only the note's own sections trade places.
    assert [(path, score) for path, _, score in places(ordered)] == [(path, score) for path, _, score in places(plain)]
    scripting = [trail for path, trail, _ in places(ordered) if path == SCRIPTING]
    assert sorted(scripting) == sorted(trail for path, trail, _ in places(plain) if path == SCRIPTING)
    # The legs' ranks travel with the chunk.
    before = {hit.chunk.id: (hit.dense_rank, hit.keyword_rank) for hit in plain.hits}
    assert {hit.chunk.id: (hit.dense_rank, hit.keyword_rank) for hit in ordered.hits} == before


async def test_a_note_with_one_leader_is_left_alone(engine: Engine) -> None:
    plain = await tuned_searcher(engine, section_weight=0.0).search("fixes things", 3)
    ordered = await tuned_searcher(engine, section_weight=1.5).search("fixes things", 3)
    assert places(ordered) == places(plain)
    assert all("section" not in hit.boosts for hit in ordered.hits)
