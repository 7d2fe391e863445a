"""`askvault eval` through click's CliRunner: a tiny vault, the fake Ollama, real files written."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from askvault.cli import cli
from askvault.cli.options import EXIT_CONFIG, EXIT_ERROR
from tests.conftest import RunningOllama, VaultWriter
from tests.evaluate.tiny_vault import NOTES, QUESTIONS, write_questions


async def invoke(*args: str | Path) -> Result:
    # The fake Ollama lives on this test's event loop; the command runs its own loop, so it needs a thread.
    return await asyncio.to_thread(CliRunner().invoke, cli, [str(a) for a in args])


def base_args(tmp_path: Path, vault: Path, ollama_url: str) -> list[str | Path]:
    config = tmp_path / "config.toml"
    config.write_text("", encoding="utf-8")
    return [
        "eval",
        "--vault",
        vault,
        "--questions",
        write_questions(tmp_path / "questions.jsonl"),
        "--config",
        config,
        "--data-dir",
        tmp_path / "data",
        "--ollama-url",
        ollama_url,
        "--embed-model",
        "all-minilm",
    ]


async def test_eval_writes_table_json_and_report(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    vault = make_vault(NOTES)
    out, report = tmp_path / "out" / "latest.json", tmp_path / "report"
    result = await invoke(*base_args(tmp_path, vault, fake_ollama.url), "-k", "1,3", "--json", out, "--report", report)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "6 questions (5 answerable), k = 1, 3"
    keyword_row = next(line for line in result.stdout.splitlines() if line.startswith("keyword "))
    # Hand count (see tests/evaluate/tiny_vault.py): P@1 = (1 + 1 + 0.5 + 1 + 0) / 5, P@3 = E@3 = MRR = 4/5;
    # E@1 depends on which of the multi-note question's two notes ranks first.
    cells = keyword_row.split()
    assert cells == ["keyword", "5", "0.700", "0.800", cells[4], "0.800", "0.800"]
    assert cells[4] in {"0.600", "0.800"}

    body = json.loads(out.read_text(encoding="utf-8"))
    assert body["questions"] == 6
    assert list(body["modes"]) == ["dense", "keyword", "hybrid"]
    hybrid = body["modes"]["hybrid"]
    assert {"path_recall@3", "evidence_recall@3", "mrr", "by_type", "negative_top_score", "top_scores"} <= set(hybrid)
    assert set(hybrid["by_type"]) == {"exact_value", "alias_wikilink", "multi_note", "paraphrase", "negative"}
    assert [q["id"] for q in body["per_question"]] == [q["id"] for q in QUESTIONS]
    meta = body["meta"]
    assert meta["embed_model"] == "all-minilm"
    assert meta["ks"] == [1, 3]
    assert meta["vault"] == str(vault.resolve())
    assert meta["chunks"] == len(NOTES)
    assert meta["date"].endswith("Z")
    assert meta["commit"] is None or len(meta["commit"]) == 40

    markdown = (report / "report.md").read_text(encoding="utf-8")
    assert "## Evidence recall@1 by question type" in markdown
    assert "- **mislabelled** (paraphrase" in markdown
    assert (report / "chart.png").read_bytes()[:4] == b"\x89PNG"


async def test_rerank_mode_records_outcomes_and_seconds(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    # Every reranking call gets the fake's default prose answer: not JSON, so every question falls back.
    out, report = tmp_path / "latest.json", tmp_path / "report"
    args = [*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--modes", "hybrid,rerank", "-k", "3"]
    result = await invoke(*args, "--json", out, "--report", report)
    assert result.exit_code == 0, result.output

    body = json.loads(out.read_text(encoding="utf-8"))
    assert list(body["modes"]) == ["hybrid", "rerank"]
    # A fallback keeps the fused order, so the figures equal hybrid's.
    assert body["modes"]["rerank"]["evidence_recall@3"] == body["modes"]["hybrid"]["evidence_recall@3"]
    stats = body["meta"]["mode_stats"]["rerank"]
    assert stats["model"] == "llama3.2:3b"
    assert stats["candidates"] == 12
    assert stats["outcomes"] == {"fallback:malformed": len(QUESTIONS)}
    timing = body["modes"]["rerank"]["seconds_per_question"]
    assert timing["questions"] == len(QUESTIONS)
    assert timing["mean"] >= 0.0
    assert all(q["modes"]["rerank"]["seconds"] >= 0.0 for q in body["per_question"])
    calls = fake_ollama.fake.calls("/api/chat")
    assert len(calls) == len(QUESTIONS)
    assert all("format" in call for call in calls)

    assert "Seconds per question" in result.stdout
    markdown = (report / "report.md").read_text(encoding="utf-8")
    assert "## Seconds per question" in markdown
    assert "| mode | mean s | median s | max s | vs hybrid |" in markdown
    assert "outcomes: fallback:malformed: 6" in markdown
    assert "## Reranker outcomes" in markdown
    assert "| malformed | fallback | 6 | 100% |" in markdown
    assert "Reranker outcomes" in result.stdout


async def test_a_second_run_reuses_the_index(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    vault = make_vault(NOTES)
    args = [*base_args(tmp_path, vault, fake_ollama.url), "--modes", "dense"]
    assert (await invoke(*args)).exit_code == 0
    fake_ollama.fake.requests.clear()
    result = await invoke(*args)
    assert result.exit_code == 0, result.output
    embedded = [text for body in fake_ollama.fake.calls("/api/embed") for text in body["input"]]
    # Only the questions (and the start-up dimension probe) are embedded: no note is re-read or re-embedded.
    assert {str(q["question"]) for q in QUESTIONS} <= set(embedded)
    assert not [text for text in embedded for note in NOTES.values() if note.splitlines()[-1] in text]


async def test_keyword_mode_needs_no_ollama(tmp_path: Path, make_vault: VaultWriter, closed_port_url: str) -> None:
    result = await invoke(*base_args(tmp_path, make_vault(NOTES), closed_port_url), "--modes", "keyword")
    assert result.exit_code == 0, result.output
    assert "keyword " in result.stdout


async def test_dense_modes_refuse_to_run_without_the_embedder(
    tmp_path: Path, make_vault: VaultWriter, closed_port_url: str
) -> None:
    result = await invoke(*base_args(tmp_path, make_vault(NOTES), closed_port_url), "--modes", "keyword,hybrid")
    assert result.exit_code == EXIT_ERROR
    assert "dense search is not ready" in result.stderr
    assert "--modes keyword" in result.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(
            ["--modes", "hybrid,bm42"],
            "--modes: unknown mode(s) 'bm42'; known: dense, keyword, hybrid, rerank",
            id="unknown-mode",
        ),
        pytest.param(["-k", "3,six"], "-k: '3,six' is not a comma-separated list", id="bad-k"),
        pytest.param(["-k", "0"], "-k: every k must be between 1 and 50", id="zero-k"),
        pytest.param(["--modes", ","], "--modes: ',' is not a comma-separated list", id="empty-mode"),
    ],
)
async def test_bad_arguments_are_config_errors(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama, extra: list[str], message: str
) -> None:
    result = await invoke(*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), *extra)
    assert result.exit_code == EXIT_CONFIG
    assert result.stderr.splitlines()[-1].startswith(f"askvault: {message}")
    assert fake_ollama.fake.calls("/api/embed") == []


async def test_a_missing_question_file_is_a_config_error(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    args = base_args(tmp_path, make_vault(NOTES), fake_ollama.url)
    args[args.index("--questions") + 1] = tmp_path / "nope.jsonl"
    result = await invoke(*args)
    assert result.exit_code == EXIT_CONFIG
    assert "askvault: cannot read the question file" in result.stderr
    assert "nope.jsonl" in result.stderr


async def test_question_set_problems_are_warned_about(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    result = await invoke(*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--modes", "keyword")
    assert result.exit_code == 0, result.output
    # The tiny set quotes link markup and mislabels a question on purpose; the checker says so, the run goes on.
    assert "askvault: warning: link: evidence 'backed up by [[Backup job]]' holds link or comment markup" in (
        result.stderr
    )
    assert "askvault: warning: mislabelled: evidence" not in result.stderr


async def test_reference_modes_run_through_the_cli(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    out = tmp_path / "latest.json"
    names = "keyword,reference,reference-dense,reference-keyword"
    args = [*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--modes", names, "-k", "1,3", "--json", out]
    result = await invoke(*args)
    assert result.exit_code == 0, result.output
    assert any(line.startswith("reference-keyword ") for line in result.stdout.splitlines())
    body = json.loads(out.read_text(encoding="utf-8"))
    assert list(body["modes"]) == names.split(",")
    assert body["meta"]["mode_stats"]["reference"]["chunks"] == len(NOTES)
    port = next(q for q in body["per_question"] if q["id"] == "port")
    # The evidence is wrapped over lines 6-7 of Postgres.md (after its frontmatter): the hit's lines must hold it.
    top = port["modes"]["reference-keyword"]["hits"][0]
    assert (top["path"], top["start_line"], top["end_line"]) == ("Services/Postgres.md", 6, 7)
    assert port["modes"]["reference-keyword"]["evidence_hit"]["1"] is True


async def test_reference_keyword_needs_no_ollama(tmp_path: Path, make_vault: VaultWriter, closed_port_url: str) -> None:
    args = [*base_args(tmp_path, make_vault(NOTES), closed_port_url), "--modes", "reference-keyword"]
    result = await invoke(*args)
    assert result.exit_code == 0, result.output
    assert "reference-keyword " in result.stdout


async def test_hybrid_runs_carry_relevance_signals_that_calibrate_reads(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    """Every hybrid run records the signals the answer pipeline decides on; `askvault calibrate` fits them."""
    vault = make_vault(NOTES)
    out = tmp_path / "run.json"
    result = await invoke(*base_args(tmp_path, vault, fake_ollama.url), "--json", out)
    assert result.exit_code == 0, result.output
    body = json.loads(out.read_text(encoding="utf-8"))
    for question in body["per_question"]:
        signals = question["modes"]["hybrid"]["relevance"]
        assert set(signals) == {
            "top_dense",
            "keyword_strength",
            "term_coverage",
            "legs_agree",
            "dense_gap",
            "dense_available",
        }
        assert signals["dense_available"] is True
        assert question["modes"]["dense"]["relevance"] is None  # the pipeline decides on hybrid searches only

    # The same run as a second "vault": leave-one-vault-out needs two, and fits on the other.
    other = json.loads(out.read_text(encoding="utf-8"))
    other["meta"]["vault"] = "/elsewhere/other-vault"
    second = tmp_path / "other.json"
    second.write_text(json.dumps(other), encoding="utf-8")
    plot = tmp_path / "tradeoff.png"
    fitted = await invoke("calibrate", out, second, "--model", "all-minilm", "--plot", plot)
    assert fitted.exit_code == 0, fitted.output
    assert "negatives abstained" in fitted.stdout
    assert "other-vault" in fitted.stdout
    assert "Calibration(model='all-minilm'" in fitted.stdout
    assert plot.read_bytes()[:4] == b"\x89PNG"


async def test_calibrate_refuses_a_single_vault_and_foreign_json(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"hello": 1}', encoding="utf-8")
    result = await invoke("calibrate", foreign, "--model", "all-minilm")
    assert result.exit_code == EXIT_CONFIG
    assert "no per_question list" in result.output
