"""Link graph and neighbours on the real engine: what they move, what they never move, filters and restarts."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.config import RetrievalParams
from askvault.model import SearchFilters, SearchResult
from askvault.retrieve.graph import resolve_graph
from askvault.retrieve.hybrid import HybridSearcher
from askvault.wire.search import hit_to_json
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paragraph, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUERY = "solar inverter panels balcony"


def graph_vault() -> dict[str, str | bytes]:
    notes: dict[str, str | bytes] = {
        "Projects/Solar.md": (
            f"# Solar\n\nThe plan, with help from [[Jonas]]. {paragraph('plan')}\n\n"
            f"## Goals\n\nSolar inverter panels balcony power. {paragraph('goal')}\n\n"
            f"## Equipment\n\nBrackets, cable, a meter. {paragraph('bracket')}\n\n"
            f"## Timeline\n\nOrder in May, mount in June. {paragraph('month')}\n"
        ),
        "People/Jonas.md": "# Jonas\n\nJonas is the neighbour who lends tools and knows wiring.\n",
        "People/Mara.md": "# Mara\n\nMara runs the homelab and the [[Solar]] spreadsheet.\n",
        "Home.md": "# Home\n\nStart here.\n",
    }
    for i in range(8):
        notes[f"Notes/Balcony {i}.md"] = f"# Balcony {i}\n\nBalcony plants number {i}: {paragraph(f'plant{i}', 12)}\n"
    return notes


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("graph")
    write_notes(root / "vault", graph_vault())
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


def searcher(engine: Engine, **changes: object) -> HybridSearcher:
    # The graph signals were measured as RRF lists (and stay off); their tests keep rank fusion.
    changes.setdefault("fusion", "rrf")
    params = dataclasses.replace(RetrievalParams(), **changes)  # type: ignore[arg-type]
    return HybridSearcher(engine.catalog, engine.keywords, engine.dense, params, engine.guard.visible, engine.links)


def places(result: SearchResult) -> list[tuple[str, str]]:
    return [(hit.chunk.path, hit.chunk.id) for hit in result.hits]


async def test_links_are_kept_beside_the_catalog(engine: Engine) -> None:
    links = engine.links.snapshot()
    assert links["Projects/Solar.md"] == ("Jonas",)
    assert links["People/Mara.md"] == ("Solar",)
    graph = resolve_graph(links, engine.catalog.by_note())
    assert graph.hop("Projects/Solar.md") == {"People/Jonas.md", "People/Mara.md"}


async def test_off_by_default_and_nothing_marked(engine: Engine) -> None:
    plain = await searcher(engine, fusion="scores").search(QUERY, 10)
    assert (await engine.searcher.search(QUERY, 10)).hits == plain.hits
    assert all(hit.via is None for hit in plain.hits)
    assert all("via" not in hit_to_json(hit) for hit in plain.hits)


async def test_linked_notes_gain_a_small_marked_bonus(engine: Engine) -> None:
    plain = await searcher(engine).search(QUERY, 20)
    linked = await searcher(engine, link_hops=True).search(QUERY, 20)
    assert plain.hits[0].chunk.path == "Projects/Solar.md"
    marked = {hit.chunk.path for hit in linked.hits if hit.via == "link"}
    # Jonas (no leg found him) and Mara are one hop from Solar; Solar is one hop from Mara, also a top note.
    assert {"People/Jonas.md", "People/Mara.md"} <= marked <= {"People/Jonas.md", "People/Mara.md", "Projects/Solar.md"}
    for hit in linked.hits:
        if hit.via == "link":
            assert hit_to_json(hit)["via"] == "link"
            before = next((h for h in plain.hits if h.chunk.id == hit.chunk.id), None)
            assert before is None or hit.fused_score > before.fused_score
    assert [h.fused_score for h in linked.hits] == sorted((h.fused_score for h in linked.hits), reverse=True)


async def test_linked_candidates_obey_the_filters(engine: Engine) -> None:
    result = await searcher(engine, link_hops=True).search(QUERY, 20, filters=SearchFilters(folder="Projects"))
    assert {hit.chunk.path for hit in result.hits} == {"Projects/Solar.md"}


async def test_neighbours_move_within_the_notes_own_places(engine: Engine) -> None:
    plain = await searcher(engine).search(QUERY, 10)
    nearby = await searcher(engine, neighbours=1).search(QUERY, 10)
    # Every other note keeps exactly its places; only the Solar note's chunks are re-ordered among its own.
    assert [p if p == "Projects/Solar.md" else c for p, c in places(plain)] == [
        p if p == "Projects/Solar.md" else c for p, c in places(nearby)
    ]
    order = engine.catalog.by_note()["Projects/Solar.md"]
    anchor = plain.hits[0].chunk.id
    assert nearby.hits[0].chunk.id == anchor
    moved = [hit for hit in nearby.hits if hit.via == "neighbour"]
    assert moved
    for hit in moved:
        assert hit.chunk.path == "Projects/Solar.md"
        assert abs(order.index(hit.chunk.id) - order.index(anchor)) <= 1 or hit.chunk.id in {
            h.chunk.id for h in plain.hits[:3]
        }


async def test_a_fresh_engine_serves_the_stored_links(tmp_path: Path, module_ollama: RunningOllama) -> None:
    write_notes(tmp_path / "vault", {"a.md": "# A\n\nSee [[b]].\n", "b.md": "# B\n\nBack to [[a]].\n"})
    config = engine_config(tmp_path / "vault", tmp_path / "data", module_ollama.url)
    async with open_engine(config, sync_vectors=False) as first:
        await first.indexer.run()
    async with open_engine(config, sync_vectors=False) as second:  # load(): manifest → catalog and links
        assert dict(second.links.snapshot()) == {"a.md": ("b",), "b.md": ("a",)}
