"""Benchmark of in-process vector engines: qdrant-edge (exact, HNSW, our adapter) vs qdrant-client local mode.

Run alone: `.venv/bin/python -m bench.vector_engines --n 10000 --dim 768`; `python -m bench` runs `compare`.
Vectors are clustered around topics with a shared direction (real embeddings are anisotropic), so HNSW recall
is measured on something realistic.
"build s" is insert plus `optimize` (where HNSW engines build their graph). Each engine builds in one fresh
process and is reopened and queried in another, so the RSS delta is the reopened index alone. A numpy
float32 dot product over the same vectors is the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import qdrant_edge as edge
from qdrant_client import QdrantClient, models

from askvault.model import Chunk, SearchFilters
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from bench.harness import in_fresh_process, proc_status

Matrix = npt.NDArray[np.float32]
TOP, SUB, K = 10, 5, 20
ENGINES = ("numpy", "edge-exact", "edge-hnsw", "edge-store", "qdrant-local")


@dataclass(frozen=True)
class Spec:
    n: int
    dim: int
    queries: int = 200
    seed: int = 42


@dataclass(frozen=True)
class Data:
    vectors: Matrix
    top: npt.NDArray[np.int64]
    sub: npt.NDArray[np.int64]


Folder = tuple[int, int | None]
"""(top folder, sub folder or None): `F3` is (3, None), `F3/S1` is (3, 1)."""


def make_data(spec: Spec) -> tuple[Data, Matrix, list[Folder], list[Folder]]:
    rng = np.random.default_rng(spec.seed)
    topics = max(8, spec.n // 40)
    centers = rng.standard_normal((topics, spec.dim)).astype(np.float32)
    shared = rng.standard_normal(spec.dim).astype(np.float32) * 1.2
    labels = rng.integers(0, topics, spec.n)
    vectors = shared + centers[labels] + 0.8 * rng.standard_normal((spec.n, spec.dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    data = Data(vectors=vectors, top=rng.integers(0, TOP, spec.n), sub=rng.integers(0, SUB, spec.n))
    q_labels = rng.integers(0, topics, spec.queries)
    queries = shared + centers[q_labels] + 1.0 * rng.standard_normal((spec.queries, spec.dim)).astype(np.float32)
    wide: list[Folder] = [(int(t), None) for t in rng.integers(0, TOP, spec.queries)]
    tops, subs = rng.integers(0, TOP, spec.queries), rng.integers(0, SUB, spec.queries)
    narrow: list[Folder] = [(int(t), int(x)) for t, x in zip(tops, subs, strict=True)]
    return data, queries.astype(np.float32), wide, narrow


def folder_name(folder: Folder) -> str:
    top, sub = folder
    return f"F{top}" if sub is None else f"F{top}/S{sub}"


def exact(data: Data, query: Matrix, folder: Folder | None) -> list[int]:
    scores = data.vectors @ (query / np.linalg.norm(query))
    if folder is not None:
        mask = data.top == folder[0]
        if folder[1] is not None:
            mask &= data.sub == folder[1]
        scores = np.where(mask, scores, -np.inf)
    top = np.argpartition(-scores, K)[:K]
    return [int(i) for i in top[np.argsort(-scores[top])] if np.isfinite(scores[i])]


class Engine(ABC):
    """One engine under test: build, reopen, search by vector with an optional folder filter."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path, self.dim = path, dim

    @abstractmethod
    def build(self, data: Data) -> None: ...

    @abstractmethod
    def reopen(self) -> None: ...

    @abstractmethod
    def search(self, query: Matrix, folder: Folder | None) -> list[int]: ...

    def close(self) -> None:
        return None


class NumpyEngine(Engine):
    def build(self, data: Data) -> None:
        np.savez(self.path / "vectors.npz", vectors=data.vectors, top=data.top, sub=data.sub)

    def reopen(self) -> None:
        with np.load(self.path / "vectors.npz") as f:
            self.data = Data(vectors=f["vectors"], top=f["top"], sub=f["sub"])

    def search(self, query: Matrix, folder: Folder | None) -> list[int]:
        return exact(self.data, query, folder)


