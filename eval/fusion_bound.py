"""How far fusion alone could go: per `--dump-legs` file, the fused Evidence@k beside the bound no fusion can pass.

Usage: `.venv/bin/python eval/fusion_bound.py LEGS.jsonl… [-k 3] [--questions SET.jsonl]`

For each file (one `askvault eval --dump-legs` run), over its answerable questions: the product's fused E@k, how
many have evidence in either leg's top k, and the dominance bound of `askvault.evaluate.fusion_bound` (the most
that any fusion increasing in both legs' scores could find). `--questions` counts only the questions of one set
(e.g. a blind set, when the run held the old and blind sets together).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from askvault.evaluate.fusion_bound import reachable


def _ids(path: Path | None) -> set[str] | None:
    if path is None:
        return None
    return {json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("legs", type=Path, nargs="+")
    parser.add_argument("-k", type=int, default=3)
    parser.add_argument("--questions", type=Path, default=None)
    args = parser.parse_args()
    only = _ids(args.questions)
    k: int = args.k
    print(f"| run | answerable | fused E@{k} | either leg's top {k} | bound |")
    print("|---|---|---|---|---|")
    for path in args.legs:
        n = fused = either = bound = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if not record["answerable"] or (only is not None and record["id"] not in only):
                continue
            evidence = {cid for cid, chunk in record["chunks"].items() if chunk["has_evidence"]}
            dense = [cid for cid, _ in record["dense"]]
            keyword = [cid for cid, _ in record["keyword"]]
            n += 1
            fused += any(cid in evidence for cid in record["fused"][:k])
            either += any(cid in evidence for cid in dense[:k] + keyword[:k])
            bound += reachable(dense, keyword, evidence, k)
        print(f"| {path.name} | {n} | {fused} | {either} | {bound} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
