"""How much of what a run would send says nothing: the share of each mode's top sources that are template, link or
query lines, judged line by line by one classifier, so runs of any commit and the reference mode compare alike.

Usage: `.venv/bin/python eval/noise_share.py --vault VAULT RUN.json [RUN.json…] [--sent 6]`

Every note of VAULT is parsed and its body lines classified as `askvault.chunk.boilerplate` classifies them (the
vault's template lines, link lines, query blocks); a hit's shares are those of the lines in its range. Per run and
mode, over the answerable questions: how many of the first `--sent` hits (what the answer pipeline sends, before
its character budget) are mostly (more than half) template or query lines, mostly link lines, or either, and how
many of those questions still have an evidence hit in the first `--sent`. Printed as Markdown.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from askvault.chunk.boilerplate import LineKind, body_lines, line_kinds, note_signatures, template_signatures
from askvault.parse.decode import decode_note, normalize_newlines
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

Kinds = dict[str, tuple[dict[int, LineKind], dict[int, int]]]


def classify(vault: Path) -> Kinds:
    """Every note's line kinds and visible line lengths, with the vault's own template lines."""
    files = sorted(p for p in vault.rglob("*.md") if ".obsidian" not in p.relative_to(vault).parts)
    resolver = LinkResolver({p.relative_to(vault).as_posix() for p in files})
    parsed = {}
    counts: Counter[int] = Counter()
    for file in files:
        path = file.relative_to(vault).as_posix()
        text = decode_note(file.read_bytes())
        note = parse_note(path, text, resolver)
        parsed[path] = (note, normalize_newlines(text.removeprefix("\ufeff")).split("\n"))
        counts.update(note_signatures(note))
    templates = template_signatures(counts, len(files))
    kinds: Kinds = {}
    for path, (note, source) in parsed.items():
        lines = body_lines(note)
        found = line_kinds(note, source, templates)
        kinds[path] = (found, {n: len(lines[n].strip()) for n in found})
    return kinds


def hit_kind(kinds: Kinds, hit: Mapping[str, Any]) -> str:
    """ "boilerplate" (template or query lines are more than half of it), "links", or "prose"."""
    found, weights = kinds.get(hit["path"], ({}, {}))
    totals: Counter[str] = Counter()
    for line in range(int(hit["start_line"]), int(hit["end_line"]) + 1):
        if line in found:
            totals[found[line]] += weights[line]
    whole = sum(totals.values())
    if not whole:
        return "prose"
    if (totals["template"] + totals["query"]) * 2 > whole:
        return "boilerplate"
    if totals["links"] * 2 > whole:
        return "links"
    return "prose"


def report(run: Path, kinds: Kinds, sent: int) -> list[str]:
    data = json.loads(run.read_text(encoding="utf-8"))
    rows = []
    for mode in data["modes"]:
        tally: Counter[str] = Counter()
        questions = evidence = 0
        for question in data["per_question"]:
            if not question["expected_paths"]:
                continue
            hits = question["modes"][mode]["hits"][:sent]
            questions += 1
            evidence += any(hit["has_evidence"] for hit in hits)
            tally.update(hit_kind(kinds, hit) for hit in hits)
        total = sum(tally.values()) or 1
        noisy = tally["boilerplate"] + tally["links"]
        shares = " | ".join(f"{n} ({n / total:.1%})" for n in (tally["boilerplate"], tally["links"], noisy))
        rows.append(f"| {run.stem} | {mode} | {questions} | {total} | {shares} | {evidence} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--sent", type=int, default=6)
    parser.add_argument("runs", type=Path, nargs="+")
    args = parser.parse_args(argv)
    kinds = classify(args.vault)
    print(
        f"| run | mode | questions | top-{args.sent} sources | boilerplate | link lists | either | evidence in them |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for run in args.runs:
        print("\n".join(report(run, kinds, args.sent)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
