"""Approximate versus exact dense search on real embeddings: recall@10, latency, memory and graph build time.

`.venv/bin/python -m bench.ann [--corpora DIR] [--url http://127.0.0.1:11434] [--sizes 10k,50k,100k]` (defaults
from CORPORA_DIR and OLLAMA_HOST) embeds the chunks of the vaults under DIR (eval/corpora/README.md) and the eval
questions once (`real_vectors`, cached), grows the chunk vectors to each size with synthetic mixes of real ones,
and measures each engine setting in fresh processes: one builds the shard (upserts, then `optimize`, which builds
the graph), another reopens it as the sidecar would and queries it. Recall is against an exact float64 search
over the same vectors. Writes `ann-<date>.json/.md/.png`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt
import qdrant_edge as edge

from askvault.store.vectors.edge_build import build_here, read_graph
from askvault.store.vectors.edge_graph import GraphParams, graph_config, plain_config, search_params
from bench import ann_report, minilm, real_vectors
from bench.harness import in_fresh_process, load_average, machine, percentiles, proc_status
from bench.suite import parse_sizes

Matrix = npt.NDArray[np.float32]
K = 50
"""What the dense leg asks for (RetrievalParams.dense_k); recall is reported at 10 and at 50."""
EFS = (64, 128, 256, 512)
FOLDERS = 10
"""Every point is in one of 10 folders: a folder filter keeps ≈ 10 %."""
VARIANTS: dict[str, GraphParams | None] = {
    "exact": None,
    "hnsw-m16": GraphParams(m=16, ef_construct=100, quantize=False),
    "hnsw-m32": GraphParams(m=32, ef_construct=256, quantize=False),
    "hnsw-m32-int8": GraphParams(m=32, ef_construct=256, quantize=True),
    "hnsw-m32-int8-seg250k": GraphParams(m=32, ef_construct=256, quantize=True, segment_points=250_000),
}
"""Graph variants are built as the sidecar builds them (`edge_build.build_here`): a shard of more than
`segment_points` vectors gets one graph per segment, and every search walks them all."""


def build(path: Path, source: Path, params: GraphParams | None) -> dict[str, float]:
    vectors = np.load(source, mmap_mode="r")  # a file, not a pickle through the pool: 1.5 GB at 1M × 384
    dim = vectors.shape[1]
    shard = edge.EdgeShard.create(str(path), plain_config(dim))
    shard.update(edge.UpdateOperation.create_field_index("folder", edge.PayloadSchemaType.Keyword))
    started = time.perf_counter()
    for start in range(0, len(vectors), 512):
        points = [
            edge.Point(i, vectors[i].tolist(), {"folder": f"F{i % FOLDERS}"})
            for i in range(start, min(start + 512, len(vectors)))
        ]
        shard.update(edge.UpdateOperation.upsert_points(points))
    upsert_s = time.perf_counter() - started
    shard.flush()
    shard.close()
    started = time.perf_counter()
    if params is not None:
        build_here(path, dim, params)  # the child's work in the sidecar: one graph, or one per segment
    graph_s = time.perf_counter() - started
    config = plain_config(dim) if params is None else graph_config(dim, params, build=False)
    shard = edge.EdgeShard.load(str(path), config)
    info = shard.info()
    shard.close()
    return {"upsert_s": round(upsert_s, 2), "graph_s": round(graph_s, 2), "indexed": info.indexed_vectors_count}


def query(
    path: Path,
    dim: int,
    params: GraphParams | None,
    queries: Matrix,
    truth: list[list[int]],
    folder_truth: list[list[int]],
) -> dict[str, object]:
    before = proc_status()
    config = plain_config(dim) if params is None else graph_config(dim, params, build=False)
    shard = edge.EdgeShard.load(str(path), config)
    efs = (None,) if params is None else EFS
    segments = read_graph(path)[1]
    runs: dict[str, object] = {}

    def search(vector: Matrix, search: edge.SearchParams, flt: edge.Filter | None) -> list[int]:
        request = edge.QueryRequest(limit=K, query=edge.Query.Nearest(vector.tolist()), filter=flt, params=search)
        return [int(str(p.id)) for p in shard.query(request)]

    widest = None if params is None else dataclasses.replace(params, ef=max(EFS), segment_ef=max(EFS))
    warm = search_params(widest, filtered=False, segments=segments)
    for vector in queries:  # pages in the graph and vectors once, so the first setting measured is not the cold one
        search(vector, warm, None)
    for ef in efs:
        chosen = params if params is None or ef is None else dataclasses.replace(params, ef=ef, segment_ef=ef)
        sp = search_params(chosen, filtered=False, segments=segments)
        times: list[float] = []
        r10: list[float] = []
        r50: list[float] = []
        for vector, expected in zip(queries, truth, strict=True):
            started = time.perf_counter()
            got = search(vector, sp, None)
            times.append((time.perf_counter() - started) * 1000)
            r10.append(len(set(got[:10]) & set(expected[:10])) / 10)
            r50.append(len(set(got) & set(expected)) / K)
        runs[str(ef or "exact")] = {
            "ms": percentiles(times),
            "recall10": round(float(np.mean(r10)), 4),
            "recall50": round(float(np.mean(r50)), 4),
        }
    # Filtered searches run exact in every setting (`search_params(filtered=True)`): their cost, and recall 1.
    times = []
    recall: list[float] = []
    sp = search_params(params, filtered=True)
    for number, (vector, expected) in enumerate(zip(queries, folder_truth, strict=True)):
        flt = edge.Filter(must=[edge.FieldCondition("folder", match=edge.MatchValue(f"F{number % FOLDERS}"))])
        started = time.perf_counter()
        got = search(vector, sp, flt)
        times.append((time.perf_counter() - started) * 1000)
        recall.append(len(set(got[:10]) & set(expected[:10])) / 10)
    runs["folder10_exact"] = {"ms": percentiles(times), "recall10": round(float(np.mean(recall)), 4)}
    after = proc_status()
    shard.close()
    return {
        "runs": runs,
        "segments": segments,
        "rss_mb": round(after["VmRSS"] - before["VmRSS"], 1),
        "rss_total_mb": after["VmRSS"],
    }


def _truth(vectors: Matrix, queries: Matrix, folder: bool) -> list[list[int]]:
    """Exact top K per query: a float32 scan keeps the best 4·K, re-scored in float64 (the gap between the K-th
    and the 4·K-th is far above float32's rounding)."""
    out: list[list[int]] = []
    labels = np.arange(len(vectors)) % FOLDERS
    wide = min(4 * K, len(vectors) - 1)
    for number, vector in enumerate(queries):
        scores = vectors @ vector
        if folder:
            scores = np.where(labels == number % FOLDERS, scores, -np.inf)
        rough = np.argpartition(-scores, wide)[:wide]
        rough = rough[np.isfinite(scores[rough])]
        fine = vectors[rough].astype(np.float64) @ vector.astype(np.float64)
        order = np.lexsort((rough, -fine))[:K]
        out.append([int(i) for i in rough[order]])
    return out


def run_size(
    n: int, real: Matrix, queries: Matrix, seed: int, work: Path, variants: list[str], isotropic: bool = False
) -> dict[str, object]:
    vectors = real_vectors.grow(real, n, seed, isotropic=isotropic)
    truth = _truth(vectors, queries, folder=False)
    folder_truth = _truth(vectors, queries, folder=True)
    source = work / f"vectors-{n}.npy"
    np.save(source, vectors)
    row: dict[str, object] = {"n": n, "dim": int(vectors.shape[1]), "queries": len(queries), "variants": {}}
    for name in variants:
        params = VARIANTS[name]
        path = Path(tempfile.mkdtemp(prefix=f"ann-{name}-", dir=work)) / "shard"
        try:
            built = in_fresh_process(build, path, source, params)
            measured = in_fresh_process(query, path, vectors.shape[1], params, queries, truth, folder_truth)
            disk = sum(f.stat().st_blocks * 512 for f in path.rglob("*") if f.is_file()) / 1e6
        finally:
            shutil.rmtree(path.parent, ignore_errors=True)
        entry = {**built, **measured, "disk_mb": round(disk, 1), "params": None if params is None else params.to_json()}
        row["variants"][name] = entry  # type: ignore[index]
        print(f"ann: {n:,} {name}: {json.dumps(entry)}", flush=True)
    source.unlink()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    corpora = os.environ.get("CORPORA_DIR")
    parser.add_argument(
        "--corpora",
        type=Path,
        default=Path(corpora) if corpora else None,
        required=not corpora,
        help="folder of vaults to embed, e.g. the two of eval/corpora/README.md [CORPORA_DIR]",
    )
    parser.add_argument("--url", default=minilm.default_url(), help="an Ollama-compatible server [OLLAMA_HOST]")
    parser.add_argument("--model", default="all-minilm")
    parser.add_argument("--sizes", default="10k,50k,100k")
    # The 250k-segment variant only differs above 250k vectors: named on demand (bench/README.md).
    parser.add_argument("--variants", default=",".join(v for v in VARIANTS if v != "hnsw-m32-int8-seg250k"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--isotropic", action="store_true", help="grow with isotropic noise (a harder case)")
    parser.add_argument("--cache", type=Path, default=real_vectors.REPO / "bench" / ".cache")
    parser.add_argument("--out", type=Path, default=real_vectors.REPO / "bench" / "results")
    args = parser.parse_args()
    docs, queries, counts = real_vectors.load(args.corpora, args.url, args.model, args.cache)
    meta = {
        "date": datetime.now(UTC).date().isoformat(), "machine": machine(), "load_start": load_average(),
        "model": args.model, "real_chunks": counts, "questions": len(queries), "k": K, "seed": args.seed,
        "growth": "isotropic noise" if args.isotropic else "noise shaped like the real vectors' covariance",
    }  # fmt: skip
    results: dict[str, object] = {"meta": meta, "sizes": []}
    with tempfile.TemporaryDirectory(prefix="bench-ann-") as tmp:
        for n in parse_sizes(args.sizes):
            row = run_size(n, docs, queries, args.seed, Path(tmp), args.variants.split(","), args.isotropic)
            results["sizes"].append(row)  # type: ignore[attr-defined]
    meta["load_end"] = load_average()
    for kind, path in ann_report.write(results, args.out).items():
        print(f"wrote {kind}: {path}")


if __name__ == "__main__":
    main()
