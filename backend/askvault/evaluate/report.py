"""What an evaluation run becomes on screen and on disk: the terminal table and report.md (JSON: report_json)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askvault.evaluate.metrics import JsonValue
from askvault.evaluate.runner import EvalResult, HitRecord, ModeRun
from askvault.evaluate.tables import meta_table, num, table

TRAIL = " › "


# ----- tables ---------------------------------------------------------------------------------------


def _figures(summary: Mapping[str, JsonValue], mode: str) -> Mapping[str, JsonValue]:
    figures = summary[mode]
    assert isinstance(figures, Mapping)
    return figures


def _metric_keys(ks: Sequence[int]) -> list[str]:
    return [f"path_recall@{k}" for k in ks] + [f"evidence_recall@{k}" for k in ks] + ["mrr"]


def _short(key: str) -> str:
    return key.replace("path_recall@", "P@").replace("evidence_recall@", "E@").replace("mrr", "MRR")


def overall_table(result: EvalResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    keys = _metric_keys(result.ks)
    rows = []
    for mode in result.modes:
        figures = _figures(summary, mode)
        rows.append([mode, num(figures["answerable"]), *(num(figures[key]) for key in keys)])
    return table(["mode", "answerable", *(_short(key) for key in keys)], rows, markdown)


def _types(summary: Mapping[str, JsonValue], modes: Sequence[str], group: str = "by_type") -> list[str]:
    by_type = _figures(summary, modes[0]).get(group, {})
    assert isinstance(by_type, Mapping)
    return list(by_type)


def _type_figures(
    summary: Mapping[str, JsonValue], mode: str, type_: str, group: str = "by_type"
) -> Mapping[str, JsonValue]:
    by_type = _figures(summary, mode)[group]
    assert isinstance(by_type, Mapping)
    figures = by_type[type_]
    assert isinstance(figures, Mapping)
    return figures


def by_type_table(result: EvalResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    """One row per (answerable question type, mode): n, path and evidence recall at every k, MRR."""
    keys = _metric_keys(result.ks)
    rows = []
    for type_ in _types(summary, result.modes):
        for mode in result.modes:
            figures = _type_figures(summary, mode, type_)
            if not figures["answerable"]:
                continue
            rows.append([type_, mode, num(figures["answerable"]), *(num(figures[key]) for key in keys)])
    return table(["type", "mode", "n", *(_short(key) for key in keys)], rows, markdown)


def pivot_table(
    result: EvalResult, summary: Mapping[str, JsonValue], key: str, markdown: bool, group: str = "by_type"
) -> list[str]:
    """Question types (or, with `group="by_language"`, languages) down, modes across, one figure (e.g.
    evidence_recall@3) in the cells."""
    rows = [["all", *(num(_figures(summary, mode)[key]) for mode in result.modes)]]
    for type_ in _types(summary, result.modes, group):
        cells = [_type_figures(summary, mode, type_, group) for mode in result.modes]
        if cells[0]["answerable"]:
            label = type_ if group == "by_type" else f"{type_} (n={cells[0]['answerable']})"
            rows.append([label, *(num(figures[key]) for figures in cells)])
    return table([_short(key), *result.modes], rows, markdown)


def has_languages(result: EvalResult, summary: Mapping[str, JsonValue]) -> bool:
    """True when the questions are in more than one language (`metrics.summarise` adds `by_language`)."""
    return bool(result.modes) and "by_language" in _figures(summary, result.modes[0])


def _distribution_cell(figures: JsonValue) -> str:
    assert isinstance(figures, Mapping)
    if figures["min"] is None:
        return "–"
    return f"{num(figures['min'])} / {num(figures['median'])} / {num(figures['max'])}"


def top_score_table(result: EvalResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    """Top hit's fused, dense and keyword scores (min / median / max), negative vs answerable questions."""
    rows = []
    for mode in result.modes:
        tops = _figures(summary, mode)["top_scores"]
        assert isinstance(tops, Mapping)
        for group in ("negative", "answerable"):
            scores = tops[group]
            assert isinstance(scores, Mapping)
            rows.append([mode, group, *(_distribution_cell(scores[leg]) for leg in ("fused", "dense", "keyword"))])
    return table(["mode", "questions", "fused", "dense (cosine)", "keyword (BM25)"], rows, markdown)


