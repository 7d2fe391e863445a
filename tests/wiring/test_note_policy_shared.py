"""The engine builds one note policy and hands it to the indexer, the answer-time guard and explain."""

from __future__ import annotations

import json
from pathlib import Path

from askvault.index.changes import ChangeBatch
from askvault.index.exclusion import Exclusion
from askvault.wiring import open_engine
from askvault.wiring.explain import note_status_query
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, write_notes


async def test_one_policy_is_shared_and_an_indexer_batch_rebuilds_it_for_all(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {"Drafts/Plan.md": "# Plan\n\nA draft about quasar migrations.\n"})
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config, sync_vectors=False) as engine:
        policy = engine.policy
        assert engine.guard.policy is policy
        status = note_status_query(engine)
        await engine.indexer.run()
        assert status.status("Drafts/Plan.md").state == "indexed"

        write_notes(vault, {".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Drafts/"]})})
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Drafts/Plan.md"})))

        assert engine.guard.path_rule("Drafts/Plan.md") == Exclusion.obsidian("Drafts/")
        assert status.status("Drafts/Plan.md").rule == "obsidian-excluded"
        assert engine.policy is policy  # rebuilt in place: everyone holding it sees the new rules
