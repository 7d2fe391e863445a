"""What an answer evaluation becomes: answers.json, the terminal table, answers.md and answers.png."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from askvault.evaluate.answers import AnswerRun, AnswersResult
from askvault.evaluate.chart import PALETTE
from askvault.evaluate.metrics import JsonValue
from askvault.evaluate.report import TRAIL
from askvault.evaluate.tables import meta_table, table

ANSWER_EXCERPT = 400
"""Characters of an answer shown in the report's list of failures."""


def _run_json(run: AnswerRun) -> dict[str, JsonValue]:
    score = run.score
    return {
        "outcome": score.outcome,
        "answer": run.answer,
        "query": run.query,
        "done_reason": run.done_reason,
        "truncated": score.truncated,
        "citations": list(score.citations),
        "invalid_citations": list(score.invalid_citations),
        "citations_valid": score.citations_valid,
        "cited_sentence_share": score.cited_share,
        "grounded": score.grounded,
        "cites_every_source": score.cites_every_source,
        "has_sentence": score.has_sentence,
        "evidence_sent": score.evidence_sent,
        "value_stated": score.value_stated,
        "declined": score.declined,
        "first_token_s": score.first_token_s,
        "total_s": score.total_s,
        "prompt_tokens": score.prompt_tokens,
        "completion_tokens": score.completion_tokens,
        "relevance_score": run.relevance_score,
        "error": run.error,
        "sent": [
            {
                "n": s.n,
                "path": s.path,
                "heading_path": list(s.heading_path),
                "start_line": s.start_line,
                "end_line": s.end_line,
                "has_evidence": s.has_evidence,
            }
            for s in run.sent
        ],
    }


def answers_json(result: AnswersResult) -> dict[str, JsonValue]:
    """`{"meta", "questions", "models", "summary": {model: figures}, "per_question": [...]}`."""
    per_question: list[JsonValue] = [
        {
            "id": q.id,
            "type": q.type,
            "language": q.language,
            "question": q.question,
            "expected_paths": list(q.expected_paths),
            "evidence": list(q.evidence),
            "values": list(q.values),
            "models": {model: _run_json(result.run(q.id, model)) for model in result.models},
        }
        for q in result.questions
    ]
    return {
        "meta": dict(result.meta),
        "questions": len(result.questions),
        "models": list(result.models),
        "summary": result.summary(),
        "per_question": per_question,
    }


def _get(figures: Mapping[str, JsonValue], key: str) -> Mapping[str, JsonValue]:
    value = figures[key]
    assert isinstance(value, Mapping)
    return value


def _count(rate: Mapping[str, JsonValue]) -> str:
    if not rate["n"]:
        return "–"
    share = rate["rate"]
    assert isinstance(share, float | int)
    return f"{rate['yes']}/{rate['n']} ({share:.0%})"


def _spread(spread: Mapping[str, JsonValue], places: int = 2) -> str:
    if not spread["n"]:
        return "–"
    cells = [spread[key] for key in ("mean", "median", "max")]
    return " / ".join(f"{v:.{places}f}" if isinstance(v, float) else str(v) for v in cells)


def _share(value: JsonValue) -> str:
    return f"{value:.0%}" if isinstance(value, float | int) and not isinstance(value, bool) else "–"


ROWS: tuple[tuple[str, str, str], ...] = (
    ("answered", "answered", "int"),
    ("abstained (no model asked)", "abstained", "int"),
    ("errors", "errors", "int"),
    ("cut short", "truncated", "int"),
    ("… at the token cap (length)", "hit_token_cap", "int"),
    ("… a loop stopped (repetition)", "loop_stopped", "int"),
    ("citations all valid (of answered)", "citations_valid", "rate"),
    ("answers citing a source", "cites_something", "rate"),
    ("answers citing every sent source (of ≥ 2)", "cites_every_source", "rate"),
    ("answers without a sentence (only markers)", "no_sentence", "rate"),
    ("sentences with a citation (mean share)", "cited_sentence_share", "share"),
    ("grounded: a source cited on a sentence holds the evidence", "grounded", "rate"),
    ("evidence among the sent sources", "evidence_sent", "rate"),
    ("exact value stated", "value_stated", "rate"),
    ("negatives declined (abstained or said so)", "negatives_declined", "rate"),
    ("answerable declined or abstained", "answerable_declined", "rate"),
    ("first token s (mean / median / max)", "first_token_s", "spread"),
    ("total s (mean / median / max)", "total_s", "spread"),
    ("prompt tokens (mean / median / max)", "prompt_tokens", "spread0"),
    ("answer tokens (mean / median / max)", "completion_tokens", "spread0"),
)


def _cell(figures: Mapping[str, JsonValue], key: str, kind: str) -> str:
    value = figures[key]
    if kind == "int":
        return str(value)
    if kind == "share":
        return _share(value)
    if kind == "rate":
        return _count(_get(figures, key))
    return _spread(_get(figures, key), 0 if kind == "spread0" else 2)


