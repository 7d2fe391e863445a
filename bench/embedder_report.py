"""The embedder part as Markdown: throughput against the floor and HTTP, first index, sweep, memory, queries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

Node = Mapping[str, object]
_PATHS = (("floor", "ONNX floor"), ("builtin", "built-in"), ("http", "HTTP"), ("floor_noopt", "floor, no graph opt."))


def _node(parent: object, key: str) -> Node:
    found = parent.get(key) if isinstance(parent, Mapping) else None
    return cast(Node, found) if isinstance(found, Mapping) else {}


def _num(value: object, digits: int = 3) -> str:
    if not isinstance(value, int | float):
        return "—"
    return f"{value:.{digits}g}" if abs(value) < 1000 else f"{value:,.0f}"


def _x(value: object) -> str:
    return f"{value:.2f}×" if isinstance(value, int | float) else "—"


def _throughput(figures: Node) -> str:
    if not figures:
        return "—"
    return f"{_num(figures.get('chunks_per_s'))} ({_num(figures.get('tokens_per_s'))})"


def _throughput_rows(title: str, chunks: object, tokens: object, node: Node) -> str:
    ratios = _node(node, "ratios")
    cells = " | ".join(_throughput(_node(node, key)) for key, _ in _PATHS)
    return (
        f"| {title} | {chunks} | {_num(tokens, 4)} | {cells} | {_x(ratios.get('builtin_vs_floor'))} | "
        f"{_x(ratios.get('builtin_vs_http'))} | {_x(ratios.get('floor_noopt_vs_floor'))} |"
    )


def _paths_table(e: Node, vaults: list[Node]) -> list[str]:
    bands = cast(Node, e.get("bands_chars", {}))
    lines = [
        "",
        f"### Throughput on the same chunks (chunks/s, tokens/s in brackets; median of {e['repeats']} passes each)",
        "",
        f"Chunks as the indexer hands them over ({e['indexer_call']} per `embed_documents` call, in index order), "
        "each call through every variant before the next; "
        f"built-in and floor at batch {cast(Node, e['defaults'])['batch']}, threads "
        f"{cast(Node, e['defaults'])['threads']} (0: ONNX Runtime's default). Bands by characters: short "
        f"< {bands.get('short_below')}, long > {bands.get('long_above')}. Ratios are medians of the ratios within "
        "each repetition, so a burst of load hits both sides alike.",
        "",
        "| chunks of | chunks | tokens | ONNX floor | built-in | HTTP | floor, no graph opt. | built-in ÷ floor | "
        "built-in ÷ HTTP | no graph opt. ÷ floor |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for vault in vaults:
        lines.append(_throughput_rows(f"{vault['label']}, all", vault.get("chunks"), vault.get("tokens"), vault))
        for band, node in cast(Node, vault.get("bands", {})).items():
            band_node = cast(Node, node)
            title = f"… {band}"
            lines.append(_throughput_rows(title, band_node.get("chunks"), band_node.get("tokens"), band_node))
    names = {key: title for key, title in _PATHS}
    matches = [
        f"{v['label']}: "
        + ", ".join(
            f"{names.get(key.removesuffix('_vs_builtin_min_cosine'), key)} {_num(value, 6)}"
            for key, value in _node(v, "match").items()
        )
        for v in vaults
    ]
    lines += ["", "Lowest cosine to the built-in embedder's vector of the same chunk: " + "; ".join(matches) + "."]
    return lines


def _index_table(vaults: list[Node]) -> list[str]:
    lines = [
        "",
        "### First index (`open_engine` + `indexer.run()`, each run in a fresh process; medians)",
        "",
        "| vault | embedder | notes | chunks | s | chunks/s | model load / probe s | embedding s | share embedding |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    ratios = []
    for vault in vaults:
        first = _node(vault, "first_index")
        for key, title in (("builtin", "built-in"), ("http", "HTTP")):
            run = _node(first, key)
            if run:
                share = run.get("embed_share")
                lines.append(
                    f"| {vault['label']} | {title} | {run.get('notes')} | {run.get('chunks')} | "
                    f"{_num(run.get('seconds'))} | {_num(run.get('chunks_per_s'))} | {_num(run.get('load_seconds'))} "
                    f"| {_num(run.get('embed_seconds'))} | {_num(cast(float, share) * 100)} % |"
                )
        if "builtin_vs_http" in first:
            ratios.append(f"{vault['label']} {_x(first['builtin_vs_http'])}")
    if ratios:
        lines += ["", "Built-in ÷ HTTP first-index speed (median of the ratios per turn): " + ", ".join(ratios) + "."]
    return lines


def _sweep_table(sweep: Node) -> list[str]:
    rows = cast(list[Node], sweep.get("rows", []))
    if not rows:
        return []
    threads = sorted({cast(int, r["threads"]) for r in rows})
    batches = sorted({cast(int, r["batch"]) for r in rows})
    ref = _node(sweep, "reference")
    by = {(r["batch"], r["threads"]): r for r in rows}
    lines = [
        "",
        f"### Batch size × threads (built-in path, {sweep.get('vault')}: {sweep.get('chunks')} chunks)",
        "",
        f"Chunks/s (tokens/s), and × the shipped setting (batch {ref.get('batch')}, threads {ref.get('threads')}): "
        "each setting is loaded for its pass and takes turns call by call with the shipped one, kept loaded (the "
        "median of the ratios per pass). The shipped setting's own row pairs it with a second copy of itself: how "
        "far from 1.00× two equal settings come out here. Threads 0 is ONNX Runtime's default.",
        "",
        "| batch | " + " | ".join(f"threads {t}" for t in threads) + " |",
        "|---" * (len(threads) + 1) + "|",
    ]
    for batch in batches:
        cells = []
        for t in threads:
            row = by.get((batch, t))
            cells.append(f"{_throughput(row)}, {_x(row.get('vs_reference'))}" if row else "")
        lines.append(f"| {batch} | " + " | ".join(cells) + " |")
    return lines


def _memory_table(runs: list[Node]) -> list[str]:
    if not runs:
        return []
    lines = [
        "",
        "### Memory (a fresh interpreter per row; MB)",
        "",
        "`alone`: askvault's embedder modules imported, then fastembed (and ONNX Runtime) imported, the model loaded "
        "and the sample vault embedded. `floor`: the same with ONNX Runtime and tokenizers alone (the ONNX floor); "
        "`floor-noopt`: the floor without ONNX Runtime's graph optimisations. "
        "`engine`: `askvault.wiring` imported first, as in the sidecar, which already holds fastembed and ONNX "
        "Runtime (qdrant-client imports them), so only the model is left to add.",
        "",
        "| run | batch | RSS before | + by the import | + after loading | + after embedding | peak added (VmHWM) |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        before = _node(_node(run, "steps_mb"), "before").get("VmRSS")
        lines.append(
            f"| {run.get('label')} | {run.get('batch')} | {_num(before, 4)} | {_num(run.get('added_by_import_mb'))} | "
            f"{_num(run.get('added_after_load_mb'))} | {_num(run.get('added_after_embedding_mb'))} | "
            f"{_num(run.get('added_peak_mb'))} |"
        )
    return lines


def _query_table(e: Node) -> list[str]:
    query = _node(e, "query_ms")
    if not query:
        return []
    titles = {"floor": "ONNX floor", "builtin": "built-in", "builtin_1_thread": "built-in, 1 thread", "http": "HTTP"}
    lines = [
        "",
        f"### Query embedding (`embed_query`, {e.get('query_calls')} calls on the eval questions; ms p50 / p95)",
        "",
        "| " + " | ".join(titles.get(k, k) for k in query) + " |",
        "|---" * len(query) + "|",
    ]
    cells = [f"{_num(_node(query, k).get('p50'))} / {_num(_node(query, k).get('p95'))}" for k in query]
    return [*lines, "| " + " | ".join(cells) + " |"]


def embedder_section(e: Node) -> list[str]:
    """Markdown lines for results["embedder"]."""
    http = _node(e, "http")
    served = (
        f"HTTP: `{http.get('model')}` through `OllamaEmbedder` (the indexer's settings) at {http.get('url')}."
        if http.get("ran")
        else f"HTTP: {http.get('skipped')}."
    )
    vaults = cast(list[Node], e.get("vaults", []))
    lines = ["", f"## The built-in embedder ({e.get('model')})", "", served]
    lines += _paths_table(e, vaults)
    lines += _index_table(vaults)
    lines += _sweep_table(_node(e, "sweep"))
    lines += _memory_table(cast(list[Node], e.get("memory", [])))
    lines += _query_table(e)
    return lines
