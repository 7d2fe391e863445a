"""Related notes on the real engine (qdrant-edge, BM25, privacy guard) with the fake Ollama's embeddings."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.config import Config
from askvault.errors import BadRequest, NotFound
from askvault.retrieve.note_paths import not_found_message
from askvault.retrieve.related import RelatedResult
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

KODI = "Homelab/Kodi.md"
JELLYFIN = "Homelab/Jellyfin.md"
SECRET = "Private/Media diary.md"
TWIN_TEXT = "---\ntitle: Twin\n---\n# Twin\n\nSourdough starter feeding schedule, rye flour and a warm kitchen.\n"


def related_vault() -> dict[str, str | bytes]:
    return {
        KODI: (
            "# Kodi\n\n## Library\n\nKodi scans the movie library on the NAS every night, refreshes thumbnails and "
            "artwork, and cleans the library of missing movie files before the family starts watching.\n\n"
            "## Remote\n\nThe Kore remote app on the phone pairs with Kodi over the LAN, and a cheap infrared "
            "remote works through the CEC adapter behind the television set.\n"
        ),
        JELLYFIN: (
            "# Jellyfin\n\n## Clients\n\nPhones, tablets and the TV stick stream from Jellyfin over the LAN; the web "
            "client works in any browser and transcodes video when the bandwidth is low.\n\n"
            "## Media library\n\nJellyfin scans the same movie library on the NAS every night, refreshes thumbnails "
            "and artwork, and cleans missing movie files from the library.\n"
        ),
        SECRET: (
            "# Media diary\n\nEvery night the movie library on the NAS gets a scan: thumbnails and artwork refresh, "
            "and missing movie files are cleaned from the library, so Kodi starts clean.\n"
        ),
        "Homelab/Postgres.md": (
            "# Postgres\n\nThe database container listens on port 5433 behind the proxy; backups are dumped "
            "with pg_dump every night and kept for thirty days on the second disk.\n"
        ),
        "Travel/Lisbon.md": (
            "# Lisbon\n\nFerries cross the river every hour, tram 28 climbs to the castle, and the port wine "
            "cellars across the water offer tastings in the afternoon.\n"
        ),
        "Cooking/Twin A.md": TWIN_TEXT,
        "Cooking/Twin B.md": TWIN_TEXT,
        "Cooking/Bread.md": "# Bread\n\nA sourdough starter needs rye flour, feeding and a warm kitchen shelf.\n",
    }


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def config(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> Config:
    """The vault indexed once, with no exclusions: later rules apply at answer time only."""
    root: Path = tmp_path_factory.mktemp("related")
    write_notes(root / "vault", related_vault())
    indexed = engine_config(root / "vault", root / "data", module_ollama.url)
    await index_once(indexed)
    return indexed


@contextlib.asynccontextmanager
async def opened(config: Config, *, dense: bool = True) -> AsyncIterator[Engine]:
    async with open_engine(config, sync_vectors=dense) as engine:
        assert engine.dense.usable is dense, engine.dense.problem
        yield engine


def paths(result: RelatedResult) -> list[str]:
    return [hit.path for hit in result.hits]


async def test_dense_ranks_the_closest_note_first_with_its_closest_passage(config: Config) -> None:
    async with opened(config) as engine:
        result = await engine.related.related(KODI, 10)
    assert result.method == "dense"
    assert paths(result)[:2] == [JELLYFIN, SECRET]
    assert KODI not in paths(result)
    assert len(paths(result)) == len(set(paths(result))) == 7  # every other note once
    jellyfin = result.hits[0]
    assert jellyfin.title == "Jellyfin"
    assert jellyfin.passage.heading_path == ("Jellyfin", "Media library")
    assert jellyfin.passage.path == JELLYFIN
    scores = [hit.score for hit in result.hits]
    assert scores == sorted(scores, reverse=True)
    assert all(-1.0 <= score <= 1.0 for score in scores)
    assert set(result.timings_ms) == {"total"}


async def test_k_bounds_the_results(config: Config) -> None:
    async with opened(config) as engine:
        assert paths(await engine.related.related(KODI, 1)) == [JELLYFIN]
        with pytest.raises(BadRequest, match="k must be at least 1"):
            await engine.related.related(KODI, 0)


async def test_equal_scores_are_ordered_by_path(config: Config) -> None:
    async with opened(config) as engine:
        from_bread = await engine.related.related("Cooking/Bread.md", 2)
        from_twin = await engine.related.related("Cooking/Twin B.md", 1)
    assert paths(from_bread) == ["Cooking/Twin A.md", "Cooking/Twin B.md"]
    assert from_bread.hits[0].score == from_bread.hits[1].score
    assert paths(from_twin) == ["Cooking/Twin A.md"]
    assert from_twin.hits[0].score == pytest.approx(1.0, abs=1e-4)


async def test_a_note_excluded_now_is_never_related_and_never_a_source(config: Config) -> None:
    excluded = dataclasses.replace(config, vault=dataclasses.replace(config.vault, exclude_globs=("Private/**",)))
    async with opened(excluded) as engine:
        for method in ("dense", "keyword"):
            found = await engine.related.related(KODI, 50, method="keyword" if method == "keyword" else None)
            assert found.method == method
            assert SECRET not in paths(found)
            assert paths(found)[0] == JELLYFIN
        visible = [path for path in engine.manifest.note_stats() if path != SECRET]
        with pytest.raises(NotFound) as hidden:
            await engine.related.related(SECRET, 5)
        with pytest.raises(NotFound) as missing:
            await engine.related.related("Private/No such note.md", 5)
    # The same words whether the note is hidden or absent: nothing says it exists (never suggested either).
    assert hidden.value.message == not_found_message(SECRET, visible)
    assert missing.value.message == not_found_message("Private/No such note.md", visible)
    assert SECRET not in missing.value.message


async def test_a_hidden_section_is_never_the_passage_nor_counted(config: Config) -> None:
    async with opened(config) as engine:
        shown = await engine.related.related(KODI, 10)
    hidden = dataclasses.replace(config, vault=dataclasses.replace(config.vault, exclude_headings=("Media library",)))
    async with opened(hidden) as engine:
        result = await engine.related.related(KODI, 10)
    before = next(hit for hit in shown.hits if hit.path == JELLYFIN)
    after = next(hit for hit in result.hits if hit.path == JELLYFIN)
    assert before.passage.heading_path == ("Jellyfin", "Media library")
    assert after.passage.heading_path == ("Jellyfin", "Clients")
    assert after.score < before.score  # the hidden section's similarity no longer counts


async def test_keyword_method_when_dense_search_is_off(config: Config) -> None:
    async with opened(config, dense=False) as engine:
        assert engine.dense.state == "off"
        result = await engine.related.related(KODI, 10)
    assert result.method == "keyword"
    assert result.terms  # the note's own distinctive terms were the query
    assert KODI not in paths(result)
    assert set(paths(result)[:2]) == {SECRET, JELLYFIN}
    assert result.hits[0].score == 1.0
    assert all(0.0 < hit.score <= 1.0 for hit in result.hits)
    scores = [hit.score for hit in result.hits]
    assert scores == sorted(scores, reverse=True)
    jellyfin = next(hit for hit in result.hits if hit.path == JELLYFIN)
    assert jellyfin.passage.heading_path == ("Jellyfin", "Media library")


async def test_a_note_without_vectors_yet_falls_back_to_keywords(config: Config) -> None:
    async with opened(config) as engine:
        store = engine.dense.store
        assert store is not None
        ids = list(engine.catalog.by_note()["Homelab/Postgres.md"])
        saved = await store.vectors(ids)
        await store.delete(ids)  # as if its vectors were still being built
        try:
            without = await engine.related.related("Homelab/Postgres.md", 5)
            other = await engine.related.related(KODI, 50)
        finally:
            chunks = engine.manifest.get_chunks(ids)
            await store.upsert([chunks[i] for i in ids], [saved[i] for i in ids])
    assert without.method == "keyword"
    assert other.method == "dense"
    assert "Homelab/Postgres.md" not in paths(other)  # no vectors: not a dense candidate either