def overall_table(result: AnswersResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    """Figures down, models across."""
    models = [_get(summary, model) for model in result.models]
    rows = [[label, *(_cell(figures, key, kind) for figures in models)] for label, key, kind in ROWS]
    return table([f"{len(result.questions)} questions", *result.models], rows, markdown)


def by_type_table(result: AnswersResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    """Question types down; per model: answered, citations valid, grounded, cited share, declined."""
    headers = ["type", "n"]
    for model in result.models:
        headers += [f"{model}: answered", "valid", "grounded", "cited", "declined"]
    types = list(_get(_get(summary, result.models[0]), "by_type"))
    rows = []
    for type_ in types:
        row = [type_]
        for index, model in enumerate(result.models):
            figures = _get(_get(_get(summary, model), "by_type"), type_)
            if index == 0:
                row.append(str(figures["questions"]))
            row += [
                str(figures["answered"]),
                _count(_get(figures, "citations_valid")),
                _count(_get(figures, "grounded")),
                _share(figures["cited_sentence_share"]),
                _count(_get(figures, "negatives_declined" if type_ == "negative" else "answerable_declined")),
            ]
        rows.append(row)
    return table(headers, rows, markdown)


def _problems(run: AnswerRun) -> list[str]:
    score = run.score
    found: list[str] = []
    if score.outcome == "error":
        found.append(f"error ({score.error_code})")
    if score.invalid_citations:
        found.append(f"cites unsent {', '.join(f'[{n}]' for n in score.invalid_citations)}")
    if score.truncated:
        found.append(f"cut short ({score.done_reason})")
    if not score.answerable and not score.declined:
        found.append("answered a negative")
    if score.grounded is False:
        found.append("no cited source holds the evidence" if score.citations else "cites nothing")
    if score.cites_every_source:
        found.append("cites every source")
    if score.has_sentence is False:
        found.append("no sentence")
    if score.value_stated is False:
        found.append("value not stated")
    return found


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= ANSWER_EXCERPT else flat[: ANSWER_EXCERPT - 1] + "…"


def failure_lines(result: AnswersResult) -> list[str]:
    lines: list[str] = []
    for model in result.models:
        failed = [(run, _problems(run)) for run in result.runs if run.score.model == model]
        failed = [(run, problems) for run, problems in failed if problems]
        lines += ["", f"### {model}: {len(failed)} answer(s) with a problem"]
        for run, problems in failed:
            q = run.question
            lines.append(f"- **{q.id}** ({q.type}; {'; '.join(problems)}): {q.question}")
            lines.append(f"  - answer: {_excerpt(run.answer) or '(empty)'}")
            sent = ", ".join(
                f"[{s.n}] {s.path}{TRAIL if s.heading_path else ''}{TRAIL.join(s.heading_path)}"
                + (" (evidence)" if s.has_evidence else "")
                for s in run.sent
            )
            if sent:
                lines.append(f"  - sent: {sent}")
    return lines


def render_answers_text(result: AnswersResult, summary: Mapping[str, JsonValue]) -> str:
    return "\n".join(["Answers", *overall_table(result, summary, markdown=False)])


def render_answers_markdown(result: AnswersResult, summary: Mapping[str, JsonValue]) -> str:
    """answers.md: metadata, the models side by side, per question type, then every answer with a problem."""
    lines = ["# Answer evaluation", "", *meta_table(result.meta)]
    lines += [
        "",
        "## Models side by side",
        "",
        "Every question through the real answer pipeline (as `/api/ask`, no history). Rates say over how many "
        "questions they apply: citation figures over answered questions, grounding over answered answerable "
        "ones, values over answered `exact_value` questions with `values`. Seconds from the call; tokens are "
        "Ollama's own counts (`prompt_eval_count`, `eval_count`).",
        "",
        *overall_table(result, summary, markdown=True),
    ]
    lines += [
        "",
        "## By question type",
        "",
        "`declined` is the negatives declined for `negative`, else answerable questions declined or abstained.",
        "",
        *by_type_table(result, summary, markdown=True),
    ]
    lines += ["", "## Answers with a problem", *failure_lines(result)]
    return "\n".join(lines) + "\n"


CHART_KEYS: tuple[tuple[str, str], ...] = (
    ("citations valid", "citations_valid"),
    ("sentences cited", "cited_sentence_share"),
    ("grounded", "grounded"),
    ("value stated", "value_stated"),
    ("negatives declined", "negatives_declined"),
    ("answerable declined", "answerable_declined"),
)


def _chart_value(figures: Mapping[str, JsonValue], key: str) -> float | None:
    value = figures[key]
    if isinstance(value, Mapping):
        value = value["rate"]
    return float(value) if isinstance(value, float | int) and not isinstance(value, bool) else None


def write_answers_chart(result: AnswersResult, summary: Mapping[str, JsonValue], path: Path) -> None:
    """Grouped bars, one group per figure and one bar per model; the same numbers give the same bytes."""
    models: Sequence[str] = result.models
    labels = [label for label, _ in CHART_KEYS]
    width = 0.8 / len(models)
    figure = Figure(figsize=(max(6.0, 1.2 * len(labels) + 1.5), 4.2), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for index, model in enumerate(models):
        figures = _get(summary, model)
        values = [_chart_value(figures, key) for _, key in CHART_KEYS]
        positions = [i + (index - (len(models) - 1) / 2) * width for i in range(len(labels))]
        heights = [v if v is not None else 0.0 for v in values]
        bars = axes.bar(positions, heights, width, label=model, color=PALETTE[index % len(PALETTE)])
        axes.bar_label(bars, labels=[f"{v:.2f}" if v is not None else "–" for v in values], fontsize=6, padding=1)
    axes.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
    axes.set_ylim(0, 1.22)
    axes.set_ylabel("share of the questions it applies to")
    axes.set_title(f"Answers by chat model ({len(result.questions)} questions)", fontsize=10)
    axes.legend(fontsize=8, loc="upper center", ncols=len(models), frameon=False)
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", metadata={"Software": None})
