"""The evaluation runner on a real engine (Qdrant edge in a temp dir, fake Ollama), figures checked by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from askvault.config import load_config
from askvault.errors import ConfigError, ModelError
from askvault.evaluate.modes import EvalMode, ModeRegistry, searcher_modes
from askvault.evaluate.questions import Question
from askvault.evaluate.runner import EvalResult, NoteLines, parse_ks, parse_mode_names, run_evaluation
from askvault.model import Hit
from askvault.query.dates import current_now
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama, VaultWriter
from tests.evaluate.tiny_vault import NOTES, questions

KS = (1, 2, 3)


@pytest.fixture
async def engine(tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama) -> AsyncIterator[Engine]:
    vault = make_vault(NOTES)
    flags = {"vault": vault, "data_dir": tmp_path / "data", "ollama_url": fake_ollama.url, "embed_model": "all-minilm"}
    async with open_engine(load_config(flags, {}), sync_vectors=False) as opened:
        report = await opened.indexer.run()
        assert report.dense == "ready"
        assert report.chunks == len(NOTES)
        yield opened


async def evaluate(engine: Engine, tmp_path: Path, modes: Sequence[str]) -> EvalResult:
    registry = searcher_modes(engine.searcher)
    return await run_evaluation(questions(tmp_path), registry.select(modes), KS, engine.config.vault.root)


async def test_keyword_figures_match_a_hand_count(engine: Engine, tmp_path: Path) -> None:
    result = await evaluate(engine, tmp_path, ["keyword"])
    port = result.run("port", "keyword")
    assert port.hits[0].path == "Services/Postgres.md"
    assert port.score.path_recall == {1: 1.0, 2: 1.0, 3: 1.0}
    assert port.score.evidence_hit == {1: True, 2: True, 3: True}
    assert port.score.reciprocal_rank == 1.0
    multi = result.run("multi", "keyword")
    assert (multi.score.path_recall[1], multi.score.path_recall[2]) == (0.5, 1.0)
    assert multi.score.evidence_hit[2]
    assert multi.first_evidence_rank == next(h.rank for h in multi.hits if h.path == "Services/Backup job.md")
    missed = result.run("mislabelled", "keyword")
    assert missed.hits[0].path == "Kitchen/Sourdough.md"
    assert "Garden/Tomatoes.md" not in [h.path for h in missed.hits]
    assert missed.score.reciprocal_rank == 0.0
    assert not any(missed.score.evidence_hit.values())

    figures = result.summary()["keyword"]
    assert isinstance(figures, dict)
    # Five answerable questions: port, link, multi and sourdough found (multi needs both notes: 0.5 at k=1),
    # the mislabelled one never.
    assert figures["answerable"] == 5
    assert figures["path_recall@1"] == pytest.approx((1 + 1 + 0.5 + 1 + 0) / 5)
    assert figures["path_recall@2"] == pytest.approx(4 / 5)
    assert figures["evidence_recall@2"] == pytest.approx(4 / 5)
    assert figures["mrr"] == pytest.approx(4 / 5)
    by_type: Any = figures["by_type"]
    assert by_type["exact_value"]["evidence_recall@1"] == 1.0
    assert by_type["paraphrase"]["path_recall@3"] == 0.5


async def test_evidence_is_matched_on_the_original_note_lines(engine: Engine, tmp_path: Path) -> None:
    result = await evaluate(engine, tmp_path, ["keyword"])
    link = result.run("link", "keyword")
    postgres = next(c for c in engine.manifest.iter_chunks() if c.path == "Services/Postgres.md")
    # The rendered chunk lost the link markup the evidence quotes; the note's own lines still have it.
    assert "[[Backup job]]" not in postgres.text
    assert link.hits[0].path == "Services/Postgres.md"
    assert link.hits[0].has_evidence
    assert link.score.evidence_hit[1]


async def test_every_mode_scores_every_question(engine: Engine, tmp_path: Path) -> None:
    result = await evaluate(engine, tmp_path, ["dense", "keyword", "hybrid"])
    assert len(result.runs) == 6 * 3
    assert [run.score.mode for run in result.runs[:3]] == ["dense", "keyword", "hybrid"]
    for mode in ("dense", "hybrid"):
        port = result.run("port", mode)
        assert port.hits[0].path == "Services/Postgres.md"
        assert port.score.path_recall[1] == 1.0
        assert port.score.evidence_hit[1]
    hybrid_top = result.run("port", "hybrid").hits[0]
    assert hybrid_top.dense_rank is not None
    assert hybrid_top.keyword_rank is not None
    assert hybrid_top.dense_score is not None
    assert hybrid_top.keyword_score is not None


async def test_negative_questions_record_the_top_hit_scores(engine: Engine, tmp_path: Path) -> None:
    result = await evaluate(engine, tmp_path, ["dense", "keyword", "hybrid"])
    # No word of the question is in the vault: keyword search finds nothing, dense always finds a nearest chunk.
    assert result.run("negative", "keyword").hits == ()
    assert result.run("negative", "keyword").score.top_score is None
    dense = result.run("negative", "dense")
    assert not dense.score.answerable
    assert dense.score.path_recall == {}
    assert dense.score.top_score == dense.hits[0].fused_score
    summary = result.summary()
    keyword, hybrid = summary["keyword"], summary["hybrid"]
    assert isinstance(keyword, dict)
    assert isinstance(hybrid, dict)
    assert keyword["negative_top_score"] == {"questions": 1, "no_hits": 1, "min": None, "median": None, "max": None}
    top = hybrid["top_scores"]
    assert isinstance(top, dict)
    negative = top["negative"]
    assert isinstance(negative, dict)
    assert negative["keyword"] == {"questions": 1, "missing": 1, "min": None, "median": None, "max": None}
    dense_top = result.run("negative", "hybrid").hits[0].dense_score
    assert negative["dense"] == {"questions": 1, "missing": 0, "min": dense_top, "median": dense_top, "max": dense_top}


async def test_a_new_mode_plugs_in_without_changing_the_runner(engine: Engine, tmp_path: Path) -> None:
    async def keyword_reversed(question: str, k: int) -> Sequence[Hit]:
        result = await engine.searcher.search(question, k, "keyword")
        return list(reversed(result.hits))

    registry = searcher_modes(engine.searcher)
    registry.add(EvalMode("keyword+reversed", keyword_reversed, needs_dense=False))
    result = await run_evaluation(
        questions(tmp_path), registry.select(["keyword", "keyword+reversed"]), KS, engine.config.vault.root
    )
    keyword, flipped = result.run("port", "keyword"), result.run("port", "keyword+reversed")
    assert [h.path for h in flipped.hits] == [h.path for h in reversed(keyword.hits)]
    assert result.modes == ("keyword", "keyword+reversed")
    assert set(result.summary()) == {"keyword", "keyword+reversed"}


async def test_hybrid_refuses_to_fall_back_to_keywords_silently(
    engine: Engine, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    fake_ollama.fake.embed_status = 500
    with pytest.raises(ModelError, match="hybrid figures would be keyword-only"):
        await evaluate(engine, tmp_path, ["hybrid"])


async def test_progress_is_reported_per_question_and_mode(engine: Engine, tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []
    registry = searcher_modes(engine.searcher)
    await run_evaluation(
        questions(tmp_path),
        registry.select(["keyword", "dense"]),
        KS,
        engine.config.vault.root,
        on_step=lambda run: seen.append((run.question.id, run.score.mode)),
    )
    assert seen[:2] == [("port", "keyword"), ("port", "dense")]
    assert len(seen) == 12


async def test_a_question_with_now_is_asked_on_that_day(engine: Engine, tmp_path: Path) -> None:
    seen: list[datetime] = []

    async def clock(question: str, k: int) -> Sequence[Hit]:
        seen.append(current_now())
        return []

    pinned = Question("pinned", "what did I do last week", "date", ("a.md",), ("x",), now=date(2024, 3, 20))
    free = Question("free", "and today", "date", ("a.md",), ("x",))
    modes = [EvalMode("clock", clock, needs_dense=False)]

    await run_evaluation([pinned, free], modes, KS, engine.config.vault.root)

    assert seen[0] == datetime(2024, 3, 20, 12, 0)
    assert seen[1].date() != date(2024, 3, 20)
    assert current_now().date() != date(2024, 3, 20)


def test_unknown_modes_are_rejected_with_the_known_ones() -> None:
    async def nothing(question: str, k: int) -> Sequence[Hit]:
        return []

    registry = ModeRegistry([EvalMode("hybrid", nothing), EvalMode("keyword", nothing, needs_dense=False)])
    with pytest.raises(ConfigError, match=r"unknown mode\(s\) 'rerank', 'bm42'; known: hybrid, keyword"):
        registry.select(["hybrid", "rerank", "bm42"])
    with pytest.raises(ValueError, match="registered twice"):
        registry.add(EvalMode("hybrid", nothing))
    with pytest.raises(ValueError, match="without commas"):
        registry.add(EvalMode("a,b", nothing))


@pytest.mark.parametrize(
    ("text", "ks"),
    [
        pytest.param("3,6,10", (3, 6, 10), id="default"),
        pytest.param("10, 3,6", (3, 6, 10), id="sorted-with-spaces"),
        pytest.param("3,3", (3,), id="duplicates-dropped"),
        pytest.param("50", (50,), id="upper-bound"),
    ],
)
def test_parse_ks(text: str, ks: tuple[int, ...]) -> None:
    assert parse_ks(text) == ks


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("3,x", "not a comma-separated list", id="not-a-number"),
        pytest.param("", "not a comma-separated list", id="empty"),
        pytest.param("3,,6", "not a comma-separated list", id="empty-item"),
        pytest.param("-1", "not a comma-separated list", id="negative"),
        pytest.param("0,3", "between 1 and 50", id="zero"),
        pytest.param("51", "between 1 and 50", id="too-big"),
    ],
)
def test_parse_ks_rejects(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_ks(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("dense,keyword,hybrid", ("dense", "keyword", "hybrid"), id="all"),
        pytest.param(" hybrid , dense", ("hybrid", "dense"), id="order-kept-spaces-trimmed"),
        pytest.param("hybrid,hybrid", ("hybrid",), id="duplicates-dropped"),
        pytest.param("hybrid+rerank", ("hybrid+rerank",), id="any-name"),
    ],
)
def test_parse_mode_names(text: str, names: tuple[str, ...]) -> None:
    assert parse_mode_names(text) == names


@pytest.mark.parametrize("text", [pytest.param("", id="empty"), pytest.param("dense,", id="trailing-comma")])
def test_parse_mode_names_rejects(text: str) -> None:
    with pytest.raises(ConfigError, match="--modes"):
        parse_mode_names(text)


@pytest.mark.parametrize(
    ("data", "start", "end", "text"),
    [
        pytest.param(b"a\nb\nc\n", 2, 3, "b\nc", id="lf"),
        pytest.param(b"a\r\nb\r\nc\r\n", 2, 2, "b", id="crlf-keeps-line-numbers"),
        pytest.param(b"\xef\xbb\xbfa\nb\n", 1, 1, "a", id="bom-dropped"),
        pytest.param(b"a\nb\n", 2, 9, "b\n", id="end-past-the-file"),
        pytest.param(b"\xff\xfe", 1, 1, "", id="undecodable-note"),
    ],
)
def test_note_lines(tmp_path: Path, data: bytes, start: int, end: int, text: str) -> None:
    (tmp_path / "n.md").write_bytes(data)
    assert NoteLines(tmp_path).text("n.md", start, end) == text


def test_note_lines_of_a_vanished_note_are_empty(tmp_path: Path) -> None:
    assert NoteLines(tmp_path).text("gone.md", 1, 3) == ""


async def test_nothing_to_run_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no questions"):
        await run_evaluation([], [], KS, tmp_path)
