"""`python -m reliability.fuzzrun`: every pathological case (the minutes-long ones too) and every redaction ReDoS
payload (`reliability/redos.py`) timed through the pipeline; `--redos` runs the payloads alone."""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

from reliability.pathological import BUDGET_S, GENERATORS, fixture_cases, through_pipeline
from reliability.redos import REDOS


@dataclass(frozen=True, slots=True)
class CaseTime:
    name: str
    size: int
    seconds: float
    refused: str | None
    redact_seconds: float = 0.0


@dataclass
class FuzzReport:
    cases: int = 0
    crashes: list[str] = field(default_factory=list)
    over_budget: list[CaseTime] = field(default_factory=list)
    slowest: list[CaseTime] = field(default_factory=list)
    slowest_redaction: list[CaseTime] = field(default_factory=list)
    """The cases whose privacy step (secret redaction) took longest."""
    budget_s: float = BUDGET_S

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def run_corpus(include_slow: bool = True, log: bool = False, redos_only: bool = False) -> FuzzReport:
    generators = {**({} if redos_only else GENERATORS), **REDOS}
    cases: dict[str, bytes | None] = dict.fromkeys(generators)
    if not redos_only:
        cases.update(fixture_cases())
    report = FuzzReport()
    times: list[CaseTime] = []
    for name, data in cases.items():
        if not include_slow and name.endswith(("at-cap", "over-cap")):
            continue
        raw = data if data is not None else generators[name]()
        try:
            outcome = through_pipeline(name.removesuffix(".md"), raw)
        except Exception:
            report.crashes.append(f"{name}: {traceback.format_exc(limit=3)}")
            continue
        times.append(
            CaseTime(name, len(raw), round(outcome.seconds, 3), outcome.refused, round(outcome.redact_seconds, 3))
        )
        if log:
            print(f"{outcome.seconds:8.3f} s  {name} ({len(raw)} bytes; redaction {outcome.redact_seconds:.3f} s)")
    report.cases = len(times) + len(report.crashes)
    times.sort(key=lambda t: t.seconds, reverse=True)
    report.slowest = times[:8]
    report.slowest_redaction = sorted(times, key=lambda t: t.redact_seconds, reverse=True)[:8]
    report.over_budget = [t for t in times if t.seconds > BUDGET_S]
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reliability.fuzzrun", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="leave out the cases at and over the size cap")
    parser.add_argument("--redos", action="store_true", help="only the redaction ReDoS payloads")
    parser.add_argument("--json", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    report = run_corpus(include_slow=not args.quick, log=True, redos_only=args.redos)
    text = json.dumps(report.to_json(), indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    sys.exit(1 if report.crashes else 0)


if __name__ == "__main__":
    main()
