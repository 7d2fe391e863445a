"""Embedding speed side by side on the same chunks: the ONNX floor, the built-in embedder and Ollama's HTTP API.

`measure` runs in a fresh process (`harness.in_fresh_process`). The variants compared take turns call by call (the
order rotates), so a burst of load from other jobs hits them alike; ratios are taken within a repetition and their
median reported, beside the medians of each variant's own figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from askvault.config import BuiltinEmbedParams, OllamaConfig
from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.builtin_files import ALL_MINILM, model_folder
from askvault.embed.ollama import OllamaEmbedder
from askvault.index.dense_sync import EMBED_BATCH
from bench.embedder_floor import Matrix, OnnxFloor, min_cosine, token_counts
from bench.harness import percentiles

HTTP_MODEL = "all-minilm"
"""Ollama's name for the same model (all-MiniLM-L6-v2)."""
SHORT_BELOW = 400
LONG_ABOVE = 1200
"""Chunk-length bands in characters of the text embedded (`index_text`)."""
DEFAULTS = BuiltinEmbedParams()

T = TypeVar("T")
Rows = Matrix | list[list[float]]
Documents = Callable[[list[str]], Awaitable[Rows]]


@dataclass(frozen=True)
class Variant:
    documents: Documents
    query: Callable[[str], Awaitable[object]]


@contextlib.asynccontextmanager
async def reloaded(models_dir: Path, batch: int, threads: int, warm: list[str]) -> AsyncIterator[Documents]:
    """A built-in embedder loaded and warmed up for one pass, dropped after it: ONNX Runtime's memory arena keeps
    each session's peak, so a sweep holding all its settings at once grew past 10 GB."""
    embedder = BuiltinEmbedder(models_dir, threads=threads, batch=batch)
    try:
        await embedder.embed_documents(warm)
        yield embedder.embed_documents
    finally:
        await embedder.aclose()
        gc.collect()


