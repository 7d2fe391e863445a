"""Turns a suite's results into goals met or missed, a Markdown report, a PNG plot and the JSON record."""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import matplotlib

from bench.cli_startup import cli_section
from bench.embedder_report import embedder_section
from bench.pdf_report import pdf_section

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # the backend must be chosen first

Results = dict[str, object]


@dataclass(frozen=True, slots=True)
class Goal:
    name: str
    where: tuple[str, ...]
    """Path of keys into the results; a size label picks that size's entry."""
    limit: float
    unit: str
    shown: str
    compare: str = "<="
    """How the measured value must stand to the limit: `<=`, `>=` or `>` (a ratio that must exceed it)."""


_COMPARE = {"<=": operator.le, ">=": operator.ge, ">": operator.gt}
_EMBED = ("embedder", "vaults", "sample-vault")


GOALS = (
    Goal("hybrid retrieval p50, 10k × 768-d", ("sizes", "10k", "latency_ms", "hybrid", "p50"), 10, "ms", "≤ 10 ms"),
    Goal("keyword leg ÷ bm25s (p50), 50k chunks", ("sizes", "50k", "ratios", "keyword_vs_bm25s_p50"), 5, "×", "≤ 5×"),
    Goal("no-op re-index, 10k notes (p50)", ("freshness", "noop_reindex_s", "p50"), 3, "s", "≤ 3 s"),
    Goal("save-to-searchable, 10k notes, excl. embedding (p50)", ("freshness", "save_to_searchable_s", "p50"), 1, "s",
         "≤ 1 s + embedding"),
    Goal("answer overhead before the first token (p50)", ("answer", "overhead_ms", "p50"), 30, "ms", "≤ 30 ms"),
    Goal("sidecar peak RSS, 20k chunks", ("sidecar", "peak_rss_mb"), 600, "MB", "≤ 600 MB"),
    Goal("related notes p50, 10k × 768-d", ("sizes", "10k", "latency_ms", "related", "p50"), 20, "ms", "≤ 20 ms"),
    Goal("hybrid retrieval p50, 1M × 768-d (`--sizes 1m`)", ("sizes", "1m", "latency_ms", "hybrid", "p50"), 50, "ms",
         "≤ 50 ms"),
    Goal("RSS after indexing, 1M × 768-d (`--sizes 1m`)", ("sizes", "1m", "memory_after_index_mb", "VmRSS"), 4096,
         "MB", "≤ 4 GB"),
    Goal("built-in embedder ÷ ONNX floor, sample vault chunks/s", (*_EMBED, "ratios", "builtin_vs_floor"), 0.8, "×",
         "≥ 0.8×", ">="),
    Goal("built-in embedder ÷ HTTP (Ollama API, all-minilm), sample vault chunks/s",
         (*_EMBED, "ratios", "builtin_vs_http"), 1.0, "×", "> 1× (faster)", ">"),
    Goal("RSS the built-in embedder adds to the sidecar (peak, sample vault embedded)",
         ("embedder", "memory", "engine-b{batch}", "added_peak_mb"), 150, "MB", "≤ 150 MB"),
    Goal("query embedding p50, built-in embedder", ("embedder", "query_ms", "builtin", "p50"), 15, "ms", "≤ 15 ms"),
    Goal("`askvault --version` (median, fresh process)", ("cli", "commands", "--version", "median_ms"), 300, "ms",
         "≤ 0.3 s"),
    Goal("`askvault token` (median, fresh process)", ("cli", "commands", "token", "median_ms"), 300, "ms", "≤ 0.3 s"),
    Goal("`askvault search` through a running sidecar (median, fresh process)",
         ("cli", "commands", "search (through the sidecar)", "median_ms"), 500, "ms", "≤ 0.5 s"),
)  # fmt: skip


def lookup(results: Mapping[str, object], where: Sequence[str]) -> float | None:
    node: object = results
    for key in where:
        if isinstance(node, list):
            node = next((s for s in node if isinstance(s, dict) and s.get("label") == key), None)
        elif isinstance(node, dict):
            node = node.get(key)
        if node is None:
            return None
    return float(node) if isinstance(node, int | float) and math.isfinite(node) else None


def goals(results: Mapping[str, object]) -> list[dict[str, object]]:
    # `{batch}` is the built-in embedder's default batch when the results were measured, not the code's today.
    batch = str(lookup(results, ("embedder", "defaults", "batch")) or "").removesuffix(".0")
    rows: list[dict[str, object]] = []
    for goal in GOALS:
        value = lookup(results, [key.replace("{batch}", batch) for key in goal.where])
        met: bool | None = None if value is None else bool(_COMPARE[goal.compare](value, goal.limit))
        rows.append({"name": goal.name, "value": value, "unit": goal.unit, "goal": goal.shown, "met": met})
    return rows


