"""The answer evaluation: every question through the real answer pipeline (as /api/ask runs it), per chat model."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import aclosing, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from datetime import time as clock_time
from pathlib import Path

from askvault.ask.events import DoneEvent, ErrorEvent, RetrievalEvent, TokenEvent
from askvault.ask.pipeline import AnswerPipeline
from askvault.errors import ConfigError, ModelMissing, ModelUnreachable
from askvault.evaluate.answer_metrics import AnswerScore, Outcome, score_answer, summarise_answers
from askvault.evaluate.metrics import JsonValue, evidence_hit_at_k
from askvault.evaluate.questions import Question
from askvault.evaluate.runner import NoteLines
from askvault.query.dates import reference_now


@dataclass(frozen=True, slots=True)
class SentSource:
    """One source the model was given, as the report shows it."""

    n: int
    path: str
    heading_path: tuple[str, ...]
    start_line: int
    end_line: int
    has_evidence: bool


@dataclass(frozen=True, slots=True)
class AnswerRun:
    """One question answered by one chat model: what it said, what it was given, and the score."""

    question: Question
    score: AnswerScore
    answer: str
    query: str
    """What retrieval searched for (the question itself: the evaluation asks without history)."""
    sent: tuple[SentSource, ...]
    relevance_score: float | None
    done_reason: str | None
    error: str | None = None


@dataclass(frozen=True)
class AnswersResult:
    questions: tuple[Question, ...]
    models: tuple[str, ...]
    runs: tuple[AnswerRun, ...]
    """Model-major: every question for the first model, then the second…"""
    meta: dict[str, JsonValue] = field(default_factory=dict)

    def summary(self) -> dict[str, JsonValue]:
        return summarise_answers([run.score for run in self.runs])

    def run(self, question_id: str, model: str) -> AnswerRun:
        for run in self.runs:
            if run.question.id == question_id and run.score.model == model:
                return run
        raise KeyError(f"no answer for question {question_id!r} from model {model!r}")


def _sent(retrieval: RetrievalEvent | None, question: Question, lines: NoteLines) -> tuple[SentSource, ...]:
    if retrieval is None:
        return ()
    sources: list[SentSource] = []
    for source in retrieval.sources:
        if source.n is None:
            continue
        chunk = source.hit.chunk
        original = lines.text(chunk.path, chunk.start_line, chunk.end_line)
        evidence = question.answerable and evidence_hit_at_k([original], question.evidence, 1)
        sources.append(SentSource(source.n, chunk.path, chunk.heading_path, chunk.start_line, chunk.end_line, evidence))
    return tuple(sources)


async def answer_question(question: Question, model: str, pipeline: AnswerPipeline, lines: NoteLines) -> AnswerRun:
    """Asks the question once, with no history, as /api/ask would (a `now` pins the clock to noon that day).

    Raises ModelMissing or ModelUnreachable when the chat model is not there: every other answer would fail the
    same way, and a run of errors is not a measurement.
    """
    pinned = reference_now(datetime.combine(question.now, clock_time(12))) if question.now else nullcontext()
    retrieval: RetrievalEvent | None = None
    done: DoneEvent | None = None
    error: ErrorEvent | None = None
    parts: list[str] = []
    first_token_s: float | None = None
    started = time.perf_counter()
    with pinned:
        async with aclosing(pipeline.run(question.question)) as events:
            async for event in events:
                if isinstance(event, RetrievalEvent):
                    retrieval = event
                elif isinstance(event, TokenEvent):
                    # A model was asked only when there is a prompt; otherwise the one token is the canned line.
                    if first_token_s is None and retrieval is not None and retrieval.prompt:
                        first_token_s = round(time.perf_counter() - started, 3)
                    parts.append(event.text)
                elif isinstance(event, DoneEvent):
                    done = event
                elif isinstance(event, ErrorEvent):
                    error = event
    total_s = round(time.perf_counter() - started, 3)
    if error is not None and error.code == ModelMissing.code:
        raise ModelMissing(model, error.message)
    if error is not None and error.code == ModelUnreachable.code:
        raise ModelUnreachable(error.message)
    outcome: Outcome = "error" if done is None else ("abstained" if done.no_results else "answered")
    answer = done.answer if done is not None else (error.partial if error is not None else "".join(parts))
    sent = _sent(retrieval, question, lines)
    metrics = done.metrics if done is not None else None
    score = score_answer(
        question_id=question.id,
        type=question.type,
        model=model,
        answerable=question.answerable,
        values=question.values,
        outcome=outcome,
        answer=answer,
        citations=done.citations if done is not None else (),
        invalid_citations=done.invalid_citations if done is not None else (),
        sent_evidence={source.n: source.has_evidence for source in sent},
        truncated=done.truncated if done is not None else False,
        done_reason=done.done_reason if done is not None else None,
        first_token_s=first_token_s,
        total_s=total_s,
        prompt_tokens=metrics.prompt_tokens if metrics is not None else None,
        completion_tokens=metrics.completion_tokens if metrics is not None else None,
        error_code=error.code if error is not None else None,
    )
    relevance = retrieval.relevance if retrieval is not None else None
    return AnswerRun(
        question=question,
        score=score,
        answer=answer,
        query=retrieval.query if retrieval is not None else question.question,
        sent=sent,
        relevance_score=round(relevance.score, 4) if relevance is not None else None,
        done_reason=done.done_reason if done is not None else None,
        error=f"{error.code}: {error.message}" if error is not None else None,
    )


async def run_answers(
    questions: Sequence[Question],
    pipelines: Mapping[str, AnswerPipeline],
    vault: Path,
    *,
    on_step: Callable[[AnswerRun], None] | None = None,
    meta: dict[str, JsonValue] | None = None,
) -> AnswersResult:
    """Every question through every model's pipeline (model by model), against an up-to-date index of `vault`."""
    if not questions:
        raise ConfigError("the question file holds no questions")
    if not pipelines:
        raise ConfigError("--chat-model: name at least one chat model")
    lines = NoteLines(vault)
    runs: list[AnswerRun] = []
    for model, pipeline in pipelines.items():
        for question in questions:
            run = await answer_question(question, model, pipeline, lines)
            runs.append(run)
            if on_step is not None:
                on_step(run)
    return AnswersResult(tuple(questions), tuple(pipelines), tuple(runs), dict(meta or {}))
