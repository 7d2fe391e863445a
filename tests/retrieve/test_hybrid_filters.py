"""Folder, tag and date filters on the real engine: applied inside both legs, so a filtered search still fills k."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.config import RetrievalParams
from askvault.model import SearchFilters, SearchMode
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paragraph, paths, set_mtime, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

WORK_TIME, HOME_TIME = 1_710_000_000.0, 1_590_000_000.0
LEG_K = 5
"""Each leg returns at most this many: the strong Work notes alone would fill both legs without filters."""
HOME_NOTES = 7
QUERY = "backup schedule"


def filter_vault(root: Path) -> None:
    notes: dict[str, str | bytes] = {}
    for i in range(8):
        notes[f"Work/Backup{i}.md"] = (
            f"# Backup schedule {i}\n\n#work\n\nThe backup schedule of server {i}: backup schedule nightly, "
            "backup schedule weekly, backup schedule monthly.\n"
        )
    for i in range(HOME_NOTES):
        notes[f"Home/Photos{i}.md"] = (
            f"# Photos {i}\n\n#home\n\nAlbum {i} from the summer trip to the coast with the kids, the dog, "
            f"the old car and far too many sunsets; remember a backup someday. {paragraph(f'album{i}', 12)}\n"
        )
    write_notes(root, notes)
    for rel in notes:
        set_mtime(root / rel, WORK_TIME if rel.startswith("Work/") else HOME_TIME)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("filters")
    filter_vault(root / "vault")
    retrieval = RetrievalParams(dense_k=LEG_K, keyword_k=LEG_K)
    async with indexed_engine(
        engine_config(root / "vault", root / "data", module_ollama.url, retrieval=retrieval)
    ) as e:
        yield e


@pytest.mark.parametrize("mode", ["keyword", "dense", "hybrid"])
async def test_without_filters_the_work_notes_fill_every_leg(engine: Engine, mode: SearchMode) -> None:
    result = await engine.searcher.search(QUERY, LEG_K, mode)

    assert {path.split("/")[0] for path in paths(result)} == {"Work"}  # filtering afterwards would leave nothing


FILTERS = [
    pytest.param(SearchFilters(folder="Home"), id="folder"),
    pytest.param(SearchFilters(folder="Home/"), id="folder-slash"),
    pytest.param(SearchFilters(tag="home"), id="tag"),
    pytest.param(SearchFilters(tag="#Home"), id="tag-hash-case"),
    pytest.param(SearchFilters(modified_after=HOME_TIME - 10, modified_before=HOME_TIME + 10), id="date-range"),
    pytest.param(SearchFilters(modified_before=HOME_TIME + 10), id="date-before"),
]


@pytest.mark.parametrize("filters", FILTERS)
@pytest.mark.parametrize("mode", ["hybrid", "keyword", "dense"])
async def test_filters_apply_inside_each_leg(engine: Engine, filters: SearchFilters, mode: SearchMode) -> None:
    result = await engine.searcher.search(QUERY, LEG_K, mode, filters)

    assert len(result.hits) == LEG_K
    assert all(path.startswith("Home/") for path in paths(result))
    if mode != "dense":
        assert result.counts["keyword"] == HOME_NOTES
        assert len([hit for hit in result.hits if hit.keyword_rank is not None]) >= min(LEG_K, 3)
    if mode != "keyword":
        assert result.counts["dense"] == LEG_K
    if mode == "keyword":
        assert all(hit.keyword_rank is not None for hit in result.hits)
    if mode == "dense":
        assert all(hit.dense_rank is not None for hit in result.hits)


async def test_a_filter_nothing_matches_returns_nothing(engine: Engine) -> None:
    result = await engine.searcher.search(QUERY, LEG_K, "hybrid", SearchFilters(folder="Nope"))

    assert result.hits == []
    assert result.counts == {"dense": 0, "keyword": 0}


async def test_a_folder_filter_is_a_folder_not_a_name_prefix(engine: Engine) -> None:
    result = await engine.searcher.search(QUERY, LEG_K, "hybrid", SearchFilters(folder="Hom"))

    assert result.hits == []
