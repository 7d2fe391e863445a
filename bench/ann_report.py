"""The approximate-search bench's tables and its recall/latency trade-off plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # the backend must be chosen first

Results = dict[str, object]


def markdown(results: Results) -> str:
    meta = cast(dict[str, object], results["meta"])
    m = cast(dict[str, object], meta["machine"])
    lines = [
        f"# Approximate dense search {meta['date']}",
        "",
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gb']} GB RAM; load average {meta['load_start']} at the "
        f"start, {meta.get('load_end')} at the end. Vectors: {meta['model']} embeddings of real vaults' "
        f"chunks ({meta['real_chunks']}), grown to each size with mixes of two real chunks plus "
        f"{meta.get('growth', 'noise')}; "
        f"{meta['questions']} real questions (the eval sets) as queries; top {meta['k']} per query, as the dense "
        "leg asks. Recall against exact float64 search. Latency is the engine call alone (no thread hop).",
        "",
        "| size | setting | hnsw_ef | p50 / p95 ms | recall@10 | recall@50 | graph build s | RSS MB | disk MB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in cast(list[dict[str, object]], results["sizes"]):
        for name, entry in cast(dict[str, dict[str, object]], row["variants"]).items():
            runs = cast(dict[str, dict[str, object]], entry["runs"])
            segments = cast(int, entry.get("segments", 1))
            shown = name if segments <= 1 else f"{name} ({segments} graph segments)"
            for ef, run in runs.items():
                if ef == "folder10_exact":
                    continue
                ms = cast(dict[str, float], run["ms"])
                size = f"{cast(int, row['n']):,} × {row['dim']}"
                lines.append(
                    f"| {size} | {shown} | {ef} | {ms['p50']:.3g} / {ms['p95']:.3g} | {run['recall10']} | "
                    f"{run['recall50']} | {entry['graph_s']} | {entry['rss_mb']} | {entry['disk_mb']} |"
                )
            folder = runs["folder10_exact"]
            fms = cast(dict[str, float], folder["ms"])
            lines.append(
                f"| {cast(int, row['n']):,} × {row['dim']} | {name}, folder filter ≈ 10 % (exact) | — | "
                f"{fms['p50']:.3g} / {fms['p95']:.3g} | {folder['recall10']} | — | — | — | — |"
            )
    return "\n".join(lines) + "\n"


def plot(results: Results, path: Path) -> None:
    sizes = cast(list[dict[str, object]], results["sizes"])
    figure, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 4.2), squeeze=False)
    for axis, row in zip(axes[0], sizes, strict=True):
        for name, entry in cast(dict[str, dict[str, object]], row["variants"]).items():
            runs = [
                (ef, r) for ef, r in cast(dict[str, dict[str, object]], entry["runs"]).items() if ef != "folder10_exact"
            ]
            xs = [cast(dict[str, float], r["ms"])["p50"] for _, r in runs]
            ys = [cast(float, r["recall10"]) for _, r in runs]
            axis.plot(xs, ys, "o-" if len(xs) > 1 else "s", label=name)
            for (ef, _), x, y in zip(runs, xs, ys, strict=True):
                axis.annotate(ef, (x, y), fontsize=7, textcoords="offset points", xytext=(3, -9))
        axis.axhline(0.98, color="grey", linewidth=0.8, linestyle="--", label="recall 0.98")
        axis.set(
            xscale="log", xlabel="p50 ms (top 50)", ylabel="recall@10", title=f"{cast(int, row['n']):,} × {row['dim']}"
        )
        axis.legend(fontsize=8)
    meta = cast(dict[str, object], results["meta"])
    figure.suptitle(f"Approximate vs exact dense search, {meta['model']} ({meta['date']}); labels: hnsw_ef")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write(results: Results, out_dir: Path) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"ann-{cast(dict[str, object], results['meta'])['date']}"
    paths = {"json": out_dir / f"{stem}.json", "md": out_dir / f"{stem}.md", "png": out_dir / f"{stem}.png"}
    paths["json"].write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    paths["md"].write_text(markdown(results), encoding="utf-8")
    plot(results, paths["png"])
    return paths
