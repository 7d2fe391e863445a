"""Dense sync on the real engine: a model switch builds a new collection safely, Ollama down then back, lost vectors."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from askvault.chunk import chunk_note
from askvault.config import Config
from askvault.errors import ModelError
from askvault.index import note_writer as indexer_module
from askvault.index.dense_sync import collection_name
from askvault.index.report import Progress
from askvault.model import SearchFilters, SearchResult
from askvault.ollama_errors import unreachable
from askvault.store.vectors.edge_collections import list_collections
from askvault.store.vectors.payload import storage_name
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import (
    before_chunking,
    embedded_ids,
    embedded_texts,
    engine_config,
    index_once,
    manifest_ids,
    paragraph,
    paths,
    set_mtime,
    vector_ids,
    write_notes,
)

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": (
        f"# Postgres\n\n## Port\n\nThe database listens on port 5433. {paragraph('listener')}\n\n"
        f"## Backups\n\nNightly dumps at 02:00 go to the NAS. {paragraph('dumper')}\n"
    ),
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun, deep pots and patience.\n",
}
MODEL_A, DIM_A = "nomic-embed-text", 64
MODEL_B, DIM_B = "mxbai-embed-large", 32
COLLECTION_A = collection_name(f"{MODEL_A}@{DIM_A}")
COLLECTION_B = collection_name(f"{MODEL_B}@{DIM_B}")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    return root


def config_for(vault: Path, url: str, model: str = MODEL_A) -> Config:
    return engine_config(vault, vault.parent / "data", url, embed_model=model)


async def test_model_switch_serves_the_new_collection_as_it_fills(vault: Path, fake_ollama: RunningOllama) -> None:
    first = await index_once(config_for(vault, fake_ollama.url))
    fake_ollama.fake.embed_models[MODEL_B] = DIM_B
    config = config_for(vault, fake_ollama.url, MODEL_B)
    vectors_dir = config.store.data_dir / "vectors"
    assert list_collections(vectors_dir) == [COLLECTION_A]

    async with open_engine(config, sync_vectors=False) as engine:
        assert not engine.dense.usable  # the old model's vectors are never compared with the new model's queries
        during: list[tuple[str, object, float]] = []
        searches: list[asyncio.Future[SearchResult]] = []

        def on_progress(progress: Progress) -> None:
            if progress.phase == "embed":
                store = engine.dense.store
                during.append((engine.dense.state, getattr(store, "collection", None), engine.dense.coverage))
                searches.append(asyncio.ensure_future(engine.searcher.search("port 5433", 3)))

        engine.indexer.add_listener(on_progress)
        report = await engine.indexer.run()
        results = await asyncio.gather(*searches)
        after = await engine.searcher.search("listener port 5433", 3, "dense")

        assert during
        # Never the old model's vectors: the new collection, from its first batch, with the share it covers.
        assert all(state == "building" and name == COLLECTION_B and 0 < share <= 1 for state, name, share in during)
        for result in results:
            assert result.dense_available
            assert paths(result)[0] == "Homelab/Postgres.md"
        assert (report.dense, report.embedded, report.unchanged) == ("ready", first.chunks, 3)
        assert engine.dense.state == "ready"
        assert getattr(engine.dense.store, "collection", None) == COLLECTION_B
        assert paths(after)[0] == "Homelab/Postgres.md"
        assert fake_ollama.fake.calls("/api/embed")[-1]["model"] == MODEL_B
        assert list_collections(vectors_dir) == [COLLECTION_B]
        assert not (vectors_dir / storage_name(COLLECTION_A)).exists()
        assert engine.manifest.embedded_ids(COLLECTION_A) == set()
        assert await vector_ids(engine) == manifest_ids(engine) == embedded_ids(engine)


async def test_dense_search_refuses_while_a_new_collection_builds(vault: Path, fake_ollama: RunningOllama) -> None:
    await index_once(config_for(vault, fake_ollama.url))
    fake_ollama.fake.embed_models[MODEL_B] = DIM_B
    async with open_engine(config_for(vault, fake_ollama.url, MODEL_B), sync_vectors=False) as engine:
        with pytest.raises(ModelError, match="not available yet"):
            await engine.searcher.search("port", 3, "dense")


async def test_switching_back_to_an_earlier_model_embeds_everything_again(
    vault: Path, fake_ollama: RunningOllama
) -> None:
    fake_ollama.fake.embed_models[MODEL_B] = DIM_B
    first = await index_once(config_for(vault, fake_ollama.url))
    await index_once(config_for(vault, fake_ollama.url, MODEL_B))

    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        report = await engine.indexer.run()
        port = await engine.searcher.search("listener port 5433", 3, "dense")

        assert (report.dense, report.embedded) == ("ready", first.chunks)
        assert paths(port)[0] == "Homelab/Postgres.md"
        assert await vector_ids(engine) == manifest_ids(engine) == embedded_ids(engine)
        assert list_collections(engine.config.store.data_dir / "vectors") == [COLLECTION_A]


async def test_vectors_lost_on_disk_are_embedded_again(vault: Path, fake_ollama: RunningOllama) -> None:
    config = config_for(vault, fake_ollama.url)
    first = await index_once(config)
    shutil.rmtree(config.store.data_dir / "vectors")

    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()

        assert report.embedded == first.chunks
        assert await vector_ids(engine) == manifest_ids(engine) == embedded_ids(engine)


async def test_ollama_down_means_keyword_only_then_vectors_come_without_rechunking(
    vault: Path, fake_ollama: RunningOllama, closed_port_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    offline = config_for(vault, closed_port_url)
    async with open_engine(offline, sync_vectors=False) as engine:
        down = await engine.indexer.run()
        keyword_only = await engine.searcher.search("which port does postgres use, 5433?", 3)
        chunk_ids = manifest_ids(engine)

    assert (down.indexed, down.embedded, down.dense) == (3, 0, "off")
    assert down.dense_problem is not None
    assert down.dense_problem == unreachable(closed_port_url)
    assert not keyword_only.dense_available
    assert paths(keyword_only)[0] == "Homelab/Postgres.md"
    assert keyword_only.hits[0].keyword_rank == 1

    chunked: list[str] = []
    monkeypatch.setattr(
        indexer_module, "chunk_note", before_chunking(lambda note: chunked.append(note.path), chunk_note)
    )
    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        back = await engine.indexer.run()

        assert (back.indexed, back.unchanged, back.dense) == (0, 3, "ready")
        assert back.embedded == len(chunk_ids) == len(embedded_texts(fake_ollama.fake))
        assert chunked == []
        assert manifest_ids(engine) == chunk_ids
        assert await vector_ids(engine) == chunk_ids


async def test_edits_while_ollama_is_down_reach_the_vector_payload(
    vault: Path, fake_ollama: RunningOllama, closed_port_url: str
) -> None:
    await index_once(config_for(vault, fake_ollama.url))
    postgres = vault / "Homelab/Postgres.md"
    postgres.write_text(str(NOTES["Homelab/Postgres.md"]).replace("02:00", "04:00"), encoding="utf-8")
    set_mtime(postgres, 2_000_000_000)
    await index_once(config_for(vault, closed_port_url))

    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        await engine.indexer.run()
        recent = await engine.searcher.search("listener port 5433", 5, "dense", SearchFilters(modified_after=1.9e9))

        assert {hit.chunk.heading_path for hit in recent.hits} == {("Postgres", "Port"), ("Postgres", "Backups")}
        assert await vector_ids(engine) == manifest_ids(engine) == embedded_ids(engine)


async def test_a_missing_embedding_model_names_the_pull_command(vault: Path, fake_ollama: RunningOllama) -> None:
    report = await index_once(config_for(vault, fake_ollama.url, "bge-m3"))

    assert (report.indexed, report.embedded, report.dense) == (3, 0, "off")
    assert report.dense_problem == "embedding model missing — ollama pull bge-m3"


async def test_a_document_prefix_gets_its_own_collection(vault: Path, fake_ollama: RunningOllama) -> None:
    """e5 wants `passage: ` before documents: those vectors are keyed apart from any made without it."""
    fake_ollama.fake.embed_models["multilingual-e5-small"] = DIM_B
    config = config_for(vault, fake_ollama.url, "multilingual-e5-small")
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
        (collection,) = list_collections(config.store.data_dir / "vectors")
        assert collection.startswith("chunks_multilingual-e5-small_32_doc-")
        texts = [text for body in fake_ollama.fake.calls("/api/embed") for text in body["input"]]
        assert texts[1:]  # [0]: the dimension probe
        assert all(text.startswith("passage: ") for text in texts[1:])
        await engine.searcher.search("which port does postgres use", 3, "dense")
    assert fake_ollama.fake.calls("/api/embed")[-1]["input"] == ["query: which port does postgres use"]