class EdgeEngine(Engine):
    hnsw = False

    def build(self, data: Data) -> None:
        params = edge.EdgeVectorParams(size=self.dim, distance=edge.Distance.Cosine)
        # Plain segments (our shipped config) or Qdrant's default optimizer, which builds HNSW.
        optimizers = None if self.hnsw else edge.EdgeOptimizersConfig(indexing_threshold=0)
        shard = edge.EdgeShard.create(str(self.path), edge.EdgeConfig(vectors=params, optimizers=optimizers))
        shard.update(edge.UpdateOperation.create_field_index("folders", edge.PayloadSchemaType.Keyword))
        for start in range(0, len(data.vectors), 256):
            points = [
                edge.Point(
                    i, data.vectors[i].tolist(), {"folders": [f"F{data.top[i]}", f"F{data.top[i]}/S{data.sub[i]}"]}
                )
                for i in range(start, min(start + 256, len(data.vectors)))
            ]
            shard.update(edge.UpdateOperation.upsert_points(points))
        shard.optimize()  # plain config: vacuum only; HNSW config: builds the graph
        shard.flush()
        shard.close()

    def reopen(self) -> None:
        self.shard = edge.EdgeShard.load(str(self.path))

    def search(self, query: Matrix, folder: Folder | None) -> list[int]:
        flt = None
        if folder is not None:
            flt = edge.Filter(must=[edge.FieldCondition("folders", match=edge.MatchValue(folder_name(folder)))])
        request = edge.QueryRequest(
            limit=K, query=edge.Query.Nearest(query.tolist()), filter=flt, params=edge.SearchParams(exact=not self.hnsw)
        )
        return [int(str(p.id)) for p in self.shard.query(request)]

    def close(self) -> None:
        self.shard.close()


class EdgeHnswEngine(EdgeEngine):
    hnsw = True