def _pair(figures: object, scale: float = 1.0) -> str:
    if not isinstance(figures, dict) or figures.get("p50") is None:
        return "—"
    return f"{figures['p50'] * scale:.3g} / {figures['p95'] * scale:.3g}"


def _get(entry: Mapping[str, object], *keys: str) -> object:
    node: object = entry
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node


SIZE_ROWS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("hybrid retrieval ms p50 / p95 (excl. query embedding)", ("latency_ms", "hybrid"), "pair"),
    ("dense leg ms", ("latency_ms", "dense"), "pair"),
    ("keyword leg ms", ("latency_ms", "keyword"), "pair"),
    ("fusion ms", ("latency_ms", "fusion"), "pair"),
    ("related notes ms (one note, k = 10, dense)", ("latency_ms", "related"), "pair"),
    ("… its notes' chunks (mean)", ("related_source_chunks_mean", "even"), "num"),
    ("related notes ms, the longest notes", ("latency_ms", "related_longest"), "pair"),
    ("… their chunks (mean)", ("related_source_chunks_mean", "longest"), "num"),
    ("floor: NumPy float32 dot ms", ("latency_ms", "numpy_floor"), "pair"),
    ("floor: bm25s ms", ("latency_ms", "bm25s_floor"), "pair"),
    ("dense ÷ NumPy (p50)", ("ratios", "dense_vs_numpy_p50"), "x"),
    ("keyword ÷ bm25s (p50)", ("ratios", "keyword_vs_bm25s_p50"), "x"),
    ("dense search (exact, or a graph for unfiltered searches)", ("dense_search",), "text"),
    ("dense top-10 recall vs exact (ties allowed)", ("dense_top10_recall",), "share"),
    ("… graph segments searched", ("dense_ef_sweep", "segments"), "num"),
    ("… dense leg ms at hnsw_ef 128 (top 50)", ("dense_ef_sweep", "128", "ms"), "pair"),
    ("… dense leg ms at hnsw_ef 256", ("dense_ef_sweep", "256", "ms"), "pair"),
    ("… dense leg ms at hnsw_ef 512", ("dense_ef_sweep", "512", "ms"), "pair"),
    ("keyword top-20 = exact BM25 (ids, order, scores; ties by rebuild order)", ("keyword_top20_exact",), "share"),
    ("keyword top-10 same set as bm25s", ("keyword_top10_same_as_bm25s",), "share"),
    ("… the same up to ties at the 10th place", ("keyword_top10_same_as_bm25s_up_to_ties",), "share"),
    ("full index: notes/s", ("index", "notes_per_s"), "num"),
    ("full index: chunks/s", ("index", "chunks_per_s"), "num"),
    ("full index: share of time outside embedding", ("index", "share_outside_embedding"), "share"),
    ("BM25 whole-corpus rebuild s", ("index", "keyword_rebuild_s"), "num"),
    ("vector graph build s (background, after the run)", ("index", "graph_build_s"), "num"),
    ("vector graph build: child's peak RSS MB", ("graph_build_peak_rss_mb",), "num"),
    ("bm25s index on the same tokens s", ("bm25s_index_s",), "num"),
    ("peak RSS of the run MB (index + queries + floors)", ("memory_peak_mb",), "num"),
    ("RSS after indexing MB", ("memory_after_index_mb", "VmRSS"), "num"),
    ("… of it anonymous MB (the process's own)", ("memory_after_index_mb", "RssAnon"), "num"),
    ("… of it mapped files MB (droppable pages of the engine's files)", ("memory_after_index_mb", "RssFile"), "num"),
    ("on disk MB per 1k chunks (vectors + manifest)", ("disk_mb_per_1k_chunks", "total"), "num"),
)


def _cell(value: object, kind: str) -> str:
    if kind == "pair":
        return _pair(value)
    if kind == "text":
        return str(value) if value is not None else "—"
    if not isinstance(value, int | float):
        return "—"
    if kind == "x":
        return f"{value:.2f}×"
    if kind == "share":
        return f"{value * 100:.1f} %"
    return f"{value:,.3g}" if value < 1000 else f"{value:,.0f}"