def log(step: str) -> None:
    """Progress on stderr: a run takes long on a busy machine."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"bench: embedder {time.strftime('%H:%M:%S')}: {step} (load {load})", file=sys.stderr, flush=True)


def calls_of(texts: Sequence[str]) -> list[list[str]]:
    """The texts cut as the indexer hands them to the embedder (`dense_sync.EMBED_BATCH` per call, in index order)."""
    return [list(texts[i : i + EMBED_BATCH]) for i in range(0, len(texts), EMBED_BATCH)]


def band_of(text: str) -> str:
    return "short" if len(text) < SHORT_BELOW else "long" if len(text) > LONG_ABOVE else "medium"


def rotated(names: Sequence[T], turn: int) -> list[T]:
    shift = turn % len(names) if names else 0
    return [*names[shift:], *names[:shift]]


def _floor_variant(floor: OnnxFloor, batch: int) -> Variant:
    async def documents(texts: list[str]) -> Rows:
        return floor.embed(texts, batch)

    async def query(text: str) -> object:
        return floor.embed([text], 1)

    return Variant(documents, query)


@contextlib.asynccontextmanager
async def variants(
    models_dir: Path, http_url: str | None, batch: int = DEFAULTS.batch, threads: int = DEFAULTS.threads
) -> AsyncIterator[dict[str, Variant]]:
    """The floor, the built-in embedder, the floor without graph optimisations and (with a URL) the HTTP embedder,
    each loaded before anything is timed."""
    builtin = BuiltinEmbedder(models_dir, threads=threads, batch=batch)
    await builtin.dimension()
    folder = model_folder(ALL_MINILM, models_dir)
    found = {
        "floor": _floor_variant(OnnxFloor(folder, ALL_MINILM.onnx_file, threads), batch),
        "builtin": Variant(builtin.embed_documents, builtin.embed_query),
        "floor_noopt": _floor_variant(OnnxFloor(folder, ALL_MINILM.onnx_file, threads, optimise=False), batch),
    }
    http: OllamaEmbedder | None = None
    try:
        if http_url:
            # The indexer's own settings: batches of `embed_batch`, `embed_concurrency` in flight.
            http = OllamaEmbedder(OllamaConfig(url=http_url, embed_model=HTTP_MODEL))
            await http.dimension()
            found["http"] = Variant(http.embed_documents, http.embed_query)
        yield found
    finally:
        await builtin.aclose()
        if http is not None:
            await http.aclose()


async def interleaved(
    documents: Mapping[str, Documents], texts: Sequence[str], repeats: int, *, warm: bool = True
) -> tuple[dict[str, list[float]], dict[str, Matrix]]:
    """Seconds per pass over `texts` for each variant, `repeats` passes; and each one's vectors.

    The variants take turns call by call (each indexer call goes through every variant, in an order that rotates,
    before the next call), so load from other jobs, which shifts within seconds, falls on all of them alike.
    """
    calls = calls_of(texts)
    names = list(documents)
    if warm:  # first-call costs (allocations, connections) stay out of the figures
        for name in names:
            await documents[name](calls[0])
    seconds: dict[str, list[float]] = {name: [] for name in names}
    rows: dict[str, list[Matrix]] = {name: [] for name in names}
    for turn in range(repeats):
        took = dict.fromkeys(names, 0.0)
        for at, call in enumerate(calls):
            for name in rotated(names, turn + at):
                started = time.perf_counter()
                vectors = await documents[name](call)
                took[name] += time.perf_counter() - started
                if turn == 0:
                    rows[name].append(np.asarray(vectors, dtype=np.float32))
        for name in names:
            seconds[name].append(round(took[name], 4))
    return seconds, {name: np.vstack(found) for name, found in rows.items()}


def figures(seconds: list[float], chunks: int, tokens: int) -> dict[str, object]:
    median = statistics.median(seconds)
    return {
        "seconds": seconds,
        "chunks_per_s": round(chunks / median, 2),
        "tokens_per_s": round(tokens / median, 1),
    }


def ratio(faster: list[float], slower: list[float]) -> float:
    """Median over repetitions of slower ÷ faster seconds: how many times the first variant's throughput."""
    return round(statistics.median(s / f for f, s in zip(faster, slower, strict=True)), 3)


def _compare(seconds: dict[str, list[float]], chunks: int, tokens: int) -> dict[str, object]:
    found: dict[str, object] = {name: figures(runs, chunks, tokens) for name, runs in seconds.items()}
    ratios = {"builtin_vs_floor": ratio(seconds["builtin"], seconds["floor"])}
    if "http" in seconds:
        ratios["builtin_vs_http"] = ratio(seconds["builtin"], seconds["http"])
    if "floor_noopt" in seconds:
        ratios["floor_noopt_vs_floor"] = ratio(seconds["floor_noopt"], seconds["floor"])
    found["ratios"] = ratios
    return found


@dataclass(frozen=True)
class SampleSpec:
    """What is measured on the sample vault only: the batch × threads sweep and query latency."""

    batches: tuple[int, ...]
    threads: tuple[int, ...]
    questions: list[str]
    query_calls: int
    query_warmup: int


async def _paths(found: dict[str, Variant], texts: list[str], tokens: list[int], repeats: int) -> dict[str, object]:
    documents = {name: v.documents for name, v in found.items()}
    log(f"{len(texts)} chunks, {' / '.join(documents)}")
    seconds, vectors = await interleaved(documents, texts, repeats)
    result: dict[str, object] = {"tokens": sum(tokens), **_compare(seconds, len(texts), sum(tokens))}
    match = {
        f"{name}_vs_builtin_min_cosine": round(min_cosine(rows, vectors["builtin"]), 6)
        for name, rows in vectors.items()
        if name != "builtin"
    }
    result["match"] = match
    bands: dict[str, object] = {}
    for band in ("short", "medium", "long"):
        picked = [i for i, text in enumerate(texts) if band_of(text) == band]
        if picked:
            band_tokens = sum(tokens[i] for i in picked)
            log(f"{band} chunks ({len(picked)})")
            band_seconds, _ = await interleaved(documents, [texts[i] for i in picked], repeats)
            compared = _compare(band_seconds, len(picked), band_tokens)
            bands[band] = {"chunks": len(picked), "tokens": band_tokens, **compared}
    result["bands"] = bands
    return result


