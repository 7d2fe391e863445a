"""The template vault (eval/template-vault): its questions and judgements agree with it, and indexing it finds its
boilerplate — footers, the daily template, query blocks, MOCs — while every note that is only boilerplate keeps
its text."""

from __future__ import annotations

import json
from pathlib import Path

from askvault.chunk.boilerplate import min_notes
from askvault.evaluate.questions import check_questions, load_questions
from askvault.model import Chunk
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once

EVAL = Path(__file__).resolve().parents[2] / "eval"
VAULT = EVAL / "template-vault"


def test_the_questions_and_judgements_check_out_against_the_vault() -> None:
    questions = load_questions(EVAL / "template-vault-questions.jsonl")
    assert check_questions(VAULT, questions) == []
    assert len(questions) == 30
    assert sum(not q.answerable for q in questions) == 5
    for line in (EVAL / "related" / "template.jsonl").read_text(encoding="utf-8").splitlines():
        judged = json.loads(line)
        assert (VAULT / judged["note"]).is_file()
        assert all((VAULT / path).is_file() for path in judged["related"])
        assert set(judged["strong"]) <= set(judged["related"])


async def test_indexing_it_finds_the_boilerplate_and_keeps_what_is_all_a_note_has(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    config = engine_config(VAULT, tmp_path / "data", fake_ollama.url)
    report = await index_once(config)
    assert report.failed == []
    assert report.notes == 61
    assert min_notes(61) == 8
    async with open_engine(config, sync_vectors=False) as engine:
        chunks = list(engine.manifest.iter_chunks())
    by_note: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_note.setdefault(chunk.path, []).append(chunk)

    # The footer on every topic note: a passage of its own, all template, in neither search.
    footers = [c for c in chunks if c.heading_path[-1:] == ("About this note",)]
    assert len(footers) >= 20
    topical = [c for c in footers if c.path != "Woodworking/Router table.md" and not c.path.startswith("Templates/")]
    assert all(c.noise.template == 100 and c.index_text == "" for c in topical)
    # A daily note: its log is its own; the passages of nothing but template (the callout, the query blocks) are in
    # neither search, while `Mood::` beside the day's own gratitude line stays with it.
    day = by_note["Daily/2025-04-10.md"]
    indexed = "\n".join(c.index_text for c in day)
    assert "gravity 1.012" in indexed
    assert "Jot down what happened" not in indexed
    assert "Mood::" in indexed
    assert "TABLE file.mtime" not in indexed
    assert any(c.noise.template > 0 for c in day)
    # MOCs are link lists, kept in the index: asked for by name, they are what there is.
    assert all(c.noise.links > 50 for c in by_note["Brewing.md"])
    assert "Saison recipe" in "\n".join(c.index_text for c in by_note["Brewing.md"])
    # Notes that are only boilerplate keep every word.
    for path in ("Woodworking/Router table.md", "Mood tracker.md"):
        assert all(c.index_text for c in by_note[path]), path
    assert "workshop notebook" in "\n".join(c.index_text for c in by_note["Woodworking/Router table.md"])
    # A note of a kind of its own has no noise at all.
    assert all(c.noise.informative == 100 for c in by_note["Grandad's tool chest.md"])
