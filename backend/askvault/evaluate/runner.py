"""The evaluation run: every question through every mode, scored on the hits' original note lines."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from datetime import time as clock_time
from pathlib import Path
from types import TracebackType

from askvault.ask.relevance import RelevanceSignals
from askvault.errors import ConfigError
from askvault.evaluate.files import EvalFiles
from askvault.evaluate.metrics import JsonValue, QuestionScore, evidence_hit_at_k, score_question, summarise
from askvault.evaluate.modes import EvalMode
from askvault.evaluate.questions import Question
from askvault.model import Hit
from askvault.query.dates import reference_now

DEFAULT_KS = (3, 6, 10)
MAX_K = 50


def parse_ks(text: str) -> tuple[int, ...]:
    """'3,6,10' → (3, 6, 10): sorted, duplicates dropped; ConfigError for anything else."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"-k: {text!r} is not a comma-separated list of whole numbers (like 3,6,10)")
    ks = sorted({int(part) for part in parts})
    if ks[0] < 1 or ks[-1] > MAX_K:
        raise ConfigError(f"-k: every k must be between 1 and {MAX_K}, got {text!r}")
    return tuple(ks)


def parse_mode_names(text: str) -> tuple[str, ...]:
    """'dense, hybrid' → ('dense', 'hybrid'), in the order given, duplicates dropped; names are checked later."""
    names = [part.strip() for part in text.split(",")]
    if not all(names):
        raise ConfigError(f"--modes: {text!r} is not a comma-separated list of mode names (like dense,keyword,hybrid)")
    return tuple(dict.fromkeys(names))


class NoteLines:
    """Reads a hit's original lines from its file (not the rendered chunk text), each file once per run.

    The lines are those the chunk's line numbers count (`EvalFiles`): a note's own, a canvas's Markdown, a PDF's
    page text under its `Page N` headings. `files` reads them (None: files of its own, stopped by `close()`).
    """

    def __init__(self, vault: Path, files: EvalFiles | None = None) -> None:
        self._owned = files is None
        self._files = EvalFiles(vault) if files is None else files

    def text(self, path: str, start_line: int, end_line: int) -> str:
        """Lines start_line..end_line (1-based, inclusive) joined by newlines; "" when the file is gone."""
        lines = self._files.lines(path)
        if lines is None:
            return ""
        return "\n".join(lines[max(start_line, 1) - 1 : end_line])

    def close(self) -> None:
        """Stops the files' PDF extractor if they are this reader's own (shared files are their owner's to close)."""
        if self._owned:
            self._files.close()

    def __enter__(self) -> NoteLines:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class HitRecord:
    """One ranked hit as the report shows it."""

    rank: int
    path: str
    heading_path: tuple[str, ...]
    start_line: int
    end_line: int
    fused_score: float
    dense_rank: int | None
    keyword_rank: int | None
    dense_score: float | None
    keyword_score: float | None
    expected_note: bool
    """The hit's note is one of the question's expected paths."""
    has_evidence: bool
    """The hit's original lines hold an evidence string (whitespace-normalised)."""


@dataclass(frozen=True, slots=True)
class ModeRun:
    """One question through one mode: its score and the hits it was scored on."""

    question: Question
    score: QuestionScore
    hits: tuple[HitRecord, ...]
    seconds: float = 0.0
    """Wall time of the mode's retrieval for this question (search, plus reranking in the rerank mode)."""
    relevance: RelevanceSignals | None = None
    """The "not in your notes" signals of this search (hybrid only), for reporting and calibrating the decision."""

    @property
    def first_evidence_rank(self) -> int | None:
        return next((hit.rank for hit in self.hits if hit.has_evidence), None)

    @property
    def first_expected_rank(self) -> int | None:
        return next((hit.rank for hit in self.hits if hit.expected_note), None)


@dataclass(frozen=True)
class EvalResult:
    """Everything a run produced; `summary()` and the report are computed from it alone."""

    questions: tuple[Question, ...]
    ks: tuple[int, ...]
    modes: tuple[str, ...]
    runs: tuple[ModeRun, ...]
    """Question-major: every mode of the first question, then the second…"""
    meta: dict[str, JsonValue] = field(default_factory=dict)

    def run(self, question_id: str, mode: str) -> ModeRun:
        for run in self.runs:
            if run.question.id == question_id and run.score.mode == mode:
                return run
        raise KeyError(f"no run for question {question_id!r} in mode {mode!r}")

    def summary(self) -> dict[str, JsonValue]:
        """`metrics.summarise` per mode, plus the top hit's fused, dense and keyword scores by answerability."""
        modes = summarise([run.score for run in self.runs], self.ks)
        for mode in self.modes:
            figures = modes[mode]
            assert isinstance(figures, dict)
            runs = [run for run in self.runs if run.score.mode == mode]
            figures["top_scores"] = {
                "answerable": _top_scores([r for r in runs if r.question.answerable]),
                "negative": _top_scores([r for r in runs if not r.question.answerable]),
            }
            timing = distribution([r.seconds for r in runs])
            timing["mean"] = round(statistics.fmean(r.seconds for r in runs), 4) if runs else None
            figures["seconds_per_question"] = timing
        return modes


