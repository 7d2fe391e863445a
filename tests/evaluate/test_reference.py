"""The reference modes on the real engine (Qdrant edge in a temp dir, fake Ollama): lines, legs, fusion, laziness."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from askvault.evaluate.modes import EvalMode, ModeRegistry
from askvault.evaluate.reference import EMBED_BATCH, reference_modes
from askvault.evaluate.reference_chunks import rrf
from askvault.model import Hit
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import embedded_texts, engine_config, write_notes

POSTGRES = (
    "---\naliases: [pg]\n---\n"  # lines 1-3
    "# Postgres\n\nThe database of the homelab.\n\n"  # 4-7
    "## Ports\n\nThe container pg-main listens on\nport 5433 for clients.\n\n"  # 8-12
    "## Backups\n\nRestic snapshots run nightly at 02:00.\n"  # 13-15
)
NOTES = {
    "Services/Postgres.md": POSTGRES,
    "Garden/Tomatoes.md": "# Tomatoes\n\nWater the tomato plants every morning during July heat.\n",
    "Kitchen/Sourdough.md": "# Sourdough\n\nFeed the starter with rye flour twice daily.\n",
    "Kitchen/Pancakes.md": "# Pancakes\n\nWhisk eggs, milk and flour; rest the batter ten minutes.\n",
    # Many sections, so the chunk vectors take more than one embedding batch.
    "Log.md": "\n".join(f"## Day {i}\n\nLogged entry number {i} about the garden.\n" for i in range(70)),
    # Not indexed by the product, so the reference must never rank it either.
    "Private/Secret.md": "# Secret\n\nThe container pg-main listens on port 5433 with the secret password.\n",
}
CHUNKS = 1 + 2 + 1 + 1 + 1 + 70  # Postgres intro, Ports, Backups; one per small note; one per Log day


@pytest.fixture
async def engine(tmp_path: Path, fake_ollama: RunningOllama) -> AsyncIterator[Engine]:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config = engine_config(vault, tmp_path / "data", fake_ollama.url, exclude=("Private/",))
    async with open_engine(config, sync_vectors=False) as opened:
        report = await opened.indexer.run()
        assert report.dense == "ready"
        fake_ollama.fake.requests.clear()
        yield opened


def modes(engine: Engine) -> ModeRegistry:
    listed = reference_modes(engine.config.vault.root, lambda: engine.manifest.note_stats().keys(), engine.embedder)
    return ModeRegistry(listed)


def mode(engine: Engine, name: str) -> EvalMode:
    (found,) = modes(engine).select([name])
    return found


def disk_lines(engine: Engine, hit: Hit) -> str:
    lines = (engine.config.vault.root / hit.chunk.path).read_text(encoding="utf-8").split("\n")
    return "\n".join(lines[hit.chunk.start_line - 1 : hit.chunk.end_line])


def test_the_three_modes_and_what_they_need(engine: Engine) -> None:
    listed = modes(engine).select(["reference", "reference-dense", "reference-keyword"])
    assert [(m.name, m.needs_dense) for m in listed] == [
        ("reference", True),
        ("reference-dense", True),
        ("reference-keyword", False),
    ]


async def test_a_keyword_query_finds_the_chunk_with_its_file_lines(engine: Engine, fake_ollama: RunningOllama) -> None:
    hits = await mode(engine, "reference-keyword").retrieve("Which port does the pg-main container listen on?", 5)
    top = hits[0]
    assert top.chunk.path == "Services/Postgres.md"
    assert top.chunk.heading_path == ("Postgres", "Ports")
    # Frontmatter lines count: the chunk is lines 10-11 of the file, the two lines after "## Ports" and a blank.
    assert (top.chunk.start_line, top.chunk.end_line) == (10, 11)
    assert disk_lines(engine, top) == top.chunk.text == "The container pg-main listens on\nport 5433 for clients."
    assert top.chunk.index_text == f"Postgres > Postgres > Ports\n{top.chunk.text}"
    assert top.chunk.title == "Postgres"
    assert (top.keyword_rank, top.dense_rank, top.dense_score) == (1, None, None)
    assert top.keyword_score is not None
    assert top.keyword_score > 0
    assert all(h.chunk.path != "Private/Secret.md" for h in hits)
    assert all(disk_lines(engine, h) == h.chunk.text for h in hits)
    # The keyword leg alone never calls the embedding model.
    assert fake_ollama.fake.calls("/api/embed") == []


async def test_keyword_leg_drops_what_matches_nothing(engine: Engine) -> None:
    assert await mode(engine, "reference-keyword").retrieve("zeppelin xylophone", 10) == []
    assert await mode(engine, "reference-keyword").retrieve("the of and", 10) == []


async def test_dense_vectors_are_made_once_in_batches_with_the_document_prefix(
    engine: Engine, fake_ollama: RunningOllama
) -> None:
    dense = mode(engine, "reference-dense")
    hits = await dense.retrieve("rye flour for the sourdough starter", 3)
    assert hits[0].chunk.path == "Kitchen/Sourdough.md"
    assert [h.dense_rank for h in hits] == [1, 2, 3]
    scores = [h.dense_score if h.dense_score is not None else -2.0 for h in hits]
    assert all(-1.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True)
    assert all(h.keyword_rank is None and h.keyword_score is None for h in hits)

    documents = embedded_texts(fake_ollama.fake)
    assert len(documents) == CHUNKS
    assert all(text.startswith("search_document: ") for text in documents)
    assert "search_document: Postgres > Postgres > Ports\nThe container pg-main listens on" in "".join(documents)
    assert all(len(body["input"]) <= EMBED_BATCH for body in fake_ollama.fake.calls("/api/embed"))

    fake_ollama.fake.requests.clear()
    await dense.retrieve("tomato plants", 3)
    # Kept for the run: only the question is embedded the second time.
    assert embedded_texts(fake_ollama.fake) == []
    assert len(fake_ollama.fake.calls("/api/embed")) == 1
    stats = dense.stats() if dense.stats is not None else {}
    assert stats["chunks"] == CHUNKS
    assert stats["notes"] == len(NOTES) - 1


async def test_the_modes_share_one_index(engine: Engine, fake_ollama: RunningOllama) -> None:
    registry = modes(engine)
    await registry.select(["reference-dense"])[0].retrieve("garden", 3)
    fake_ollama.fake.requests.clear()
    await registry.select(["reference"])[0].retrieve("garden", 3)
    assert embedded_texts(fake_ollama.fake) == []


def ids(hits: Sequence[Hit]) -> list[str]:
    return [h.chunk.id for h in hits]


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("Which port does the pg-main container listen on?", id="keyword-and-dense"),
        pytest.param("restic snapshots of the garden", id="legs-disagree"),
        pytest.param("zeppelin", id="dense-only"),
    ],
)
async def test_reference_is_rrf_of_its_two_legs(engine: Engine, question: str) -> None:
    registry = modes(engine)
    dense = await registry.select(["reference-dense"])[0].retrieve(question, 50)
    keyword = await registry.select(["reference-keyword"])[0].retrieve(question, 50)
    fused = await registry.select(["reference"])[0].retrieve(question, 10)

    position = {chunk_id: i for i, chunk_id in enumerate(dict.fromkeys(ids(dense) + ids(keyword)))}
    expected = rrf([position[i] for i in ids(dense)], [position[i] for i in ids(keyword)])
    # Exact ties may fall either way between the two orders (chunk order there, first appearance here).
    assert [h.fused_score for h in fused] == pytest.approx([f.score for f in expected[:10]])
    dense_rank = {chunk_id: rank for rank, chunk_id in enumerate(ids(dense), 1)}
    keyword_rank = {chunk_id: rank for rank, chunk_id in enumerate(ids(keyword), 1)}
    for hit in fused:
        assert hit.dense_rank == dense_rank.get(hit.chunk.id)
        assert hit.keyword_rank == keyword_rank.get(hit.chunk.id)
        ranks = (hit.dense_rank, hit.keyword_rank)
        assert hit.fused_score == pytest.approx(sum(1 / (60 + r) for r in ranks if r is not None))


async def test_chunk_vectors_are_kept_between_runs(engine: Engine, fake_ollama: RunningOllama, tmp_path: Path) -> None:
    """A second run over the same notes embeds nothing again; the ranking is the same."""

    def cached_mode() -> EvalMode:
        notes = engine.manifest.note_stats
        listed = reference_modes(engine.config.vault.root, lambda: notes().keys(), engine.embedder, tmp_path / "cache")
        (found,) = ModeRegistry(listed).select(["reference-dense"])
        return found

    first = await cached_mode().retrieve("Which port does the pg-main container listen on?", 5)
    assert len(embedded_texts(fake_ollama.fake)) == CHUNKS
    fake_ollama.fake.requests.clear()
    second = await cached_mode().retrieve("Which port does the pg-main container listen on?", 5)
    assert embedded_texts(fake_ollama.fake) == []
    assert [h.chunk.id for h in second] == [h.chunk.id for h in first]
