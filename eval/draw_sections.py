"""Draws random sections of a vault for blind question writing: the question is written from the section alone.

Usage: `.venv/bin/python eval/draw_sections.py VAULT --seed N --count K [--min-chars 200] > draw.txt`

Every section the parser produces (heading trail, line range, text) with at least `--min-chars` characters of
text is a candidate; `random.Random(seed).sample` picks `count` of them, so the same seed and vault give the same
draw on every machine. The draw is written before any retrieval runs on the questions, and kept beside them
(`eval/corpora/draws/`), so anyone can check which sections the questions came from.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from askvault.errors import NoteError
from askvault.parse.decode import decode_note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note


def _notes(vault: Path) -> list[str]:
    return sorted(
        p.relative_to(vault).as_posix()
        for p in vault.rglob("*.md")
        if not any(part.startswith(".") for part in p.relative_to(vault).parts)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vault", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--min-chars", type=int, default=200)
    args = parser.parse_args()
    vault: Path = args.vault
    paths = _notes(vault)
    resolver = LinkResolver(paths)
    candidates: list[tuple[str, str, int, int, str]] = []
    for path in paths:
        try:
            text = decode_note((vault / path).read_bytes())
        except (OSError, NoteError):
            continue
        note = parse_note(path, text, resolver)
        for section in note.sections:
            if len(section.text.strip()) >= args.min_chars:
                trail = " › ".join(section.heading_path) or "(top of note)"
                candidates.append((path, trail, section.start_line, section.end_line, section.text.strip()))
    picked = random.Random(args.seed).sample(candidates, min(args.count, len(candidates)))
    print(f"# draw: seed {args.seed}, {len(picked)} of {len(candidates)} sections (>= {args.min_chars} chars)")
    for number, (path, trail, start, end, body) in enumerate(picked, start=1):
        print(f"\n## {number}. {path} :: {trail} (lines {start}-{end})\n")
        print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
