"""Draws random notes of a vault for blind related-notes judgements: seeded, stdlib only, the same on every machine.

Usage: `python eval/related/draw.py --vault DIR --name NAME --count 30 --seed 34 > drawn.txt`

Every `.md` file under the vault is a candidate (sorted vault-relative POSIX paths) except those in the
`.obsidian` folder, in a folder listed in `.obsidian/app.json` `userIgnoreFilters` (prefix match, as Obsidian
does), or whose YAML frontmatter says `askvault: false`. `random.Random(f"{seed}:{name}").sample` picks `count`
of them; the paths are printed one per line, in draw order.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

_OPT_OUT = re.compile(r"^askvault\s*:\s*(false|no|off)\s*(#.*)?$", re.IGNORECASE)


def _ignore_filters(vault: Path) -> list[str]:
    """The `userIgnoreFilters` of the vault's `.obsidian/app.json`, or none when it is absent or unreadable."""
    try:
        settings = json.loads((vault / ".obsidian" / "app.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    filters = settings.get("userIgnoreFilters", []) if isinstance(settings, dict) else []
    return [f for f in filters if isinstance(f, str) and f]


def _opted_out(text: str) -> bool:
    """True when the note's YAML frontmatter (the block between the first two `---` lines) says `askvault: false`."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return False
    for line in lines[1:]:
        if line.strip() in {"---", "..."}:
            return False
        if _OPT_OUT.match(line.strip()):
            return True
    return False


def notes(vault: Path) -> list[str]:
    """Every candidate note of the vault, as sorted vault-relative POSIX paths."""
    filters = _ignore_filters(vault)
    paths: list[str] = []
    for path in vault.rglob("*.md"):
        if not path.is_file():
            continue
        relative = path.relative_to(vault).as_posix()
        if relative.split("/")[0] == ".obsidian" or any(relative.startswith(f) for f in filters):
            continue
        if _opted_out(path.read_text(encoding="utf-8", errors="replace")):
            continue
        paths.append(relative)
    return sorted(paths)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args()
    paths = notes(args.vault)
    for path in random.Random(f"{args.seed}:{args.name}").sample(paths, args.count):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
