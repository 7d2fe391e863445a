"""Related notes against a reader's judgements: precision@5 of the shipped ranking, and how many of its top-5
passages say nothing (template or query lines, or link lists).

Usage: `.venv/bin/python eval/related_judged.py --vault VAULT --judged eval/related/NAME.jsonl [--ollama-url URL
--embed-model MODEL] [--k 5] [--json OUT]`

Indexes VAULT in a temporary data folder (the built-in embedder unless `--embed-model` names an Ollama model), asks
the shipped related-notes ranking (`RelatedNotes.related`, dense; and its keyword method) for each judged note's
top k, and counts a related note as a hit when the judgement file lists it. The passages shown with each related note
are classified line by line as `eval/noise_share.py` does (one classifier for every commit). The judgement files were
written blind, before any ranking was looked at (eval/related/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from askvault.config import load_config
from askvault.wiring import open_engine


def count_passages(found: dict[str, Any], vault: Path) -> None:
    """Each method's top passages by kind, classified with this tree's classifier (`eval/noise_share.py`)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from noise_share import classify, hit_kind

    kinds = classify(vault)
    for figures in found.values():
        figures["passages"] = dict(Counter(hit_kind(kinds, span) for span in figures["spans"]))


async def measure(flags: dict[str, object], judged: list[dict[str, Any]], k: int) -> dict[str, Any]:
    config = load_config(flags, {})
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
    out: dict[str, Any] = {}
    async with open_engine(config) as engine:
        for method in ("dense", "keyword"):
            hits = strong = notes_with_strong = 0
            spans: list[dict[str, Any]] = []
            per_note = []
            for entry in judged:
                result = await engine.related.related(entry["note"], k, method=method)  # type: ignore[arg-type]
                top = [hit.path for hit in result.hits[:k]]
                found = sum(path in entry["related"] for path in top)
                hits += found
                strong += sum(path in entry["strong"] for path in top)
                notes_with_strong += any(path in entry["strong"] for path in top) if entry["strong"] else 0
                spans += [
                    {"path": hit.path, "start_line": hit.passage.start_line, "end_line": hit.passage.end_line}
                    for hit in result.hits[:k]
                ]
                per_note.append({"note": entry["note"], "method": result.method, "top": top, "hits": found})
            judged_with_strong = sum(1 for entry in judged if entry["strong"])
            out[method] = {
                "precision": round(hits / (k * len(judged)), 3),
                "hits": f"{hits}/{k * len(judged)}",
                "strong_found": f"{notes_with_strong}/{judged_with_strong}",
                "spans": spans,
                "per_note": per_note,
            }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--judged", type=Path, required=True)
    parser.add_argument("--ollama-url", default="http://127.0.0.1:9")
    parser.add_argument("--embed-model")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--from-json", type=Path, help="count the passages of an earlier run's --json (e.g. one of an older commit)"
    )
    args = parser.parse_args(argv)
    judged = [json.loads(line) for line in args.judged.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.from_json:
        found = json.loads(args.from_json.read_text(encoding="utf-8"))
    else:
        with tempfile.TemporaryDirectory(prefix="askvault-related-") as tmp:
            flags: dict[str, object] = {"vault": str(args.vault), "data_dir": tmp, "ollama_url": args.ollama_url}
            if args.embed_model:
                flags["embed_model"] = args.embed_model
            found = asyncio.run(measure(flags, judged, args.k))
        if args.json:
            args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
    try:
        count_passages(found, args.vault)
    except ImportError:  # an older tree without the classifier: count them later with --from-json
        return 0
    name = args.judged.stem
    for method, figures in found.items():
        passages: dict[str, int] = figures["passages"]
        noisy = passages.get("boilerplate", 0) + passages.get("links", 0)
        print(
            f"| {name} | {args.embed_model or 'built-in'} | {method} | {figures['precision']:.3f} ({figures['hits']}) "
            f"| {figures['strong_found']} | {passages.get('boilerplate', 0)} | {passages.get('links', 0)} | {noisy} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
