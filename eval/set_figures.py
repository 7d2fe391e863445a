"""One run's figures per question set: E@3 counts per mode, P@6, and what the relevance decision abstains on.

Usage: `.venv/bin/python eval/set_figures.py RUN.json SET.jsonl… [--calibration all-minilm]`

RUN.json is an `askvault eval --json` document whose question file held several sets together (as
`eval/run-builtin.sh` runs them); each SET.jsonl names the ids of one set. Printed as one Markdown row per set:
answerable and negative counts, Evidence Recall@3 as a count per mode, Path Recall@6 of hybrid and reference,
and how many negatives and answerable questions the shipped "not in your notes" decision
(`askvault.ask.relevance.decide`) abstains on, from the hybrid run's relevance signals. The calibration is the
one the product picks for the run's embedder (`askvault.embed.choice.calibration_name`: the built-in
all-MiniLM-L6-v2 is `all-minilm`'s) unless `--calibration` names another.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from askvault.ask.relevance import RelevanceSignals, calibration_for, decide
from askvault.embed.choice import BUILTIN, calibration_name, spec_from_setting


def ids_of(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def signals_of(raw: Mapping[str, Any]) -> RelevanceSignals:
    return RelevanceSignals(
        top_dense=raw["top_dense"],
        keyword_strength=raw["keyword_strength"],
        term_coverage=raw["term_coverage"],
        legs_agree=bool(raw["legs_agree"]),
        dense_gap=raw["dense_gap"],
        dense_available=bool(raw.get("dense_available", True)),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("sets", type=Path, nargs="+")
    parser.add_argument("--calibration", default=None, help="The calibration's model name (default: the run's).")
    args = parser.parse_args()
    run = json.loads(args.run.read_text(encoding="utf-8"))
    meta = run["meta"]
    # `embed_model` is the model that ran (the setting in runs before 2026-12-03, unset then for the built-in one).
    setting = meta.get("embed_model")
    spec = spec_from_setting(setting) if setting else BUILTIN
    calibration = calibration_for(args.calibration or calibration_name(spec))
    modes: list[str] = list(run["modes"])
    by_id = {question["id"]: question for question in run["per_question"]}
    print(
        f"{args.run.name}: {meta.get('notes')} notes, {meta.get('chunks')} chunks, "
        f"embedder {meta.get('embedder') or spec.label}, "
        f"calibration {calibration.model} (threshold {calibration.threshold}), commit {meta.get('commit')}"
        f"{' (dirty)' if meta.get('commit_dirty') else ''}, {meta.get('date')}"
    )
    print()
    heads = [f"{mode} E@3" for mode in modes] + [f"{mode} P@6" for mode in modes if mode in ("hybrid", "reference")]
    print("| set | answerable | negatives | " + " | ".join(heads) + " | negatives abstained | answerable abstained |")
    print("|---|---|---|" + "---|" * len(heads) + "---|---|")
    for path in args.sets:
        questions = [by_id[i] for i in ids_of(path)]
        answerable = [q for q in questions if q["expected_paths"]]
        negatives = [q for q in questions if not q["expected_paths"]]
        cells = [
            str(sum(bool(q["modes"][mode]["evidence_hit"]["3"]) for q in answerable)) if answerable else "–"
            for mode in modes
        ]
        for mode in modes:
            if mode in ("hybrid", "reference"):
                total = sum(q["modes"][mode]["path_recall"]["6"] for q in answerable)
                cells.append(f"{total / len(answerable):.3f} ({total:g})" if answerable else "–")
        abstained = {
            q["id"]
            for q in questions
            if "hybrid" in q["modes"] and not decide(signals_of(q["modes"]["hybrid"]["relevance"]), calibration).answer
        }
        neg = sum(q["id"] in abstained for q in negatives)
        ans = [q["id"] for q in answerable if q["id"] in abstained]
        which = f" ({', '.join(ans)})" if ans else ""
        cells += [f"{neg} / {len(negatives)}", f"{len(ans)} / {len(answerable)}{which}"]
        print(f"| {path.stem} | {len(answerable)} | {len(negatives)} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