class EdgeStoreEngine(Engine):
    """Our EdgeVectorStore as shipped: async adapter, thread hop, chunk-id payload, SearchFilters."""

    def build(self, data: Data) -> None:
        chunks = [
            Chunk(str(i), f"F{data.top[i]}/S{data.sub[i]}/n{i}.md", "t", (), 1, 1, "", "", (), 0.0)
            for i in range(len(data.vectors))
        ]

        async def run() -> None:
            store = await EdgeVectorStore.open(self.path, "bench", self.dim)
            for start in range(0, len(chunks), 256):
                await store.upsert(chunks[start : start + 256], data.vectors[start : start + 256].tolist())
            await store.close()

        asyncio.run(run())

    def reopen(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.store = self.loop.run_until_complete(EdgeVectorStore.open(self.path, "bench", self.dim))

    def search(self, query: Matrix, folder: Folder | None) -> list[int]:
        filters = SearchFilters(folder=None if folder is None else folder_name(folder))
        hits = self.loop.run_until_complete(self.store.search(query.tolist(), K, filters))
        return [int(h.chunk_id) for h in hits]

    def close(self) -> None:
        self.loop.run_until_complete(self.store.close())
        self.loop.close()


class QdrantLocalEngine(Engine):
    def build(self, data: Data) -> None:
        client = QdrantClient(path=str(self.path))
        params = models.VectorParams(size=self.dim, distance=models.Distance.COSINE)
        client.create_collection("bench", vectors_config=params)
        for start in range(0, len(data.vectors), 256):
            end = min(start + 256, len(data.vectors))
            payloads = [{"folders": [f"F{data.top[i]}", f"F{data.top[i]}/S{data.sub[i]}"]} for i in range(start, end)]
            batch = models.Batch(
                ids=list(range(start, end)), vectors=data.vectors[start:end].tolist(), payloads=payloads
            )
            client.upsert("bench", points=batch)
        client.close()

    def reopen(self) -> None:
        self.client = QdrantClient(path=str(self.path))

    def search(self, query: Matrix, folder: Folder | None) -> list[int]:
        flt = None
        if folder is not None:
            match = models.MatchValue(value=folder_name(folder))
            flt = models.Filter(must=[models.FieldCondition(key="folders", match=match)])
        points = self.client.query_points("bench", query=query.tolist(), query_filter=flt, limit=K).points
        return [int(p.id) for p in points]

    def close(self) -> None:
        self.client.close()


FACTORIES: dict[str, Callable[[Path, int], Engine]] = {
    "numpy": NumpyEngine,
    "edge-exact": EdgeEngine,
    "edge-hnsw": EdgeHnswEngine,
    "edge-store": EdgeStoreEngine,
    "qdrant-local": QdrantLocalEngine,
}


def build_worker(engine: str, spec: Spec, path: Path) -> float:
    data, *_ = make_data(spec)
    started = time.perf_counter()
    FACTORIES[engine](path, spec.dim).build(data)
    return time.perf_counter() - started


def query_worker(engine: str, spec: Spec, path: Path, queries: Matrix, runs: dict[str, list[Folder | None]],
                 truth: dict[str, list[list[int]]]) -> dict[str, float]:  # fmt: skip
    before = proc_status()["VmRSS"]
    started = time.perf_counter()
    index = FACTORIES[engine](path, spec.dim)
    index.reopen()
    result = {"reopen_s": time.perf_counter() - started}
    for name, folders in runs.items():
        for q, f in zip(queries[:5], folders[:5], strict=True):
            index.search(q, f)  # warm-up
        times, recalls = [], []
        for q, f, expected in zip(queries, folders, truth[name], strict=True):
            t0 = time.perf_counter()
            got = index.search(q, f)
            times.append((time.perf_counter() - t0) * 1000)
            recalls.append(len(set(got) & set(expected)) / max(1, len(expected)))
        result[f"{name}_p50_ms"] = float(np.percentile(times, 50))
        result[f"{name}_p95_ms"] = float(np.percentile(times, 95))
        result[f"{name}_recall"] = float(np.mean(recalls))
    result["rss_mb"] = proc_status()["VmRSS"] - before
    index.close()
    return result


RUNS = ("all", "folder10", "folder2")


def compare(spec: Spec, engines: Sequence[str], work: Path | None = None) -> list[dict[str, float | str]]:
    """One row per engine: build and reopen seconds, p50/p95 ms and recall@20 unfiltered and with the two
    folder filters, and the RSS the reopened index adds. Each engine builds in one fresh process and is
    reopened and queried in another."""
    data, queries, wide, narrow = make_data(spec)
    runs: dict[str, list[Folder | None]] = {
        "all": [None] * spec.queries,
        "folder10": list(wide),
        "folder2": list(narrow),
    }
    truth = {name: [exact(data, q, f) for q, f in zip(queries, fs, strict=True)] for name, fs in runs.items()}
    del data
    rows: list[dict[str, float | str]] = []
    for engine in engines:
        root = Path(tempfile.mkdtemp(prefix=f"bench-{engine}-", dir=work))
        try:
            build_s = in_fresh_process(build_worker, engine, spec, root)
            measured = in_fresh_process(query_worker, engine, spec, root, queries, runs, truth)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        row: dict[str, float | str] = {"engine": engine, "n": spec.n, "dim": spec.dim, "build_s": round(build_s, 2)}
        row.update({key: round(value, 3) for key, value in measured.items()})
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated subset of {ENGINES}")
    args = parser.parse_args()
    spec = Spec(n=args.n, dim=args.dim, queries=args.queries)
    print(
        f"n={spec.n} dim={spec.dim} queries={spec.queries} top-{K}; filters: folder10 ≈ 10 %, folder2 ≈ 2 % of points"
    )
    print(
        "| engine | build s | reopen s | top-20 p50/p95 ms | folder 10 % p50/p95 ms | folder 2 % p50/p95 ms |", end=""
    )
    print(" recall@20 all/10 %/2 % | RSS Δ MB |\n|---|---|---|---|---|---|---|---|")
    for r in compare(spec, args.engines.split(",")):
        lat = " | ".join(f"{r[f'{n}_p50_ms']} / {r[f'{n}_p95_ms']}" for n in RUNS)
        rec = " / ".join(f"{r[f'{n}_recall']}" for n in RUNS)
        print(f"| {r['engine']} | {r['build_s']} | {r['reopen_s']} | {lat} | {rec} | {r['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
