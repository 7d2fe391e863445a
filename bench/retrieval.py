"""Per corpus size: full index throughput, hybrid/dense/keyword/fusion latency, their floors, memory and disk.

Each size runs in a fresh process (`in_fresh_process`), so its peak RSS is its own. The floors run in the same
process on the same data right after our legs: a NumPy float32 dot product over the very vectors the store
holds, and bm25s (Lucene IDF, same k1 and b) over the very tokens our tokenizer made. The keyword leg's top 20 is
checked against exact BM25 over those tokens (`keyword_exact`), and its top 10 against bm25s's, as sets and up to
ties (bm25s breaks ties arbitrarily, we by place in the rebuild: a tie across the 10th place is no disagreement).
"""

from __future__ import annotations

import asyncio
import dataclasses
import resource
import shutil
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import bm25s
import numpy as np
import numpy.typing as npt

from askvault.model import Chunk, RankedId, SearchFilters
from askvault.store.protocol import GraphIndexed
from askvault.store.text.multilingual import LanguageTokenizers
from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from askvault.wiring import Engine
from bench import synth
from bench.fake_embed import HashEmbedder, TimedEmbedder
from bench.harness import bench_engine, config_for, dir_size, percentiles, proc_status, reset_peak_rss
from bench.keyword_exact import ExactReference

TOP_K = 8
"""What the plugin asks for; the legs themselves fetch 50 candidates each (RetrievalParams)."""
RELATED_K = 10
"""What the plugin's related-notes view asks for (the API's default)."""
LEG_K = 50
WARMUP = 10
EXACT_K = 20
"""The keyword leg's top this many must be exact BM25 (ids, order, scores)."""
EF_SWEEP = (128, 256, 512)
"""`hnsw_ef` values the dense leg is also timed at once the store has a graph (every segment searched with it)."""


def numpy_top(matrix: npt.NDArray[np.float32], query: npt.NDArray[np.float32], k: int) -> list[int]:
    scores = matrix @ query
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    picked: list[int] = top[np.argsort(-scores[top])].tolist()
    return picked


def bm25s_top(retriever: bm25s.BM25, terms: list[str], k: int) -> list[int]:
    known = [t for t in terms if t in retriever.vocab_dict]  # bm25s refuses unknown tokens
    if not known:
        return []
    docs, scores = retriever.retrieve([known], k=k, show_progress=False, n_threads=1)
    return [int(d) for d, s in zip(docs[0].tolist(), scores[0].tolist(), strict=True) if s > 0]


async def _dense_recall(
    search: Callable[[Sequence[float], int, SearchFilters], Awaitable[list[RankedId]]],
    matrix: npt.NDArray[np.float32],
    query: npt.NDArray[np.float32],
    positions: dict[str, int],
) -> float:
    """Share of the store's top 10 that belongs to the exact top 10, ties allowed: the hash embedder's vectors
    tie often (sums of two of 4,096 fixed vectors), so any chunk scoring at least the exact 10th counts."""
    scores = matrix @ query
    tenth = np.partition(scores, len(scores) - 10)[len(scores) - 10] if len(scores) > 10 else float(scores.min())
    got = await search(query.tolist(), 10, SearchFilters())
    return sum(float(scores[positions[r.chunk_id]]) >= tenth - 1e-5 for r in got) / max(1, min(10, len(scores)))


async def _ef_sweep(
    store: EdgeVectorStore,
    matrix: npt.NDArray[np.float32],
    vectors: npt.NDArray[np.float32],
    positions: dict[str, int],
) -> dict[str, object]:
    """The dense leg (top LEG_K) timed and its top 10 checked at each `EF_SWEEP` value, on the built graph: the
    search-time cost of `hnsw_ef` on this many segments. The graph's parameters are swapped for the sweep and put
    back; recall on real embeddings is `bench.ann`'s (these hash vectors are easy for a graph)."""
    graph = store._graph  # the bench reaches into the store: the sweep changes a search-time value only
    if graph is None:
        return {}
    out: dict[str, object] = {"segments": store._segments}
    try:
        for ef in EF_SWEEP:
            store._graph = dataclasses.replace(graph, ef=ef, segment_ef=ef)
            times: list[float] = []
            recall: list[float] = []
            for number, vector in enumerate(vectors):
                started = time.perf_counter()
                await store.search(vector.tolist(), LEG_K, SearchFilters())
                if number >= WARMUP:
                    times.append(_clock_ms(started))
                    recall.append(await _dense_recall(store.search, matrix, vector, positions))
            out[str(ef)] = {"ms": percentiles(times), "recall10": round(float(np.mean(recall)), 4)}
    finally:
        store._graph = graph
    return out