def distribution(values: Sequence[float | None]) -> dict[str, JsonValue]:
    """min / median / max of the values that exist, and how many did not."""
    present = sorted(v for v in values if v is not None)
    return {
        "questions": len(values),
        "missing": len(values) - len(present),
        "min": present[0] if present else None,
        "median": statistics.median(present) if present else None,
        "max": present[-1] if present else None,
    }


def _top_scores(runs: Sequence[ModeRun]) -> dict[str, JsonValue]:
    tops = [run.hits[0] if run.hits else None for run in runs]
    return {
        "fused": distribution([t.fused_score if t else None for t in tops]),
        "dense": distribution([t.dense_score if t else None for t in tops]),
        "keyword": distribution([t.keyword_score if t else None for t in tops]),
    }


def _record(rank: int, hit: Hit, question: Question, lines: NoteLines) -> tuple[HitRecord, str]:
    chunk = hit.chunk
    original = lines.text(chunk.path, chunk.start_line, chunk.end_line)
    evidence = question.answerable and evidence_hit_at_k([original], question.evidence, 1)
    record = HitRecord(
        rank=rank,
        path=chunk.path,
        heading_path=chunk.heading_path,
        start_line=chunk.start_line,
        end_line=chunk.end_line,
        fused_score=hit.fused_score,
        dense_rank=hit.dense_rank,
        keyword_rank=hit.keyword_rank,
        dense_score=hit.dense_score,
        keyword_score=hit.keyword_score,
        expected_note=chunk.path in question.expected_paths,
        has_evidence=evidence,
    )
    return record, original


async def run_mode(question: Question, mode: EvalMode, ks: Sequence[int], lines: NoteLines) -> ModeRun:
    """Ranks max(ks) chunks for the question and scores them against its expected notes and evidence.

    A question with a `now` is asked at noon (local time) of that day, so its date phrases resolve the same
    in every run.
    """
    pinned = reference_now(datetime.combine(question.now, clock_time(12))) if question.now else nullcontext()
    started = time.perf_counter()
    with pinned:
        hits = list(await mode.retrieve(question.question, max(ks)))[: max(ks)]
    seconds = round(time.perf_counter() - started, 4)
    relevance = mode.relevance() if mode.relevance is not None else None
    pairs = [_record(rank, hit, question, lines) for rank, hit in enumerate(hits, start=1)]
    records = tuple(record for record, _ in pairs)
    score = score_question(
        question_id=question.id,
        type=question.type,
        mode=mode.name,
        expected_paths=question.expected_paths,
        evidence=question.evidence,
        ranked_paths=[record.path for record in records],
        ranked_texts=[original for _, original in pairs],
        top_score=records[0].fused_score if records else None,
        ks=ks,
        language=question.language,
    )
    return ModeRun(question=question, score=score, hits=records, seconds=seconds, relevance=relevance)


async def run_evaluation(
    questions: Sequence[Question],
    modes: Sequence[EvalMode],
    ks: Sequence[int],
    vault: Path,
    *,
    on_step: Callable[[ModeRun], None] | None = None,
    meta: dict[str, JsonValue] | None = None,
    files: EvalFiles | None = None,
) -> EvalResult:
    """Runs every question through every mode against an index of `vault` that is already up to date.

    `files` reads the hits' files (None: files of this run's own, closed when it ends).
    """
    if not questions:
        raise ConfigError("the question file holds no questions")
    if not modes:
        raise ConfigError("--modes: name at least one mode")
    if not ks:
        raise ConfigError("-k: name at least one k")
    runs: list[ModeRun] = []
    with NoteLines(vault, files) as lines:
        for question in questions:
            for mode in modes:
                run = await run_mode(question, mode, ks, lines)
                runs.append(run)
                if on_step is not None:
                    on_step(run)
    meta = dict(meta or {})
    stats: dict[str, JsonValue] = {mode.name: mode.stats() for mode in modes if mode.stats is not None}
    if stats:
        meta["mode_stats"] = stats
    return EvalResult(
        questions=tuple(questions),
        ks=tuple(ks),
        modes=tuple(mode.name for mode in modes),
        runs=tuple(runs),
        meta=meta,
    )
