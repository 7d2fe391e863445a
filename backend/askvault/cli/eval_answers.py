"""`askvault eval --answers` and `--rewrite`: answers and follow-up rewrites measured per chat model."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Never

import click
from tqdm import tqdm

from askvault.config import Config
from askvault.errors import ConfigError
from askvault.evaluate.answer_report import (
    answers_json,
    render_answers_markdown,
    render_answers_text,
    write_answers_chart,
)
from askvault.evaluate.answers import AnswerRun, AnswersResult, run_answers
from askvault.evaluate.conversations import Conversation
from askvault.evaluate.metrics import JsonValue
from askvault.evaluate.modes import searcher_modes
from askvault.evaluate.questions import Question
from askvault.evaluate.rewrite_eval import RewriteResult, run_rewrites
from askvault.evaluate.rewrite_report import render_rewrite_markdown, render_rewrite_text, rewrite_json
from askvault.generate.ollama_chat import DEFAULT_TEMPERATURE
from askvault.wiring import Engine, answering_models

ANSWER_META_KEYS = ("date", "askvault", "commit", "commit_dirty", "vault", "embed_model", "notes", "chunks")
"""What the answer and rewrite reports repeat from the retrieval run's metadata."""


def split_chat_models(params: dict[str, object], several_allowed: bool) -> tuple[str, ...]:
    """`--chat-model a,b` → ("a", "b"), leaving the first in `params` for the configuration (the rerank mode and
    the engine use it); () when the flag was not given (the configured chat model is used)."""
    raw = params.get("chat_model")
    if not isinstance(raw, str) or not raw.strip():
        return ()
    models = tuple(dict.fromkeys(part.strip() for part in raw.split(",")))
    if not all(models):
        raise ConfigError(f"--chat-model: {raw!r} is not a comma-separated list of model names")
    if len(models) > 1 and not several_allowed:
        raise ConfigError("--chat-model: name one model, or several only with --answers or --rewrite")
    params["chat_model"] = models[0]
    return models


@dataclass(frozen=True)
class ModelRuns:
    answers: AnswersResult | None
    rewrites: RewriteResult | None


def _meta(config: Config, retrieval_meta: Mapping[str, JsonValue], models: Sequence[str]) -> dict[str, JsonValue]:
    meta = {key: retrieval_meta[key] for key in ANSWER_META_KEYS if key in retrieval_meta}
    meta["chat_models"] = list(models)
    meta["answer_tokens"] = config.ollama.answer_tokens
    meta["temperature"] = DEFAULT_TEMPERATURE
    meta["rerank"] = config.retrieval.rerank
    meta["top_k"] = config.retrieval.top_k
    meta["prompt_params"] = {f: getattr(config.prompt, f) for f in config.prompt.__dataclass_fields__}
    return meta


async def run_model_evaluations(
    engine: Engine,
    models: Sequence[str],
    questions: Sequence[Question] | None,
    conversations: Sequence[Conversation] | None,
    retrieval_meta: Mapping[str, JsonValue],
    questions_file: Path,
    conversations_file: Path | None,
) -> ModelRuns:
    """The answer evaluation (when `questions`) and the rewrite measurement (when `conversations`), each model
    in turn, over the index the retrieval run brought up to date."""
    config = engine.config
    meta = _meta(config, retrieval_meta, models)
    answers: AnswersResult | None = None
    rewrites: RewriteResult | None = None
    async with answering_models(engine, models) as built:
        if questions is not None:
            total = len(questions) * len(models)
            bar: tqdm[Never] = tqdm(total=total, desc="answers", unit="", file=sys.stderr, disable=None)

            def step(run: AnswerRun) -> None:
                bar.update()

            pipelines = {model: entry.pipeline for model, entry in built.items()}
            try:
                answer_meta = {**meta, "questions_file": str(questions_file)}
                answers = await run_answers(questions, pipelines, config.vault.root, on_step=step, meta=answer_meta)
            finally:
                bar.close()
        if conversations is not None:
            hybrid = searcher_modes(engine.searcher, config.retrieval.top_k).select(["hybrid"])[0]
            chats = {model: entry.chat for model, entry in built.items()}
            rewrite_bar: tqdm[Never] = tqdm(
                total=len(conversations), desc="rewrites", unit="", file=sys.stderr, disable=None
            )

            def rewrite_step() -> None:
                rewrite_bar.update()

            try:
                rewrites = await run_rewrites(
                    conversations,
                    chats,
                    hybrid,
                    config.vault.root,
                    max_history_turns=config.prompt.max_history_turns,
                    on_step=rewrite_step,
                    meta={**meta, "conversations_file": str(conversations_file)},
                )
            finally:
                rewrite_bar.close()
    return ModelRuns(answers, rewrites)


def _write_json(path: Path, body: Mapping[str, JsonValue]) -> None:
    path.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def report_model_runs(runs: ModelRuns, report_dir: Path | None) -> None:
    """Prints the tables; with `--report DIR` writes answers.{md,json,png} and rewrite.{md,json} there."""
    if report_dir is not None:
        report_dir.mkdir(parents=True, exist_ok=True)
    if runs.answers is not None:
        summary = runs.answers.summary()
        click.echo("\n" + render_answers_text(runs.answers, summary))
        if report_dir is not None:
            _write_json(report_dir / "answers.json", answers_json(runs.answers))
            (report_dir / "answers.md").write_text(render_answers_markdown(runs.answers, summary), encoding="utf-8")
            write_answers_chart(runs.answers, summary, report_dir / "answers.png")
    if runs.rewrites is not None:
        summary = runs.rewrites.summary()
        click.echo("\n" + render_rewrite_text(runs.rewrites, summary))
        if report_dir is not None:
            _write_json(report_dir / "rewrite.json", rewrite_json(runs.rewrites))
            (report_dir / "rewrite.md").write_text(render_rewrite_markdown(runs.rewrites, summary), encoding="utf-8")
