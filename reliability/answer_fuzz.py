"""`python -m reliability.answer_fuzz`: many random hostile answers through the neutraliser, judged by markdown-it."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from askvault.safety.answer import neutralise_answer
from tests.safety.markdown_oracle import hostile, live


@dataclass
class AnswerFuzzReport:
    inputs: int = 0
    seed: int = 0
    survivors: int = 0
    """Outputs in which the renderer still finds something live (an image, a link, HTML, runnable code)."""
    not_idempotent: int = 0
    """Outputs that a second pass changes."""
    seconds: float = 0.0
    examples: list[dict[str, object]] = field(default_factory=list)


def run(count: int, seed: int, longest: int) -> AnswerFuzzReport:
    rng = random.Random(seed)
    report = AnswerFuzzReport(seed=seed)
    started = time.perf_counter()
    for _ in range(count):
        answer = hostile(rng, longest)
        safe = neutralise_answer(answer).text
        problems = live(safe)
        again = neutralise_answer(safe).text
        report.inputs += 1
        report.survivors += bool(problems)
        report.not_idempotent += again != safe
        if (problems or again != safe) and len(report.examples) < 20:
            report.examples.append({"input": answer, "output": safe, "problems": problems, "again": again})
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reliability.answer_fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--longest", type=int, default=30, help="most fragments in one answer")
    parser.add_argument("--json", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    report = asdict(run(args.count, args.seed, args.longest))
    text = json.dumps(report, indent=2, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    sys.exit(1 if report["survivors"] or report["not_idempotent"] else 0)


if __name__ == "__main__":
    main()