def markdown(results: Results) -> str:
    meta = cast(dict[str, object], results["meta"])
    m = cast(dict[str, object], meta["machine"])
    lines = [
        f"# Benchmarks {meta['date']} (commit {meta['commit']})",
        "",
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gb']} GB RAM, Python {m['python']}, Linux {m['kernel']}. "
        f"Shared and noisy (other jobs ran): load average {meta['load_start']} at the start, {meta['load_end']} at "
        f"the end. Latencies are p50 / p95 of {meta['queries']} queries per size (after {meta['warmup']} warm-up); "
        f"freshness figures of {meta['repeats']} runs. Embedder: {meta['embedder']}.",
        "",
        "## Goals",
        "",
        "| figure | measured | goal | met? |",
        "|---|---|---|---|",
    ]
    for row in cast(list[dict[str, object]], results["goals"]):
        value = row["value"]
        shown = "not measured" if not isinstance(value, float) else f"{value:.3g} {row['unit']}"
        met = {True: "yes", False: "**no**", None: "—"}[cast(bool | None, row["met"])]
        lines.append(f"| {row['name']} | {shown} | {row['goal']} | {met} |")
    sizes = cast(list[dict[str, object]], results["sizes"])
    if sizes:
        lines += ["", f"## By corpus size ({sizes[0]['dim']}-d vectors, hash embedder)", ""]
        lines.append(
            "| | " + " | ".join(f"{s['label']} ({s['chunks']:,} chunks, {s['notes']:,} notes)" for s in sizes) + " |"
        )
        lines.append("|---" * (len(sizes) + 1) + "|")
        for title, keys, kind in SIZE_ROWS:
            lines.append(f"| {title} | " + " | ".join(_cell(_get(s, *keys), kind) for s in sizes) + " |")
    lines += _sections(results)
    return "\n".join(lines) + "\n"


def _sections(results: Results) -> list[str]:
    lines: list[str] = []
    fresh = results.get("freshness")
    if isinstance(fresh, dict):
        lines += ["", f"## Freshness ({fresh['notes']:,} notes, {fresh['chunks']:,} chunks; seconds p50 / p95)", ""]
        lines += ["| figure | s |", "|---|---|"]
        for key, title in (
            ("noop_reindex_s", "no-op re-index (warm process)"),
            ("startup_open_s", "start-up: serving the last index (lock, manifest, BM25 load, vectors open)"),
            ("startup_reconcile_s", "start-up reconcile (background, nothing changed)"),
            ("save_to_searchable_s", "save-to-searchable through the watcher (incl. 0.3 s debounce)"),
            ("watcher_apply_s", "… of which the indexer's apply of the one-note batch"),
            ("keyword_rebuild_s", "… of which the whole-corpus BM25 rebuild"),
            ("dense_sync_noop_s", "… of which the dense sync with nothing to embed (orphan sweep)"),
        ):
            lines.append(f"| {title} | {_pair(fresh.get(key))} |")
    answer = results.get("answer")
    if isinstance(answer, dict):
        lines += ["", f"## Answer overhead ({answer['chunks']:,} chunks, fake Ollama on loopback; ms p50 / p95)", ""]
        lines += ["| figure | ms |", "|---|---|"]
        for key, title in (
            ("overhead_ms", "ours: to first token − embedding − model's own first token"),
            ("run_to_first_token_ms", "pipeline.run() to the first token"),
            ("model_ttft_ms", "the model's own first token (same messages, straight through the client)"),
            ("retrieval_ms", "retrieval (excl. embedding), as the pipeline reports it"),
        ):
            lines.append(f"| {title} | {_pair(answer.get(key))} |")
    side = results.get("sidecar")
    if isinstance(side, dict):
        lines += ["", f"## Sidecar (`askvault serve`, {side['chunks']:,} chunks × {side['dim']}-d)", ""]
        peaks = ", ".join(str(p) for p in cast(list[float], side.get("peak_rss_mb_runs", [side["peak_rss_mb"]])))
        lines.append(
            f"Peak RSS (VmHWM), the highest of {side.get('runs', 1)} runs: {side['peak_rss_mb']} MB (each run: {peaks} "
            f"MB). In that run: RSS serving {side['rss_mb_serving']} MB, after the start-up reconcile "
            f"{side['rss_mb_after_reconcile']} MB, after queries {side['rss_mb_after_queries']} MB. Serving after "
            f"{side['serving_after_s']} s, reconciled after {side['reconciled_after_s']} s; HTTP search p50 / p95 "
            f"{_pair(side['api_search_ms'])} ms (incl. the fake's query embedding over HTTP)."
        )
    engines = results.get("engines")
    if isinstance(engines, list) and engines:
        first = cast(dict[str, object], engines[0])
        lines += ["", f"## Embedded vector engines ({first['n']:,} × {first['dim']}-d, top-20, ms p50 / p95)", ""]
        lines += ["| engine | build s | reopen s | unfiltered | folder 10 % | folder 2 % | recall@20 | RSS Δ MB |"]
        lines += ["|---|---|---|---|---|---|---|---|"]
        for row in cast(list[dict[str, object]], engines):
            lat = " | ".join(
                f"{row[f'{r}_p50_ms']:.3g} / {row[f'{r}_p95_ms']:.3g}" for r in ("all", "folder10", "folder2")
            )
            lines.append(
                f"| {row['engine']} | {row['build_s']} | {row['reopen_s']:.2f} | {lat} | {row['all_recall']:.3f} | "
                f"{row['rss_mb']:.0f} |"
            )
    minilm = results.get("minilm")
    if isinstance(minilm, dict):
        lines += ["", f"## Real embedder ({minilm['model']}, {minilm['dim']}-d, {minilm['chunks']:,} chunks)", ""]
        lines.append(
            f"Full index {minilm['notes_per_s']} notes/s, {minilm['chunks_per_s']} chunks/s; "
            f"{minilm['share_outside_embedding'] * 100:.1f} % of the time outside embedding. "
            f"Query embedding p50 / p95 {_pair(minilm['query_embed_ms'])} ms; hybrid retrieval excluding it "
            f"{_pair(minilm['hybrid_excluding_embed_ms'])} ms."
        )
    elif isinstance(minilm, str):
        lines += ["", f"Real embedder: {minilm}"]
    embedder = results.get("embedder")
    if isinstance(embedder, dict):
        lines += embedder_section(embedder)
    cli = results.get("cli")
    if isinstance(cli, dict):
        lines += cli_section(cli)
    pdf = results.get("pdf")
    if isinstance(pdf, dict):
        lines += pdf_section(pdf)
    return lines


