"""The indexer finds template lines from the vault itself: counted across notes, re-cut when a line crosses the
threshold either way (full runs and watcher batches), kept whole where a note holds nothing else."""

from __future__ import annotations

from pathlib import Path

from askvault.chunk.boilerplate import min_notes
from askvault.cli.index_cmd import format_summary
from askvault.config import Config
from askvault.index.changes import ChangeBatch
from askvault.model import Chunk
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, vector_ids, write_notes

FOOTER = (
    "\n## About this note\n\nPart of the workshop notebook; if something here is out of date, add a line to "
    "[[Inbox]].\n\nWas this page helpful? Tell me at https://example.com/feedback?note={n}\n"
)
TOPICS = ("planes", "chisels", "glue", "sanding", "oil", "clamps", "saws", "dovetails")


def topic(word: str, footer: bool) -> str:
    body = (
        f"# {word.title()}\n\nNotes on {word}: what I bought, how I keep the {word} in order, and what went wrong "
        f"with the {word} the first time. The {word} live in the left cabinet of the workshop.\n"
    )
    return body + (FOOTER.format(n=word) if footer else "")


def chunks_of(engine: Engine, path: str) -> list[Chunk]:
    return [c for c in engine.manifest.iter_chunks() if c.path == path]


def footer_chunk(engine: Engine, path: str) -> Chunk:
    return next(c for c in chunks_of(engine, path) if c.heading_path[-1:] == ("About this note",))


def config_for(tmp_path: Path, url: str) -> Config:
    return engine_config(tmp_path / "vault", tmp_path / "data", url)


async def test_a_footer_on_every_note_leaves_the_index_text_and_is_reported_as_template(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    write_notes(tmp_path / "vault", {f"Workshop/{w}.md": topic(w, True) for w in TOPICS})
    config = config_for(tmp_path, fake_ollama.url)
    report = await index_once(config)
    # The footer's two lines with words (the feedback line's URL differs per note, which does not matter).
    assert (report.template_lines, report.template_floor) == (2, 3)
    assert "Template lines: 2, each in at least 3 notes" in format_summary(report, tmp_path / "vault")
    async with open_engine(config, sync_vectors=False) as engine:
        footer = footer_chunk(engine, "Workshop/glue.md")
        assert footer.noise.template == 100
        assert footer.noise.informative == 0
        assert "helpful" in footer.text
        assert "helpful" not in footer.index_text
        prose = chunks_of(engine, "Workshop/glue.md")[0]
        assert prose.noise.informative == 100
        assert "cabinet" in prose.index_text
        # The keyword leg no longer counts the footer's words; the catalog carries the shares too.
        assert engine.keywords.search("helpful feedback", 10).ranked == []
        assert engine.catalog.get(footer.id) is not None
        assert engine.catalog.get(footer.id).noise == footer.noise  # type: ignore[union-attr]


async def test_a_line_crossing_the_threshold_re_cuts_the_notes_that_hold_it_both_ways(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    notes = {f"Workshop/{w}.md": topic(w, i < 2) for i, w in enumerate(TOPICS)}
    write_notes(vault, notes)
    assert min_notes(len(notes)) == 3  # two footers are a coincidence, three a template
    config = config_for(tmp_path, fake_ollama.url)
    await index_once(config)
    async with open_engine(config, sync_vectors=False) as engine:
        assert "helpful" in footer_chunk(engine, "Workshop/planes.md").index_text
        (vault / "Workshop/glue.md").write_text(topic("glue", True), encoding="utf-8")
        report = await engine.indexer.run()
        assert report.indexed == 1  # the summary counts the note that changed, not the two re-cut with it
        for path in ("Workshop/planes.md", "Workshop/chisels.md", "Workshop/glue.md"):
            assert "helpful" not in footer_chunk(engine, path).index_text
            assert footer_chunk(engine, path).noise.template == 100
        # The same through a watcher batch, back below the threshold: the footer is the notes' own text again.
        (vault / "Workshop/glue.md").write_text(topic("glue", False), encoding="utf-8")
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Workshop/glue.md"})))
        for path in ("Workshop/planes.md", "Workshop/chisels.md"):
            assert "helpful" in footer_chunk(engine, path).index_text
            assert footer_chunk(engine, path).noise.template == 0
        # A deletion counts too.
        (vault / "Workshop/glue.md").write_text(topic("glue", True), encoding="utf-8")
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Workshop/glue.md"})))
        assert "helpful" not in footer_chunk(engine, "Workshop/planes.md").index_text
        (vault / "Workshop/glue.md").unlink()
        await engine.indexer.apply(ChangeBatch(deletes=frozenset({"Workshop/glue.md"})))
        assert "helpful" in footer_chunk(engine, "Workshop/planes.md").index_text


async def test_footer_chunks_leave_the_vector_store_and_come_back_when_they_are_text_again(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {f"Workshop/{w}.md": topic(w, i < 2) for i, w in enumerate(TOPICS)})
    config = config_for(tmp_path, fake_ollama.url)
    first = await index_once(config)
    assert first.embedded == len(TOPICS) + 2  # two footers are still the notes' own text
    (vault / "Workshop/glue.md").write_text(topic("glue", True), encoding="utf-8")
    report = await index_once(config)
    assert report.embedded == 0  # every prose chunk keeps its vector; the footers have no index text to embed
    async with open_engine(config) as engine:
        footers = {footer_chunk(engine, f"Workshop/{w}.md").id for w in ("planes", "chisels", "glue")}
        assert footers.isdisjoint(await vector_ids(engine))
        assert len(await vector_ids(engine)) == len(TOPICS)
        assert engine.dense.coverage == 1.0  # a footer is not a vector still missing
    (vault / "Workshop/glue.md").write_text(topic("glue", False), encoding="utf-8")
    report = await index_once(config)
    assert report.embedded == 2  # planes' and chisels' footers are their own text again


async def test_a_vault_of_one_template_and_a_one_note_vault_keep_every_word(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    same = "# Day\n\n## Tasks\n\n- [ ] Review inbox\n\nMood:: 3\n\n```dataview\nLIST FROM #daily\n```\n"
    write_notes(tmp_path / "vault", {f"Daily/2025-04-0{d}.md": same for d in range(1, 8)})
    config = config_for(tmp_path, fake_ollama.url)
    report = await index_once(config)
    assert (report.indexed, report.failed) == (7, [])
    async with open_engine(config, sync_vectors=False) as engine:
        for chunk in engine.manifest.iter_chunks():
            assert "Review inbox" in chunk.index_text
            assert "LIST FROM" in chunk.index_text
            assert chunk.noise.informative == 0  # honest about it, and nothing dropped

    single = tmp_path / "single"
    write_notes(single, {"Only.md": topic("glue", True)})
    config = engine_config(single, tmp_path / "data-single", fake_ollama.url)
    await index_once(config)
    async with open_engine(config, sync_vectors=False) as engine:
        assert all(c.noise.template == 0 for c in engine.manifest.iter_chunks())  # one note has no template
        assert any("helpful" in c.index_text for c in engine.manifest.iter_chunks())