def timing_table(result: EvalResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    """Seconds per question for each mode (mean, median, max) and what it adds over plain hybrid search."""
    baseline = _figures(summary, "hybrid").get("seconds_per_question") if "hybrid" in result.modes else None
    base_mean = baseline.get("mean") if isinstance(baseline, Mapping) else None
    rows = []
    for mode in result.modes:
        timing = _figures(summary, mode).get("seconds_per_question")
        if not isinstance(timing, Mapping):
            continue
        mean = timing.get("mean")
        added = "–"
        if mode != "hybrid" and isinstance(mean, int | float) and isinstance(base_mean, int | float):
            added = f"{mean - base_mean:+.3f}"
        rows.append([mode, num(mean), num(timing.get("median")), num(timing.get("max")), added])
    return table(["mode", "mean s", "median s", "max s", "vs hybrid"], rows, markdown)


def rerank_table(result: EvalResult, markdown: bool) -> list[str]:
    """The reranker's outcomes (`meta.mode_stats.rerank`): applied, and each fallback reason, with counts."""
    stats = result.meta.get("mode_stats")
    rerank = stats.get("rerank") if isinstance(stats, dict) else None
    outcomes = rerank.get("outcomes") if isinstance(rerank, dict) else None
    if not isinstance(rerank, dict) or not isinstance(outcomes, dict):
        return []
    total = sum(v for v in outcomes.values() if isinstance(v, int))
    rows = []
    for name, count in outcomes.items():
        kind = "fallback" if name.startswith("fallback:") else ""
        share = f"{count / total:.0%}" if isinstance(count, int) and total else "–"
        rows.append([name.removeprefix("fallback:"), kind, str(count), share])
    rows.append(["order changed (of applied)", "", num(rerank.get("order_changed")), ""])
    return table(["outcome", "", "questions", "share"], rows, markdown)


def _rank(value: int | None) -> str:
    return "–" if value is None else str(value)


def _hit_label(hit: HitRecord) -> str:
    trail = TRAIL.join(hit.heading_path)
    return (
        f"{hit.path}{TRAIL + trail if trail else ''} (L{hit.start_line}–{hit.end_line}; "
        f"dense {_rank(hit.dense_rank)}, keyword {_rank(hit.keyword_rank)})"
    )


def misses(result: EvalResult, mode: str, k: int) -> list[ModeRun]:
    """Answerable questions whose evidence is not in the mode's top k."""
    return [
        run
        for run in result.runs
        if run.score.mode == mode and run.question.answerable and not run.score.evidence_hit[k]
    ]


def _miss_lines(result: EvalResult, k: int) -> list[str]:
    lines: list[str] = []
    for mode in result.modes:
        missed = misses(result, mode, k)
        lines += ["", f"### {mode}: {len(missed)} evidence miss(es) in the top {k}"]
        for run in missed:
            found = run.first_evidence_rank
            where = f"evidence first at rank {found}" if found else f"evidence not in the top {max(result.ks)}"
            lines.append(
                f"- **{run.question.id}** ({run.question.type}, {where}; "
                f"path recall@{k} {num(run.score.path_recall[k], 2)}): {run.question.question}"
            )
            lines.append(f"  - expected: {', '.join(run.question.expected_paths)}")
            lines.extend(f"  - {hit.rank}. {_hit_label(hit)}" for hit in run.hits[:k])
            if found:
                lines.append(f"  - evidence: {found}. {_hit_label(run.hits[found - 1])}")
    return lines


def render_text(result: EvalResult, summary: Mapping[str, JsonValue]) -> str:
    """The table printed at the end of `askvault eval`."""
    k = result.ks[0]
    answerable = sum(1 for q in result.questions if q.answerable)
    lines = [
        f"{len(result.questions)} questions ({answerable} answerable), k = {', '.join(map(str, result.ks))}",
        "",
        *overall_table(result, summary, markdown=False),
    ]
    for key in (f"evidence_recall@{k}", f"path_recall@{k}", "mrr"):
        lines += ["", f"By question type: {key}", *pivot_table(result, summary, key, markdown=False)]
    if has_languages(result, summary):
        key = f"evidence_recall@{k}"
        lines += ["", f"By question language: {key}", *pivot_table(result, summary, key, False, "by_language")]
    lines += ["", "Top hit's score (min / median / max)", *top_score_table(result, summary, markdown=False)]
    lines += ["", "Seconds per question", *timing_table(result, summary, markdown=False)]
    reranker = rerank_table(result, markdown=False)
    if reranker:
        lines += ["", "Reranker outcomes", *reranker]
    for mode in result.modes:
        missed = misses(result, mode, k)
        if missed:
            lines.append(f"{mode}: evidence not in the top {k} for {', '.join(run.question.id for run in missed)}")
    return "\n".join(lines)


def render_markdown(result: EvalResult, summary: Mapping[str, JsonValue]) -> str:
    """report.md: metadata, overall and per-type tables, top scores, every evidence miss with what ranked above."""
    k = result.ks[0]
    lines = ["# Retrieval evaluation", "", *meta_table(result.meta)]
    lines += ["", "## Overall", "", *overall_table(result, summary, markdown=True)]
    lines += [
        "",
        f"## Evidence recall@{k} by question type",
        "",
        *pivot_table(result, summary, f"evidence_recall@{k}", True),
    ]
    if has_languages(result, summary):
        key = f"evidence_recall@{k}"
        lines += [
            "",
            f"## {_short(key)} by question language",
            "",
            *pivot_table(result, summary, key, True, "by_language"),
        ]
    lines += ["", "## By question type", "", *by_type_table(result, summary, markdown=True)]
    lines += [
        "",
        "## Top hit's score",
        "",
        "Min / median / max of the first hit's scores; a question whose top hit no leg scored shows –.",
        "",
        *top_score_table(result, summary, markdown=True),
    ]
    lines += [
        "",
        "## Seconds per question",
        "",
        "Wall time of each mode's retrieval (every mode embeds the question itself); `vs hybrid` is the mean it "
        "adds over plain hybrid search. Timings depend on the machine and the models; compare modes of one run.",
        "",
        *timing_table(result, summary, markdown=True),
    ]
    reranker = rerank_table(result, markdown=True)
    if reranker:
        lines += [
            "",
            "## Reranker outcomes",
            "",
            "How often the model's order was used, and why it was not (each fallback keeps the fused order): "
            "`malformed`, `wrong_shape`, `empty`, `unknown_id`, `duplicate_id`, `timeout`, `model_error`, "
            "`too_few_candidates` (docs/api.md).",
            "",
            *reranker,
        ]
    lines += ["", f"## Evidence misses at k = {k}", *_miss_lines(result, k)]
    return "\n".join(lines) + "\n"