async def _sweep(
    models_dir: Path, shipped: Documents, configs: list[tuple[int, int]], texts: list[str], tokens: int, repeats: int
) -> dict[str, object]:
    """Each setting in its own pass, paired call by call with the shipped setting (kept loaded): a pass takes
    minutes, and the load from other jobs changes within them, so each ratio comes from calls seconds apart. The
    shipped setting paired with a second copy of itself shows how far apart two equal settings come out."""
    calls = calls_of(texts)
    seconds: dict[tuple[int, int], list[float]] = {c: [] for c in configs}
    paired: dict[tuple[int, int], list[float]] = {c: [] for c in configs}
    for turn in range(repeats):
        for b, t in rotated(configs, turn):
            async with reloaded(models_dir, b, t, calls[0]) as embed:
                pair, _ = await interleaved({"shipped": shipped, "setting": embed}, texts, 1, warm=False)
            seconds[(b, t)] += pair["setting"]
            paired[(b, t)] += pair["shipped"]
    rows = [
        {"batch": b, "threads": t, **figures(seconds[(b, t)], len(texts), tokens), "shipped_seconds": paired[(b, t)],
         "vs_reference": ratio(seconds[(b, t)], paired[(b, t)])}
        for b, t in configs
    ]  # fmt: skip
    reference = {"batch": DEFAULTS.batch, "threads": DEFAULTS.threads}
    return {"chunks": len(texts), "tokens": tokens, "reference": reference, "rows": rows}


async def _queries(
    queries: dict[str, Callable[[str], Awaitable[object]]], questions: list[str], calls: int, warmup: int
) -> dict[str, object]:
    names = list(queries)
    for i in range(warmup):
        for name in names:
            await queries[name](questions[i % len(questions)])
    samples: dict[str, list[float]] = {name: [] for name in names}
    for i in range(calls):
        for name in rotated(names, i):
            started = time.perf_counter()
            await queries[name](questions[i % len(questions)])
            samples[name].append((time.perf_counter() - started) * 1000.0)
    return {name: percentiles(ms) for name, ms in samples.items()}


async def _measure(
    texts: list[str], models_dir: Path, http_url: str | None, repeats: int, sample: SampleSpec | None
) -> dict[str, object]:
    tokens = token_counts(model_folder(ALL_MINILM, models_dir), texts)
    async with variants(models_dir, http_url) as found:
        result = await _paths(found, texts, tokens, repeats)
        if sample is None:
            return result
        configs = list(dict.fromkeys((b, t) for t in sample.threads for b in sample.batches))
        reference = (DEFAULTS.batch, DEFAULTS.threads)
        configs += [] if reference in configs else [reference]
        log(f"sweep of {len(configs)} settings")
        result["sweep"] = await _sweep(models_dir, found["builtin"].documents, configs, texts, sum(tokens), repeats)
        one_thread = BuiltinEmbedder(models_dir, threads=1, batch=DEFAULTS.batch)
        try:
            queries = {name: v.query for name, v in found.items() if name != "floor_noopt"}
            queries["builtin_1_thread"] = one_thread.embed_query
            log("query latency")
            result["query_ms"] = await _queries(queries, sample.questions, sample.query_calls, sample.query_warmup)
        finally:
            await one_thread.aclose()
    return result


def measure(
    texts: list[str], models_dir: Path, http_url: str | None, repeats: int, sample: SampleSpec | None = None
) -> dict[str, object]:
    """The floor, the built-in path and the HTTP path over all chunks and over each length band; with `sample`,
    also the built-in path's batch × threads sweep (every configuration taking turns in each repetition) and
    `embed_query` latency in ms per variant, one question at a time, the variants taking turns."""
    return asyncio.run(_measure(texts, models_dir, http_url, repeats, sample))
