"""One run's figures per source type: Evidence Recall@3 and Path Recall@6 per mode for notes, PDFs and canvases.

Usage: `.venv/bin/python eval/source_types.py RUN.json [RUN.json…] [--evidence-k 3] [--path-k 6] [--misses]
[--calibration all-minilm]`

Each RUN.json is an `askvault eval --json` document (what `eval/run-builtin.sh` writes, e.g. for the documents
vault, `eval/documents-vault/README.md`). A question's source type is the kind of its first expected path, by its
suffix as the indexer reads it (`askvault.parse.documents.document_kind`: `note`, `pdf`, `canvas`, `text`); a
question without expected paths is a negative. Printed per run as one Markdown table, a row per source type: the
number of questions, then per mode Evidence Recall@3 (the share of questions with an evidence string in a top-3
chunk, and their count) and Path Recall@6 (the mean share of expected paths in the top 6), then how many the
shipped "not in your notes" decision (`askvault.ask.relevance.decide`, on the hybrid run's relevance signals, with
the calibration `eval/set_figures.py` picks) abstains on. For answerable rows an abstention is a miss; the
negatives' row has no recall, only its abstentions, which are right. `--misses` lists, per mode and source type,
the questions without an evidence hit or with part of their paths missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from askvault.ask.relevance import Calibration, calibration_for, decide
from askvault.embed.choice import BUILTIN, calibration_name, spec_from_setting
from askvault.parse.documents import document_kind
from set_figures import signals_of

NEGATIVE = "negative"
ORDER = ("note", "pdf", "canvas", "text", "other")
"""Source types in the order their rows are printed (only those a run has), before the total and the negatives."""

Question = Mapping[str, Any]


def source_type(question: Question) -> str:
    """The kind of the question's first expected path; `negative` when it has none."""
    paths: Sequence[str] = question["expected_paths"]
    if not paths:
        return NEGATIVE
    return document_kind(paths[0]) or "other"


def calibration_of(run: Mapping[str, Any], name: str | None) -> Calibration:
    """The calibration the product picks for the run's embedder, unless `name` gives another."""
    setting = run["meta"].get("embed_model")
    spec = spec_from_setting(setting) if setting else BUILTIN
    return calibration_for(name or calibration_name(spec))


def abstains(question: Question, calibration: Calibration) -> bool | None:
    """Whether the shipped decision declines to answer, from the hybrid run's signals; None without them."""
    hybrid = question["modes"].get("hybrid")
    if not hybrid or not hybrid.get("relevance"):
        return None
    return not decide(signals_of(hybrid["relevance"]), calibration).answer


def recall_cells(questions: Sequence[Question], mode: str, evidence_k: str, path_k: str) -> list[str]:
    """E@k as `share (count)` and P@k as the mean share, over the questions that ran in this mode."""
    ran = [q["modes"][mode] for q in questions if mode in q["modes"]]
    if not ran:
        return ["–", "–"]
    hits = sum(bool(m["evidence_hit"][evidence_k]) for m in ran)
    paths = sum(float(m["path_recall"][path_k]) for m in ran)
    return [f"{hits / len(ran):.3f} ({hits})", f"{paths / len(ran):.3f}"]


def abstained_cell(questions: Sequence[Question], calibration: Calibration) -> str:
    decided = [abstains(q, calibration) for q in questions]
    known = [d for d in decided if d is not None]
    return f"{sum(known)} / {len(known)}" if known else "–"


def table(run: Mapping[str, Any], calibration: Calibration, evidence_k: str, path_k: str) -> list[str]:
    modes: list[str] = list(run["modes"])
    groups: dict[str, list[Question]] = {}
    for question in run["per_question"]:
        groups.setdefault(source_type(question), []).append(question)
    answerable = [q for q in run["per_question"] if q["expected_paths"]]
    rows = [(kind, groups[kind]) for kind in ORDER if kind in groups]
    if len(rows) > 1:
        rows.append(("all answerable", answerable))
    heads = [f"{mode} {label}" for mode in modes for label in (f"E@{evidence_k}", f"P@{path_k}")]
    lines = [
        "| source | questions | " + " | ".join(heads) + " | abstained (hybrid) |",
        "|---|---|" + "---|" * len(heads) + "---|",
    ]
    for label, questions in rows:
        cells = [cell for mode in modes for cell in recall_cells(questions, mode, evidence_k, path_k)]
        lines.append(
            f"| {label} | {len(questions)} | " + " | ".join(cells) + f" | {abstained_cell(questions, calibration)} |"
        )
    negatives = groups.get(NEGATIVE, [])
    if negatives:
        blanks = ["–"] * len(heads)
        cells = [*blanks, abstained_cell(negatives, calibration)]
        lines.append(f"| {NEGATIVE} (should abstain) | {len(negatives)} | " + " | ".join(cells) + " |")
    return lines


def misses(run: Mapping[str, Any], evidence_k: str, path_k: str) -> list[str]:
    """Per mode and source type, the answerable questions that miss their evidence or part of their paths."""
    lines: list[str] = []
    for mode in run["modes"]:
        for question in run["per_question"]:
            figures = question["modes"].get(mode)
            if not question["expected_paths"] or figures is None:
                continue
            found: list[str] = []
            if not figures["evidence_hit"][evidence_k]:
                found.append(f"no evidence in the top {evidence_k} (first at {figures['first_evidence_rank']})")
            if float(figures["path_recall"][path_k]) < 1.0:
                found.append(f"P@{path_k} {float(figures['path_recall'][path_k]):.2f}")
            if found:
                lines.append(f"- {mode}, {source_type(question)}: {question['id']}: {'; '.join(found)}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+")
    parser.add_argument("--evidence-k", type=int, default=3, help="The k of Evidence Recall (default 3).")
    parser.add_argument("--path-k", type=int, default=6, help="The k of Path Recall (default 6).")
    parser.add_argument("--misses", action="store_true", help="List the questions each mode misses.")
    parser.add_argument("--calibration", default=None, help="The calibration's model name (default: the run's).")
    args = parser.parse_args()
    evidence_k, path_k = str(args.evidence_k), str(args.path_k)
    for number, path in enumerate(args.runs):
        run = json.loads(path.read_text(encoding="utf-8"))
        ks = [str(k) for k in run["ks"]]
        if evidence_k not in ks or path_k not in ks:
            print(f"{path}: the run measured k = {', '.join(ks)}, not {evidence_k} and {path_k}", file=sys.stderr)
            return 1
        meta = run["meta"]
        calibration = calibration_of(run, args.calibration)
        if number:
            print()
        print(
            f"{path.name}: {meta.get('notes')} files, {meta.get('chunks')} chunks, embedder {meta.get('embedder')}, "
            f"calibration {calibration.model} (threshold {calibration.threshold}), commit {meta.get('commit')}"
            f"{' (dirty)' if meta.get('commit_dirty') else ''}, {meta.get('date')}"
        )
        print()
        print("\n".join(table(run, calibration, evidence_k, path_k)))
        if args.misses:
            print()
            print("\n".join(misses(run, evidence_k, path_k)) or "No misses.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
