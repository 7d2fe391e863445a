"""Planted canaries never surface: not in search (any mode), answers, prompts, Ollama requests, index files or logs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.privacy.canary_vault import (
    APP_JSON,
    CANARIES,
    QUESTIONS,
    ask_everything,
    assert_no_canary_anywhere,
    bytes_on_disk,
    canary_config,
    debug_logs,
    search_everything,
    sent_to_ollama,
    write_vault,
)

pytestmark = pytest.mark.slow

SAMPLE_VAULT = Path(__file__).resolve().parents[2] / "eval" / "sample-vault"


async def test_no_canary_leaks_from_a_vault_with_every_privacy_rule(
    tmp_path: Path, fake_ollama: RunningOllama, caplog: pytest.LogCaptureFixture
) -> None:
    debug_logs(caplog)
    vault = write_vault(tmp_path / "vault")
    config = canary_config(vault, tmp_path / "data", fake_ollama.url)
    plain_questions = [q for q in QUESTIONS if q not in CANARIES]
    async with open_engine(config) as engine:
        report = await engine.indexer.run()
        assert report.dense == "ready"
        assert {p.path for p in report.skipped} >= {"Notes/Journal.md", "Archive/Old.md", "Scratch/Draft.md"}
        answers = await ask_everything(engine, plain_questions)
        ollama = sent_to_ollama(fake_ollama)  # before the canary queries: those are the user's own words
        results = await search_everything(engine, [*plain_questions, *CANARIES, "lantern"])
        assert "Notes/Public.md" in results
        assert "Notes/Keys.md" in results
        status = json.dumps(report.to_json())
    assert fake_ollama.fake.calls("/api/chat"), "the model was asked"
    assert report.redactions["by_kind"] == {
        "aws-access-key": 1,
        "card-number": 1,
        "iban": 1,
        "openai-key": 1,
        "password": 1,
        "recovery-codes": 1,
    }
    assert report.redactions["notes"] == [{"path": "Notes/Keys.md", "kinds": report.redactions["by_kind"]}]
    assert_no_canary_anywhere(
        CANARIES,
        surfaces={"search": results, "answers": answers, "ollama requests": ollama, "report": status},
        data_dir=config.store.data_dir,
        caplog=caplog,
    )


async def test_the_sample_vault_canaries_never_surface(
    tmp_path: Path, fake_ollama: RunningOllama, caplog: pytest.LogCaptureFixture
) -> None:
    debug_logs(caplog)
    vault = tmp_path / "sample-vault"
    shutil.copytree(SAMPLE_VAULT, vault)
    # The fake's embeddings: redaction happens before any embedder sees a chunk (the egress test runs the built-in).
    config = canary_config(
        vault, tmp_path / "data", fake_ollama.url, private_rules=False, embed_model="nomic-embed-text"
    )
    questions = [
        "What are the B2 recovery codes?",
        "What is the AWS access key for the offsite backup?",
        "What did I agree with Tomas about Grandma's house?",
        "What is in my therapy notes?",
        "What is my current account IBAN?",
        "Which API key did the Paperless AI experiment use?",
    ]
    async with open_engine(config) as engine:
        report = await engine.indexer.run()
        answers = await ask_everything(engine, questions)
        ollama = sent_to_ollama(fake_ollama)
        results = await search_everything(engine, [*questions, "CANARY", "CANARYSEC", "recovery codes", "Bamberg"])
    b2 = "Homelab/Services/Offsite storage (B2).md"
    assert {"path": b2, "kinds": {"aws-access-key": 1, "openai-key": 1, "password": 1, "recovery-codes": 1}} in (
        report.redactions["notes"]  # type: ignore[operator]
    )
    assert b2 in results  # the note is still found; only its secrets are gone
    assert_no_canary_anywhere(
        ["CANARY", "DE44 5001 0517 5407 3249 31", "wJ8r", "7fq2k-9xm4p"],
        surfaces={"search": results, "answers": answers, "ollama requests": ollama},
        data_dir=config.store.data_dir,
        caplog=caplog,
    )


async def test_a_folder_excluded_after_indexing_is_hidden_at_once_and_removed_without_a_mass_delete_refusal(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = write_vault(tmp_path / "vault")
    app_json = vault / ".obsidian" / "app.json"
    app_json.write_text(json.dumps({"userIgnoreFilters": []}), encoding="utf-8")
    config = canary_config(vault, tmp_path / "data", fake_ollama.url, private_rules=False)
    async with open_engine(config) as engine:
        await engine.indexer.run()
        assert "CANARY-APPJSON-71c2" in await search_everything(engine, ["CANARY-APPJSON-71c2"])
        chunk = next(c for c in engine.catalog.snapshot().values() if c.path == "Private/Excluded/Therapy.md")

        # Excluded in Obsidian (most of the vault), no reindex yet: never shown, never sent.
        app_json.write_text(json.dumps({"userIgnoreFilters": [*APP_JSON["userIgnoreFilters"], "Notes/"]}))
        assert not engine.guard.visible(chunk)
        hidden = await search_everything(engine, ["CANARY-APPJSON-71c2", "lantern", "Lantern session notes"])
        assert "CANARY-APPJSON-71c2" not in hidden
        assert "Notes/" not in hidden
        assert "CANARY-APPJSON-71c2" not in await ask_everything(engine, ["What are the therapy session notes?"])

        report = await engine.indexer.run()  # more than half the notes go: excluded, not vanished
        assert report.removed == 4  # of 6: Router, Keys, Public and Therapy
        assert {c.path for c in engine.catalog.snapshot().values()} == {"Archive/Old.md", "Scratch/Draft.md"}
    stored = bytes_on_disk(config.store.data_dir)
    assert b"CANARY-APPJSON-71c2" not in stored
    assert b"Admin user is" not in stored


async def test_an_excluded_heading_added_later_hides_the_section_then_rechunks_the_note(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = write_vault(tmp_path / "vault")
    before = canary_config(vault, tmp_path / "data", fake_ollama.url, private_rules=False)
    async with open_engine(before) as engine:
        await engine.indexer.run()
        assert "CANARY-HEADING-2f6d" in await search_everything(engine, ["CANARY-HEADING-2f6d"])
    after = canary_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(after) as engine:
        queries = ["CANARY-HEADING-2f6d", "CANARY-SUBHEADING-8a31", "private reminder"]
        assert "CANARY" not in await search_everything(engine, queries)  # served from the old index, filtered
        report = await engine.indexer.run()
        assert report.unchanged == 0  # the privacy settings are part of every note's fingerprint
        texts = json.dumps([c.text for c in engine.manifest.iter_chunks()])
        assert "CANARY-HEADING" not in texts
        assert "CANARY-SUBHEADING" not in texts
        assert "Admin user is" in texts


async def test_a_note_that_opts_out_is_hidden_before_the_watcher_reindexes_it(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = write_vault(tmp_path / "vault")
    config = canary_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config) as engine:
        await engine.indexer.run()
        assert "Notes/Public.md" in await search_everything(engine, ["lantern festival"])
        public = vault / "Notes" / "Public.md"
        public.write_text("---\naskvault: false\n---\n" + public.read_text(encoding="utf-8"), encoding="utf-8")
        assert "Notes/Public.md" not in await search_everything(engine, ["lantern festival"])