def plot(results: Results, path: Path) -> None:
    sizes = cast(list[dict[str, object]], results["sizes"])
    chunks = [cast(int, s["chunks"]) for s in sizes]
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for leg, style in (
        ("hybrid", "o-"),
        ("dense", "s-"),
        ("keyword", "^-"),
        ("numpy_floor", "s:"),
        ("bm25s_floor", "^:"),
    ):
        p50 = [cast(float, _get(s, "latency_ms", leg, "p50")) for s in sizes]
        p95 = [cast(float, _get(s, "latency_ms", leg, "p95")) for s in sizes]
        line = left.plot(chunks, p50, style, label=f"{leg} p50")[0]
        left.fill_between(chunks, p50, p95, color=line.get_color(), alpha=0.12)
    left.axhline(10, color="grey", linewidth=0.8, linestyle="--", label="goal: hybrid p50 10 ms")
    left.set(xscale="log", yscale="log", xlabel="chunks", ylabel="ms (p50; band to p95)", title="Query latency")
    left.legend(fontsize=8)
    right.plot(
        chunks, [_get(s, "memory_peak_mb") for s in sizes], "o-", label="peak RSS of the size's run (incl. the floors)"
    )
    right.plot(chunks, [_get(s, "memory_after_index_mb", "VmRSS") for s in sizes], "s-", label="RSS after indexing")
    disk = [
        cast(float, _get(s, "disk_mb_per_1k_chunks", "total")) * c / 1000 for s, c in zip(sizes, chunks, strict=True)
    ]
    right.plot(chunks, disk, "^-", label="index on disk")
    side = results.get("sidecar")
    if isinstance(side, dict):
        right.plot([side["chunks"]], [side["peak_rss_mb"]], "r*", markersize=12, label="askvault serve peak RSS")
    right.axhline(600, color="grey", linewidth=0.8, linestyle="--", label="goal: sidecar 600 MB at 20k")
    right.axhline(4096, color="grey", linewidth=0.8, linestyle=":", label="goal: 4 GB after indexing 1M")
    right.set(xscale="log", xlabel="chunks", ylabel="MB", title="Memory and disk")
    right.legend(fontsize=8)
    meta = cast(dict[str, object], results["meta"])
    figure.suptitle(f"Ask Vault benchmarks {meta['date']} ({meta['commit']}), {sizes[0]['dim'] if sizes else ''}-d")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write(results: Results, out_dir: Path) -> dict[str, Path]:
    """Writes <name>.json, <name>.md and (with sizes) <name>.png into `out_dir`; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    results["goals"] = goals(results)
    meta = cast(dict[str, object], results["meta"])
    stem = str(meta.get("name") or meta["date"])
    paths = {"json": out_dir / f"{stem}.json", "md": out_dir / f"{stem}.md"}
    paths["json"].write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    paths["md"].write_text(markdown(results), encoding="utf-8")
    if results["sizes"]:  # the plot is of the sizes
        paths["png"] = out_dir / f"{stem}.png"
        plot(results, paths["png"])
    return paths
