"""The benchmark suite: options, the parts in fresh processes, the results written (see bench/README.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from bench import report
from bench.answer import run_answer
from bench.cli_startup import CliOptions, run_cli_startup
from bench.embedder import EmbedderOptions, run_embedder
from bench.freshness import run_freshness
from bench.harness import commit, load_average, machine
from bench.harness import in_fresh_process as fresh
from bench.minilm import answers, default_url, run_minilm
from bench.pdf import PdfOptions, run_pdf
from bench.retrieval import WARMUP, label, run_size
from bench.sidecar import run_sidecar_rss
from bench.vector_engines import Spec, compare

REPO = Path(__file__).resolve().parents[1]
PARTS = ("sizes", "freshness", "answer", "sidecar", "engines", "cli", "embedder", "pdf")
DEFAULT_PARTS = PARTS[:-2]
"""`embedder` and `pdf` run when named: `embedder` measures the model rather than our code, and takes as long as the
rest together (README.md, "The built-in embedder"); `pdf` indexes with the built-in model too, most of its time
embedding."""
DEFAULT_SIZES = "1k,10k,50k,100k,300k"
"""The default suite took ≈ 15-20 minutes on 2 shared cores up to 100k; 300k adds an estimated 20 (both it and 100k
build a vector graph). `--sizes 1k,10k` for a quick look, `--sizes 1m` for the million (estimated ≈ 1 hour and
≈ 12 GB at its peak with the floors, not yet run)."""


@dataclass
class Options:
    sizes: list[int] = field(default_factory=lambda: parse_sizes(DEFAULT_SIZES))
    parts: tuple[str, ...] = DEFAULT_PARTS
    dim: int = 768
    seed: int = 7
    queries: int = 200
    repeats: int = 5
    freshness_notes: int = 10_000
    answer_chunks: int = 10_000
    sidecar_chunks: int = 20_000
    sidecar_runs: int = 3
    engine_points: int = 10_000
    engine_queries: int = 100
    engines: tuple[str, ...] = ("numpy", "edge-store", "qdrant-local")
    minilm: bool = False
    minilm_chunks: int = 1000
    ollama_url: str = field(default_factory=default_url)
    embed_server_cmd: str = field(default_factory=lambda: os.environ.get("EMBED_SERVER_CMD", ""))
    embedder: EmbedderOptions = field(default_factory=EmbedderOptions)
    cli: CliOptions = field(default_factory=CliOptions)
    pdf: PdfOptions = field(default_factory=PdfOptions)
    out: Path = REPO / "bench" / "results"
    stamp: str = field(default_factory=lambda: datetime.now(UTC).date().isoformat())
    name: str = ""
    """Appended to the date in the files' names (`2026-12-03-builtin-embedder.json`)."""


def parse_sizes(text: str) -> list[int]:
    """`1k,10k,200,1m` → [1000, 10000, 200, 1000000]."""
    sizes = []
    for part in text.split(","):
        part = part.strip().lower()
        scale = {"k": 1000, "m": 1_000_000}.get(part[-1:], 1)
        if part:
            sizes.append(int(float(part[:-1]) * scale) if scale > 1 else int(part))
    return sizes


def _timed(name: str, meta: dict[str, object], call: Callable[[], object]) -> object:
    print(f"bench: {name} … (load {load_average()})", file=sys.stderr, flush=True)
    before, started = load_average(), time.perf_counter()
    result = call()
    parts = meta.setdefault("parts", {})
    assert isinstance(parts, dict)
    parts[name] = {
        "seconds": round(time.perf_counter() - started, 1),
        "load_before": before,
        "load_after": load_average(),
    }
    print(f"bench: {name} done in {parts[name]['seconds']} s", file=sys.stderr, flush=True)
    return result


