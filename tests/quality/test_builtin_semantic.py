"""The default install searches by meaning: with no embedding model configured, the built-in embedder finds a note
that shares no word with the question."""

from __future__ import annotations

from pathlib import Path

from askvault.config import load_config
from askvault.wiring import open_engine
from tests.engine_helpers import paths, write_notes

NOTES = {
    "Bike.md": "# Bike\n\nPump the tyres to four bar, oil the chain and look at the brake pads once a month.\n",
    "Sourdough.md": "# Sourdough\n\nFeed the starter with flour and water, then let the loaf prove overnight.\n",
    "Taxes.md": "# Taxes\n\nFile the annual return before July and hold on to every receipt for deductions.\n",
}
QUESTION = "How should I service my bicycle?"


async def test_a_paraphrase_with_no_shared_word_finds_its_note_by_meaning(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    # No embed_model anywhere (flags, environment, config file): a fresh install's default, the built-in embedder.
    config = load_config({"vault": vault, "data_dir": tmp_path / "data"}, {})
    assert config.ollama.embed_model is None
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        assert report.dense == "ready", report.dense_problem
        assert (engine.embedder_choice.spec.backend, engine.embedder_choice.source) == ("builtin", "default")

        keyword = await engine.searcher.search(QUESTION, 3, "keyword")
        dense = await engine.searcher.search(QUESTION, 3, "dense")

    # The question shares no word with any note, so keywords find nothing; the embedder ranks Bike first.
    assert paths(keyword) == []
    assert paths(dense)[0] == "Bike.md"
    assert dense.hits[0].dense_rank == 1
    assert dense.hits[0].dense_score is not None
    assert dense.hits[1].dense_score is not None
    assert dense.hits[0].dense_score > dense.hits[1].dense_score + 0.1
