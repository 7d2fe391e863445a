"""`askvault eval`: index the vault, run a question set through each retrieval mode, report the figures."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Never

import click
from tqdm import tqdm

from askvault.cli.eval_answers import ModelRuns, report_model_runs, run_model_evaluations, split_chat_models
from askvault.cli.eval_meta import run_meta
from askvault.cli.options import build_config, handles_errors, setup_logging, shared_options
from askvault.config import Config
from askvault.errors import ModelError
from askvault.evaluate.chart import write_chart
from askvault.evaluate.conversations import Conversation, check_conversations, load_conversations
from askvault.evaluate.files import EvalFiles
from askvault.evaluate.legs_dump import dump_question
from askvault.evaluate.modes import ModeRegistry, rerank_mode, searcher_modes
from askvault.evaluate.overrides import apply_overrides
from askvault.evaluate.questions import Question, check_questions, load_questions
from askvault.evaluate.reference import reference_modes
from askvault.evaluate.report import render_markdown, render_text
from askvault.evaluate.report_json import to_json
from askvault.evaluate.runner import (
    DEFAULT_KS,
    EvalResult,
    ModeRun,
    NoteLines,
    parse_ks,
    parse_mode_names,
    run_evaluation,
)
from askvault.index.report import IndexReport, Progress
from askvault.wiring import Engine, open_engine


def eval_modes(engine: Engine, files: EvalFiles | None = None) -> ModeRegistry:
    """The modes `--modes` can name. A new mode registers here; the runner needs no change. `files` reads the
    reference's notes, PDFs and canvases (the run's one reader)."""
    registry = searcher_modes(engine.searcher, engine.config.retrieval.top_k)
    registry.add(rerank_mode(engine.searcher, engine.reranker, engine.config.retrieval.rerank_candidates))
    # The yardstick reads the manifest on its first search, after the index run: the notes the product indexed.
    config = engine.config
    notes = engine.manifest.note_stats
    for mode in reference_modes(
        config.vault.root, lambda: notes().keys(), engine.embedder, config.store.data_dir, files
    ):
        registry.add(mode)
    return registry


@click.command("eval")
@shared_options
@click.option("--questions", "questions_file", required=True, type=click.Path(path_type=Path), help="JSONL questions.")
@click.option("-k", "ks", default=",".join(map(str, DEFAULT_KS)), show_default=True, help="Cut-offs, comma-separated.")
@click.option("--modes", default="dense,keyword,hybrid", show_default=True, help="Retrieval modes, comma-separated.")
@click.option("--json", "json_out", type=click.Path(path_type=Path, dir_okay=False), help="Write every figure here.")
@click.option(
    "--report", "report_dir", type=click.Path(path_type=Path, file_okay=False), help="Write report.md and chart.png."
)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="SECTION.FIELD=VALUE",
    help="Override a chunk.* or retrieval.* parameter for this run (repeatable), e.g. chunk.max_chars=900.",
)
@click.option(
    "--answers",
    is_flag=True,
    help="Also answer every question with each --chat-model (comma-separated) through the real answer pipeline "
    "and score the answers (answers.md, answers.json, answers.png under --report).",
)
@click.option(
    "--rewrite",
    "conversations_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also measure follow-up rewriting on this JSONL conversation file with each --chat-model "
    "(rewrite.md, rewrite.json under --report).",
)
@click.option(
    "--dump-legs",
    "dump_legs",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also write each question's dense and keyword candidate lists, with scores, chunk texts and evidence "
    "flags, as JSONL here: the data for trying a fusion rule offline.",
)
@click.option("-v", "--verbose", is_flag=True, help="Log details to stderr.")
@handles_errors
def eval_command(
    questions_file: Path,
    ks: str,
    modes: str,
    json_out: Path | None,
    report_dir: Path | None,
    overrides: tuple[str, ...],
    answers: bool,
    conversations_file: Path | None,
    dump_legs: Path | None,
    verbose: bool,
    **params: object,
) -> None:
    """Measure retrieval quality on a question set.

    Path and evidence recall@k and MRR, per retrieval mode and question type.

    With --answers (and --rewrite FILE) it then measures the answers (and follow-up rewrites) of each chat
    model named by --chat-model, e.g. --chat-model smollm2:135m,extractive.
    """
    setup_logging(verbose)
    k_list = parse_ks(ks)
    mode_names = parse_mode_names(modes)
    questions = load_questions(questions_file)
    models = split_chat_models(params, several_allowed=answers or conversations_file is not None)
    config = apply_overrides(build_config(params), overrides)
    models = models or (config.ollama.chat_model,)
    # One reader of the eval's files for the whole run: a PDF is extracted once, by one process, closed at the end.
    with EvalFiles(config.vault.root) as files:
        for problem in check_questions(config.vault.root, questions, files):
            click.echo(f"askvault: warning: {problem}", err=True)
        conversations = load_conversations(conversations_file) if conversations_file is not None else None
        for problem in check_conversations(config.vault.root, conversations or []):
            click.echo(f"askvault: warning: {conversations_file}: {problem}", err=True)
        plan = _ModelPlan(models, answers, conversations, conversations_file)
        result, model_runs = asyncio.run(
            _evaluate(config, questions, questions_file, mode_names, k_list, plan, files, dump_legs)
        )
    summary = result.summary()
    click.echo(render_text(result, summary))
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(to_json(result), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if report_dir is not None:
        report_dir.mkdir(parents=True, exist_ok=True)
        (report_dir / "report.md").write_text(render_markdown(result, summary), encoding="utf-8")
        k = 3 if 3 in result.ks else result.ks[0]
        write_chart(summary, result.modes, k, report_dir / "chart.png", title=_chart_title(result, k))
    if model_runs is not None:
        report_model_runs(model_runs, report_dir)


@dataclass(frozen=True)
class _ModelPlan:
    """What to measure per chat model after the retrieval run (nothing unless --answers or --rewrite)."""

    models: tuple[str, ...]
    answers: bool
    conversations: list[Conversation] | None
    conversations_file: Path | None

    @property
    def wanted(self) -> bool:
        return self.answers or self.conversations is not None


def _chart_title(result: EvalResult, k: int) -> str:
    model = result.meta.get("embed_model")
    return f"Evidence Recall@{k} by question type ({len(result.questions)} questions, {model})"


async def _evaluate(
    config: Config,
    questions: list[Question],
    questions_file: Path,
    mode_names: tuple[str, ...],
    ks: tuple[int, ...],
    plan: _ModelPlan,
    files: EvalFiles,
    dump_legs: Path | None = None,
) -> tuple[EvalResult, ModelRuns | None]:
    async with open_engine(config, sync_vectors=False) as engine:
        modes = eval_modes(engine, files).select(mode_names)
        report = await _index(engine)
        # Answers and rewrites search in hybrid mode, as the pipeline does.
        needs_dense = plan.wanted or dump_legs is not None or any(mode.needs_dense for mode in modes)
        if needs_dense and report.dense != "ready":
            raise ModelError(
                f"dense search is not ready ({report.dense_problem or report.dense}), so the dense and hybrid "
                "figures would mean nothing; fix that first, or pass --modes keyword"
            )
        for problem in report.failed:
            click.echo(f"askvault: warning: {problem.path} was not indexed: {problem.reason}", err=True)
        meta = run_meta(config, questions_file, report, ks, mode_names, engine.embedder.model, engine.embedder.label)
        bar: tqdm[Never] = tqdm(
            total=len(questions) * len(modes), desc="questions", unit="", file=sys.stderr, disable=None
        )

        def step(run: ModeRun) -> None:
            bar.update()

        try:
            result = await run_evaluation(questions, modes, ks, config.vault.root, on_step=step, meta=meta, files=files)
        finally:
            bar.close()
        if dump_legs is not None:
            await _dump_legs(engine, questions, dump_legs, files)
        if not plan.wanted:
            return result, None
        model_runs = await run_model_evaluations(
            engine,
            plan.models,
            questions if plan.answers else None,
            plan.conversations,
            result.meta,
            questions_file,
            plan.conversations_file,
        )
        return result, model_runs


async def _dump_legs(engine: Engine, questions: list[Question], path: Path, files: EvalFiles) -> None:
    """One JSONL record per question (`evaluate.legs_dump`), written whole once every question has run."""
    lines = NoteLines(engine.config.vault.root, files)
    records = [await dump_question(engine.searcher, engine.catalog, question, lines) for question in questions]
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    await asyncio.to_thread(_write, path, text)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


async def _index(engine: Engine) -> IndexReport:
    """Brings the index up to date (unchanged notes are skipped, so a second run starts at once)."""
    bars: dict[str, tqdm[Never]] = {}

    def on_progress(progress: Progress) -> None:
        if progress.phase not in ("notes", "embed"):
            return
        bar = bars.get(progress.phase)
        if bar is None:
            label = "notes" if progress.phase == "notes" else "embedding"
            bar = tqdm(total=progress.total, desc=label, unit="", file=sys.stderr, disable=None)
            bars[progress.phase] = bar
        bar.total = progress.total
        bar.n = progress.done
        bar.refresh()

    remove = engine.indexer.add_listener(on_progress)
    try:
        return await engine.indexer.run()
    finally:
        remove()
        for bar in bars.values():
            bar.close()