def run_suite(options: Options) -> dict[str, Path]:
    """Runs the chosen parts, each in fresh processes, and writes the results; returns the files written."""
    # The engine answers a query on one thread; a multi-threaded BLAS would make the NumPy floor wait for a
    # second core that other jobs hold. Children inherit this before they import numpy.
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    o = options
    meta: dict[str, object] = {
        "date": o.stamp, "name": f"{o.stamp}-{o.name}" if o.name else o.stamp, "commit": commit(),
        "machine": machine(), "load_start": load_average(),
        "queries": o.queries, "warmup": WARMUP, "repeats": o.repeats, "seed": o.seed,
        "embedder": f"in-process hash embedder, {o.dim}-d, near-zero cost (embedding time measured and excluded), "
        "in every part but `embedder`, `pdf` and `--minilm`",
    }  # fmt: skip
    results: dict[str, object] = {"meta": meta, "sizes": []}
    with tempfile.TemporaryDirectory(prefix="askvault-bench-") as tmp:
        work = Path(tmp)
        if "sizes" in o.parts:
            results["sizes"] = [
                _timed(f"size {label(n)}", meta, partial(fresh, run_size, n, o.dim, o.seed, o.queries, work / label(n)))
                for n in o.sizes
            ]
        if "freshness" in o.parts:
            call = partial(fresh, run_freshness, o.freshness_notes, o.dim, o.seed, o.repeats, work / "fresh")
            results["freshness"] = _timed("freshness", meta, call)
        if "answer" in o.parts:
            call = partial(fresh, run_answer, o.answer_chunks, o.dim, o.seed, o.queries // 2, work / "answer")
            results["answer"] = _timed("answer", meta, call)
        if "sidecar" in o.parts:
            call = partial(
                fresh,
                run_sidecar_rss,
                o.sidecar_chunks,
                o.dim,
                o.seed,
                o.queries // 4,
                work / "sidecar",
                o.sidecar_runs,
            )
            results["sidecar"] = _timed("sidecar", meta, call)
        if "engines" in o.parts:
            spec = Spec(n=o.engine_points, dim=o.dim, queries=o.engine_queries)
            results["engines"] = _timed("engines", meta, partial(compare, spec, o.engines, work))
        if "cli" in o.parts:
            results["cli"] = _timed("cli", meta, partial(run_cli_startup, o.cli, work / "cli"))
        if "embedder" in o.parts:
            call = partial(run_embedder, o.embedder, o.ollama_url, work / "embedder")
            results["embedder"] = _timed("embedder", meta, call)
        if "pdf" in o.parts:
            results["pdf"] = _timed("pdf", meta, partial(run_pdf, o.pdf, work / "pdf"))
        if not o.minilm:
            results["minilm"] = "not run (pass --minilm)"
        elif not o.embed_server_cmd and not answers(o.ollama_url):
            results["minilm"] = f"skipped: nothing answers at {o.ollama_url} (set OLLAMA_HOST or --ollama-url)"
            print(f"bench: {results['minilm']}", file=sys.stderr)
        else:
            args = (o.minilm_chunks, o.seed, o.queries // 2, work / "minilm", o.ollama_url, o.embed_server_cmd)
            results["minilm"] = _timed("minilm", meta, partial(fresh, run_minilm, *args))
    meta["load_end"] = load_average()
    return report.write(results, o.out)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description="Ask Vault benchmarks.")
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"corpus sizes in chunks [default {DEFAULT_SIZES}]")
    parser.add_argument(
        "--parts", default=",".join(DEFAULT_PARTS), help=f"any of {','.join(PARTS)} [{','.join(DEFAULT_PARTS)}]"
    )
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--queries", type=int, default=200, help="queries per size")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each freshness figure")
    parser.add_argument("--minilm", action="store_true", help="also index with the real all-minilm embedder")
    parser.add_argument(
        "--ollama-url", default=default_url(), help="for --minilm and embedder: a server with all-minilm [OLLAMA_HOST]"
    )
    parser.add_argument(
        "--corpora",
        type=Path,
        default=EmbedderOptions().corpora,
        help="for embedder: a folder holding de-wiki (eval/corpora/README.md), measured beside the sample vault "
        "[CORPORA_DIR]",
    )
    parser.add_argument("--embedder-repeats", type=int, default=3, help="for embedder: passes per variant")
    parser.add_argument(
        "--embed-server-cmd",
        default=os.environ.get("EMBED_SERVER_CMD", ""),
        help="for --minilm: start this local server with --port N appended instead [EMBED_SERVER_CMD]",
    )
    parser.add_argument("--out", type=Path, default=Options.out)
    parser.add_argument("--name", default="", help="appended to the date in the files' names")
    parser.add_argument("--from-json", type=Path, help="only re-render the tables and plot of a saved run")
    args = parser.parse_args(argv)
    if args.from_json is not None:
        saved = json.loads(args.from_json.read_text(encoding="utf-8"))
        for kind, path in report.write(saved, args.out).items():
            print(f"wrote {kind}: {path}")
        return
    parts = tuple(p.strip() for p in args.parts.split(",") if p.strip())
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    options = Options(
        sizes=parse_sizes(args.sizes), parts=parts, dim=args.dim, queries=args.queries, repeats=args.repeats,
        minilm=args.minilm, ollama_url=args.ollama_url, embed_server_cmd=args.embed_server_cmd, out=args.out,
        embedder=EmbedderOptions(corpora=args.corpora, repeats=args.embedder_repeats), name=args.name,
    )  # fmt: skip
    for kind, path in run_suite(options).items():
        print(f"wrote {kind}: {path}")
