"""Measures related-notes aggregations on a vault: do a note's top related notes share a link or a tag with it?

Usage: `.venv/bin/python eval/related_notes.py --vault eval/sample-vault --ollama-url URL --embed-model all-minilm`

Indexes the vault with the given embedder (in a temporary data folder), then for every note ranks all other notes
exactly, by each aggregation of chunk cosines (`askvault.retrieve.note_similarity`), from the full matrices of
stored vectors; and once more through the shipped `RelatedNotes` (candidate prefilter, privacy checks) and its
keyword method. A related note counts as a hit when it links to the note, is linked from it, or shares a tag.
Reported per method: the share of top-k related notes that are hits (precision@k), the share of notes with at
least one hit in their top k, and what random picks would score. Only notes with at least one such partner count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from askvault.config import load_config
from askvault.retrieve.graph import resolve_graph
from askvault.retrieve.note_similarity import AGGREGATIONS, Matrix, rank, score_notes, unit_rows
from askvault.wiring import Engine, open_engine

Ranker = Callable[[str], list[str]]


def _partners(engine: Engine, notes: list[str]) -> dict[str, dict[str, set[str]]]:
    """Per criterion (`link or tag`, `link`, `tag`): each note's partners."""
    chunks = engine.catalog.snapshot()
    tags: dict[str, set[str]] = {}
    for chunk in chunks.values():
        tags.setdefault(chunk.path, set()).update(chunk.tags)
    graph = resolve_graph(engine.links.snapshot(), notes)
    linked = {path: set(graph.hop(path)) for path in notes}
    tagged = {path: {o for o in notes if o != path and tags[path] & tags[o]} for path in notes}
    return {
        "link or tag": {path: linked[path] | tagged[path] for path in notes},
        "link": linked,
        "tag": tagged,
    }


def _score(rankers: Mapping[str, Ranker], partners: Mapping[str, set[str]], k: int) -> dict[str, object]:
    """precision@k (hits / k·judged notes), hits, and the share of notes with a hit in their top k."""
    judged = [path for path, found in partners.items() if found]
    n = len(partners)
    out: dict[str, object] = {
        "judged": len(judged),
        "random precision": round(float(np.mean([len(partners[p]) / (n - 1) for p in judged])), 3),
    }
    for name, ranker in rankers.items():
        hits = [sum(other in partners[path] for other in ranker(path)[:k]) for path in judged]
        out[name] = {
            "precision": round(sum(hits) / (k * len(judged)), 3),
            "hits": f"{sum(hits)}/{k * len(judged)}",
            "any_hit": round(sum(h > 0 for h in hits) / len(judged), 3),
        }
    return out


async def measure(config_flags: dict[str, object], ks: list[int]) -> dict[str, object]:
    config = load_config(config_flags, {})
    async with open_engine(config, sync_vectors=False) as engine:
        await engine.indexer.run()
    async with open_engine(config) as engine:
        store = engine.dense.store
        if store is None:
            raise SystemExit(f"dense search is {engine.dense.state}: {engine.dense.problem}")
        by_note = engine.catalog.by_note()
        notes = sorted(by_note)
        stored = await store.vectors([cid for ids in by_note.values() for cid in ids])
        dim = len(next(iter(stored.values())))
        matrices: dict[str, Matrix] = {
            path: unit_rows([stored[cid] for cid in ids if cid in stored], dim) for path, ids in by_note.items()
        }
        partners = _partners(engine, notes)
        rankers: dict[str, Ranker] = {}
        for how in AGGREGATIONS:

            def exact(path: str, how: str = how) -> list[str]:
                others = {p: m for p, m in matrices.items() if p != path}
                return [m.path for m in score_notes(matrices[path], others, how)]  # type: ignore[arg-type]

            rankers[f"exact {how}"] = exact

        def centroid(path: str) -> list[str]:
            mean = {p: unit_rows([m.mean(axis=0)], dim) for p, m in matrices.items()}
            scored = score_notes(mean[path], {p: v for p, v in mean.items() if p != path}, "max")
            return [m.path for m in rank(scored)]

        rankers["exact centroid cosine"] = centroid
        shipped = engine.related
        results: dict[str, list[str]] = {}
        keyword: dict[str, list[str]] = {}
        for path in notes:
            results[path] = [r.path for r in (await shipped.related(path, max(ks))).hits]
            keyword[path] = [r.path for r in (await shipped.related(path, max(ks), method="keyword")).hits]
        rankers[f"shipped ({shipped.aggregation})"] = results.__getitem__
        rankers["shipped keyword"] = keyword.__getitem__
        # Each exact ranking once; the criteria and cut-offs read the same lists.
        ranked = {name: {path: ranker(path)[: max(ks)] for path in notes} for name, ranker in rankers.items()}
        cached: dict[str, Ranker] = {name: lists.__getitem__ for name, lists in ranked.items()}
        return {
            "notes": len(notes),
            "chunks": len(stored),
            "by_criterion": {
                f"{criterion} @{k}": _score(cached, found, k) for criterion, found in partners.items() for k in ks
            },
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--ollama-url", required=True)
    parser.add_argument("--embed-model", required=True)
    parser.add_argument("-k", type=int, action="append", help="cut-offs [default 5 and 10]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="askvault-related-") as tmp:
        flags: dict[str, object] = {
            "vault": str(args.vault),
            "data_dir": tmp,
            "ollama_url": args.ollama_url,
            "embed_model": args.embed_model,
        }
        found = asyncio.run(measure(flags, args.k or [5, 10]))
    json.dump(found, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
