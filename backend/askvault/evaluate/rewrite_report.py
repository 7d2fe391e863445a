"""What a rewrite measurement becomes: rewrite.json, the terminal table and rewrite.md."""

from __future__ import annotations

from collections.abc import Mapping

from askvault.evaluate.metrics import JsonValue
from askvault.evaluate.rewrite_eval import RewriteResult, rewrite_variant
from askvault.evaluate.runner import ModeRun
from askvault.evaluate.tables import meta_table, num, table

VARIANT_NOTES = {
    "as_is": "the follow-up as typed, no rewriting",
    "standalone": "the follow-up written standalone by hand",
    "fallback": "the rule-based fallback: previous question + follow-up",
}


def _hit(run: ModeRun) -> dict[str, JsonValue]:
    return {
        "query": run.question.question,
        "evidence_hit": {str(k): v for k, v in run.score.evidence_hit.items()},
        "path_recall": {str(k): v for k, v in run.score.path_recall.items()},
        "first_evidence_rank": run.first_evidence_rank,
        "seconds": run.seconds,
    }


def rewrite_json(result: RewriteResult) -> dict[str, JsonValue]:
    per_conversation: list[JsonValue] = []
    for c in result.conversations:
        per_conversation.append(
            {
                "id": c.id,
                "kind": c.kind,
                "first": c.first,
                "first_answer": c.first_answer,
                "followup": c.followup,
                "standalone": c.standalone,
                "expected_paths": list(c.expected_paths),
                "evidence": list(c.evidence),
                "variants": {variant: _hit(result.run(c.id, variant)) for variant in result.variants},
                "rewrites": {
                    r.model: {"query": r.query, "used_model": r.used_model, "seconds": r.seconds}
                    for r in result.rewrites
                    if r.conversation_id == c.id
                },
            }
        )
    return {
        "meta": dict(result.meta),
        "conversations": len(result.conversations),
        "ks": list(result.ks),
        "variants": list(result.variants),
        "summary": result.summary(),
        "per_conversation": per_conversation,
    }


def _figures(summary: Mapping[str, JsonValue], variant: str) -> Mapping[str, JsonValue]:
    figures = summary[variant]
    assert isinstance(figures, Mapping)
    return figures


def variant_table(result: RewriteResult, summary: Mapping[str, JsonValue], markdown: bool) -> list[str]:
    """One row per variant: evidence recall at each k, path recall at the first, MRR, and for model rewrites how
    often the model's reply was used and its seconds."""
    k0 = result.ks[0]
    headers = ["query", *(f"E@{k}" for k in result.ks), f"P@{k0}", "MRR", "model used", "rewrite s (mean / max)"]
    rows = []
    for variant in result.variants:
        figures = _figures(summary, variant)
        used = "–"
        seconds = "–"
        if "model_used" in figures:
            used = f"{figures['model_used']}/{len(result.conversations)}"
            seconds = f"{num(figures['rewrite_seconds_mean'], 2)} / {num(figures['rewrite_seconds_max'], 2)}"
        rows.append(
            [
                variant,
                *(num(figures[f"evidence_recall@{k}"]) for k in result.ks),
                num(figures[f"path_recall@{k0}"]),
                num(figures["mrr"]),
                used,
                seconds,
            ]
        )
    return table(headers, rows, markdown)


def _rank(run: ModeRun) -> str:
    rank = run.first_evidence_rank
    return "–" if rank is None else str(rank)


def conversation_lines(result: RewriteResult) -> list[str]:
    """Per conversation: where the evidence ranked under each variant, and what each model searched for."""
    headers = ["id", "kind", *result.variants]
    rows = [[c.id, c.kind, *(_rank(result.run(c.id, v)) for v in result.variants)] for c in result.conversations]
    lines = [*table(headers, rows, markdown=True), ""]
    for c in result.conversations:
        lines.append(f"- **{c.id}** {c.followup} — standalone: {c.standalone}")
        for record in result.rewrites:
            if record.conversation_id == c.id:
                how = "model" if record.used_model else "fallback"
                lines.append(f"  - {rewrite_variant(record.model)} ({how}): {record.query}")
    return lines


def render_rewrite_text(result: RewriteResult, summary: Mapping[str, JsonValue]) -> str:
    title = f"Follow-up rewriting ({len(result.conversations)} conversations, hybrid search)"
    return "\n".join([title, *variant_table(result, summary, markdown=False)])


def render_rewrite_markdown(result: RewriteResult, summary: Mapping[str, JsonValue]) -> str:
    lines = ["# Follow-up rewriting", "", *meta_table(result.meta), ""]
    lines += [
        "## Evidence recall by query",
        "",
        "Each conversation's follow-up searched with hybrid search under each query: "
        + "; ".join(f"`{name}`: {note}" for name, note in VARIANT_NOTES.items())
        + "; `rewrite:<model>`: what the answer pipeline's rewriter (`ask/rewrite.py`) made of it with that model "
        "(its fallback when the reply was unusable).",
        "",
        *variant_table(result, summary, markdown=True),
    ]
    lines += ["", "## Rank of the first evidence chunk per conversation", "", *conversation_lines(result)]
    return "\n".join(lines) + "\n"
