"""`python -m reliability` (`make reliability`): the kill loop, the fuzz corpus, disk full, then load and soak.

Each part is also runnable on its own (`python -m reliability.killloop`, `.fuzzrun`, `.diskfull`, `.soak`).
Prints one JSON document with every figure the README's Reliability table reports; exit code 1 on any
divergence, crash or error.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from reliability.vault import REPO

PARTS = ("killloop", "fuzzrun", "diskfull", "soak")


def _run(part: str, extra: list[str], out: Path) -> tuple[int, object]:
    print(f"== reliability.{part} {' '.join(extra)}", file=sys.stderr, flush=True)
    command = [sys.executable, "-m", f"reliability.{part}", *extra, "--json", str(out)]
    done = subprocess.run(command, cwd=REPO, stdout=sys.stderr)  # progress on stderr; the figures go to stdout
    try:
        return done.returncode, json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return done.returncode or 1, None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reliability", description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--load-seconds", type=float, default=60.0)
    parser.add_argument("--soak-seconds", type=float, default=300.0)
    parser.add_argument("--only", choices=PARTS, action="append", help="run only these parts (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the combined figures to this file")
    args = parser.parse_args(argv)
    arguments = {
        "killloop": ["--kills", str(args.kills)],
        "fuzzrun": [],
        "diskfull": [],
        "soak": ["--load-seconds", str(args.load_seconds), "--soak-seconds", str(args.soak_seconds)],
    }
    figures: dict[str, object] = {}
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="askvault-reliability-") as tmp:
        for part in args.only or PARTS:
            code, result = _run(part, arguments[part], Path(tmp) / f"{part}.json")
            figures[part] = result
            if code:
                failed.append(part)
    figures["failed_parts"] = failed
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