def _clock_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


async def _measure(chunks_wanted: int, dim: int, seed: int, n_queries: int, work: Path) -> dict[str, object]:
    notes = synth.notes_for_chunks(chunks_wanted, seed)
    vault = synth.write_vault(work / "vault", notes, seed)
    hasher = HashEmbedder(dim)
    embedder = TimedEmbedder(hasher)
    questions = synth.queries(n_queries + WARMUP, seed)
    reset_peak_rss()
    out: dict[str, object] = {"label": label(chunks_wanted), "dim": dim}
    async with bench_engine(vault, work / "data", embedder) as engine:
        started = time.perf_counter()
        report = await engine.indexer.run()
        index_s = time.perf_counter() - started
        # A big vault's vector graph is built in the background after the run (`askvault index` waits too).
        store = engine.dense.store
        started = time.perf_counter()
        graph = isinstance(store, GraphIndexed) and await store.wait_graph()
        graph_s = time.perf_counter() - started
        out["notes"], out["chunks"] = report.notes, report.chunks
        out["dense_search"] = "graph (unfiltered)" if graph else "exact"
        out["memory_after_index_mb"] = proc_status()
        child_mb = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)
        out["graph_build_peak_rss_mb"] = child_mb if graph else None
        rebuild: list[float] = []
        for _ in range(2):
            started = time.perf_counter()
            engine.indexer.keyword_sync.rebuild()  # manifest read + BM25 build + catalog swap, as after every change
            rebuild.append(time.perf_counter() - started)
        out["index"] = {
            "seconds": round(index_s, 2),
            "notes_per_s": round(report.notes / index_s, 1),
            "chunks_per_s": round(report.chunks / index_s, 1),
            "embed_seconds": round(embedder.seconds, 3),
            "share_outside_embedding": round(1 - embedder.seconds / index_s, 4),
            "keyword_rebuild_s": round(min(rebuild), 3),
            "graph_build_s": round(graph_s, 1) if graph else None,
        }

        legs: dict[str, list[float]] = {"hybrid": [], "dense": [], "keyword": [], "fusion": []}
        keyword_top: list[list[RankedId]] = []
        for number, question in enumerate(questions):
            started = time.perf_counter()
            timings = (await engine.searcher.search(question, TOP_K)).timings
            wall = _clock_ms(started) - (timings.embed or 0.0)
            if number < WARMUP:
                continue
            legs["hybrid"].append(wall)
            if timings.dense is None or timings.keyword is None:
                raise RuntimeError(f"hybrid search ran without a leg for {question!r}")
            legs["dense"].append(timings.dense)
            legs["keyword"].append(timings.keyword)
            legs["fusion"].append(timings.fusion)
            keyword_top.append(engine.keywords.search(question, EXACT_K).ranked)

        even, longest = _related_picks(engine, n_queries // 4)
        related_ms, related_chunks = await _related(engine, even)
        related_long_ms, related_long_chunks = await _related(engine, longest)

        # The floors, on the same vectors and tokens.
        chunks: list[Chunk] = list(engine.manifest.iter_chunks())  # the catalog's order, with texts
        ids = [c.id for c in chunks]
        matrix = hasher.matrix([c.index_text for c in chunks])
        vectors = hasher.matrix(questions)
        # Each chunk in its note's language and each question as the keyword leg analyses it: the same terms.
        tokenizers = LanguageTokenizers(engine.keywords.tokenizer)
        corpus = [tokenizers.tokenize(c.index_text, c.language) for c in chunks]
        retriever = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
        started = time.perf_counter()
        retriever.index(corpus, show_progress=False)
        bm25s_index_s = time.perf_counter() - started
        reference = ExactReference(corpus, retriever)
        positions = {chunk_id: i for i, chunk_id in enumerate(ids)}
        numpy_ms: list[float] = []
        bm25s_ms: list[float] = []
        agree = {"exact": 0, "bm25s_set": 0, "bm25s_ties": 0}
        recall: list[float] = []
        for number, question in enumerate(questions):
            terms = engine.keywords.query_terms(question)
            started = time.perf_counter()
            numpy_top(matrix, vectors[number], LEG_K)
            numpy_elapsed = _clock_ms(started)
            started = time.perf_counter()
            bm25s_top(retriever, terms, min(LEG_K, len(ids)))
            bm25s_elapsed = _clock_ms(started)
            if number >= WARMUP and store is not None:
                recall.append(await _dense_recall(store.search, matrix, vectors[number], positions))
            if number >= WARMUP:
                numpy_ms.append(numpy_elapsed)
                bm25s_ms.append(bm25s_elapsed)
                for key, same in reference.compare(terms, keyword_top[number - WARMUP], positions, EXACT_K).items():
                    agree[key] += same
        if isinstance(store, EdgeVectorStore) and graph:
            out["dense_ef_sweep"] = await _ef_sweep(store, matrix, vectors, positions)
        out["memory_peak_mb"] = proc_status()["VmHWM"]

    latency = {leg: percentiles(samples) for leg, samples in legs.items()}
    latency["related"] = percentiles(related_ms)
    latency["related_longest"] = percentiles(related_long_ms)
    latency["numpy_floor"] = percentiles(numpy_ms)
    latency["bm25s_floor"] = percentiles(bm25s_ms)
    out["latency_ms"] = latency
    out["ratios"] = {
        "dense_vs_numpy_p50": round(latency["dense"]["p50"] / latency["numpy_floor"]["p50"], 2),
        "keyword_vs_bm25s_p50": round(latency["keyword"]["p50"] / latency["bm25s_floor"]["p50"], 2),
        "keyword_rebuild_vs_bm25s_index": round(min(rebuild) / bm25s_index_s, 2),
    }
    out["related_source_chunks_mean"] = {"even": related_chunks, "longest": related_long_chunks}
    out["bm25s_index_s"] = round(bm25s_index_s, 3)
    out["dense_top10_recall"] = round(float(np.mean(recall)), 4) if recall else None
    out["keyword_top20_exact"] = round(agree["exact"] / max(1, n_queries), 3)
    out["keyword_top10_same_as_bm25s"] = round(agree["bm25s_set"] / max(1, n_queries), 3)
    out["keyword_top10_same_as_bm25s_up_to_ties"] = round(agree["bm25s_ties"] / max(1, n_queries), 3)
    data = config_for(vault, work / "data", hasher.model).store.data_dir
    per_k = 1000 / max(1, report.chunks) / 1e6
    vectors_mb = dir_size(data / "vectors") * per_k
    out["disk_mb_per_1k_chunks"] = {
        "total": round(dir_size(data) * per_k, 2),
        "vectors": round(vectors_mb, 2),
        "manifest": round(dir_size(data) * per_k - vectors_mb, 2),
        "apparent_total": round(dir_size(data, apparent=True) * per_k, 2),
    }
    return out


async def _related(engine: Engine, paths: list[str]) -> tuple[list[float], float]:
    """Related notes (dense) for each path after the first WARMUP: ms per call, and the notes' mean chunk count."""
    by_note = engine.catalog.by_note()
    samples: list[float] = []
    for number, path in enumerate(paths):
        started = time.perf_counter()
        result = await engine.related.related(path, RELATED_K)
        elapsed = _clock_ms(started)
        if result.method != "dense":
            raise RuntimeError(f"related notes fell back to {result.method} for {path}")
        if number >= WARMUP:
            samples.append(elapsed)
    measured = paths[WARMUP:]
    return samples, round(sum(len(by_note[p]) for p in measured) / max(1, len(measured)), 2)


def _related_picks(engine: Engine, n_notes: int) -> tuple[list[str], list[str]]:
    """Notes spread evenly over the vault, and the longest notes (most chunks, so most searches), both
    WARMUP + n long."""
    by_note = engine.catalog.by_note()
    paths = sorted(by_note)
    even = paths[:: max(1, len(paths) // (n_notes + WARMUP))][: n_notes + WARMUP]
    longest = sorted(paths, key=lambda p: (-len(by_note[p]), p))[: n_notes + WARMUP]
    return even, longest


def run_size(chunks: int, dim: int, seed: int, n_queries: int, work: Path) -> dict[str, object]:
    """One corpus size, measured start to finish; `work` is emptied afterwards. Run it in a fresh process."""
    work.mkdir(parents=True, exist_ok=True)
    try:
        return asyncio.run(_measure(chunks, dim, seed, n_queries, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def label(chunks: int) -> str:
    if chunks % 1_000_000 == 0 and chunks >= 1_000_000:
        return f"{chunks // 1_000_000}m"
    return f"{chunks // 1000}k" if chunks % 1000 == 0 and chunks >= 1000 else str(chunks)
