"""The `pdf` part: what PDFs cost — extraction, a 500-page PDF's first index, and a changed PDF's re-index.

1. Extraction: `PdfExtractor` (its capped child process) on a generated 500-page text PDF (`pdf_write`), warm
   child, median of `repeats`; the child's start-up once (a fresh extractor's first tiny PDF, less a warm one).
2. First index of a vault holding that PDF and a few notes, through the real engine (`open_engine` +
   `indexer.run()`) with the built-in embedder: wall time, chunks, the shares spent extracting (timed around
   `PdfExtractor.extract` in the run), embedding and loading the model, peak RSS of this process (the sidecar's
   place) and of the extracting child; the same notes without the PDF beside it.
3. Re-index: the 500-page PDF, `vault_notes` notes and `small_pdfs` smaller PDFs, indexed once; then runs with
   nothing changed, runs after one small PDF was rewritten, and one after the big PDF was only touched (mtime).

Every measurement runs in a fresh interpreter; all three share one models folder (as `load_config` shares one per
data root), so the built-in model is prepared once and loaded by each.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from unittest import mock

from askvault.config import BuiltinEmbedParams, Config
from askvault.extract.pdf import PdfExtractor, PdfText
from askvault.index.report import IndexReport
from askvault.wiring import Engine, open_engine
from bench import synth
from bench.embedder_index import BUILTIN, LoadTimedEmbedder
from bench.harness import config_for, proc_status
from bench.harness import in_fresh_process as fresh
from bench.pdf_write import prose_pages, write_text_pdf

Json = dict[str, object]
BIG = "Reports/Operations review.pdf"


@dataclass(frozen=True)
class PdfOptions:
    pages: int = 500
    notes: int = 5
    """Notes beside the big PDF in the first-index vault."""
    vault_notes: int = 200
    """Notes in the re-index vault."""
    small_pdfs: int = 5
    small_pages: int = 20
    repeats: int = 3
    """Extractions of the big PDF, no-change runs and changed runs (each a different small PDF)."""
    seed: int = 7


def log(step: str) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"bench: pdf {time.strftime('%H:%M:%S')}: {step} (load {load})", file=sys.stderr, flush=True)


def _small(k: int) -> str:
    return f"Papers/Paper {k + 1}.pdf"


@dataclass
class ExtractTimer:
    """Wraps `PdfExtractor.extract`: the time in it, the pages and characters it gave, the child's peak RSS."""

    seconds: float = 0.0
    calls: int = 0
    pages: int = 0
    chars: int = 0
    child_peak_mb: list[float] = field(default_factory=list)

    def wrap(self, extract: Callable[[PdfExtractor, Path], PdfText]) -> Callable[[PdfExtractor, Path], PdfText]:
        def timed(extractor: PdfExtractor, path: Path) -> PdfText:
            started = time.perf_counter()
            try:
                text = extract(extractor, path)
            finally:
                self.seconds += time.perf_counter() - started
                self.calls += 1
            self.pages += len(text.pages)
            self.chars += sum(len(page) for page in text.pages)
            if extractor.worker_pid is not None:  # alive until the extractor closes: its VmHWM is its peak so far
                self.child_peak_mb.append(proc_status(extractor.worker_pid).get("VmHWM", 0.0))
            return text

        return timed


def _config(vault: Path, data_root: Path) -> Config:
    config = config_for(vault, data_root, BUILTIN)
    return dataclasses.replace(config, builtin_embed=BuiltinEmbedParams(models_dir=data_root / "models"))


def _checked(report: IndexReport, what: str, *, first: bool = False) -> IndexReport:
    """The run's report; RuntimeError when a file failed or dense search is not ready (or, on a first index,
    a chunk went without a vector)."""
    if report.failed or (first and report.embedded != report.chunks) or report.dense != "ready":
        problems = "; ".join(f"{p.path}: {p.reason}" for p in report.failed) or report.dense_problem
        raise RuntimeError(f"{what}: embedded {report.embedded} of {report.chunks} chunks ({problems})")
    return report


def _extraction(big: Path, tiny: Path, repeats: int) -> Json:
    """Fresh process: the child's start-up (a first tiny PDF less a warm one), then the big PDF `repeats` times."""
    with PdfExtractor() as extractor:
        started = time.perf_counter()
        extractor.extract(tiny)
        cold_ms = (time.perf_counter() - started) * 1000
        warm: list[float] = []
        for _ in range(5):
            started = time.perf_counter()
            extractor.extract(tiny)
            warm.append((time.perf_counter() - started) * 1000)
        runs: list[float] = []
        for _ in range(repeats):
            started = time.perf_counter()
            text = extractor.extract(big)
            runs.append(time.perf_counter() - started)
        child = proc_status(extractor.worker_pid) if extractor.worker_pid is not None else {}
    seconds = statistics.median(runs)
    chars = sum(len(page) for page in text.pages)
    return {
        "pages": text.page_count,
        "pages_extracted": len(text.pages),
        "chars": chars,
        "seconds": round(seconds, 3),
        "seconds_runs": [round(s, 3) for s in runs],
        "pages_per_s": round(len(text.pages) / seconds, 1),
        "chars_per_s": round(chars / seconds),
        "child_start_ms": round(cold_ms - statistics.median(warm), 1),
        "first_tiny_pdf_ms": round(cold_ms, 1),
        "warm_tiny_pdf_ms": round(statistics.median(warm), 1),
        "child_peak_rss_mb": child.get("VmHWM"),
    }


async def _first_index(vault: Path, data_root: Path) -> Json:
    timer = ExtractTimer()
    started = time.perf_counter()
    with mock.patch.object(PdfExtractor, "extract", timer.wrap(PdfExtractor.extract)):
        async with open_engine(_config(vault, data_root), sync_vectors=False) as engine:
            opened = time.perf_counter() - started
            embedder = LoadTimedEmbedder(engine.dense.embedder)
            engine.dense.embedder = embedder
            before = proc_status()
            run_started = time.perf_counter()
            report = _checked(await engine.indexer.run(), f"first index of {vault.name}", first=True)
            run_seconds = time.perf_counter() - run_started
            after = proc_status()
            pdf_chunks = [len(c.text) for c in engine.manifest.iter_chunks() if c.path == BIG]
            pdf_pages = len({c.heading_path[:1] for c in engine.manifest.iter_chunks() if c.path == BIG})
    total = time.perf_counter() - started
    rest = run_seconds - timer.seconds - embedder.seconds - embedder.load_seconds
    return {
        "notes": report.notes,
        "chunks": report.chunks,
        "pdf_chunks": len(pdf_chunks),
        "pdf_pages_with_chunks": pdf_pages,
        "pdf_chunk_chars": _spread(pdf_chunks),
        "seconds": round(total, 2),
        "open_seconds": round(opened, 2),
        "run_seconds": round(run_seconds, 2),
        "extract_seconds": round(timer.seconds, 2),
        "extracted_pages": timer.pages,
        "embed_seconds": round(embedder.seconds, 2),
        "load_seconds": round(embedder.load_seconds, 2),
        "shares": {
            "extracting": _share(timer.seconds, run_seconds),
            "embedding": _share(embedder.seconds, run_seconds),
            "model_load": _share(embedder.load_seconds, run_seconds),
            "rest": _share(rest, run_seconds),
        },
        "chunks_per_s": round(report.chunks / run_seconds, 1),
        "rss_before_run_mb": before.get("VmRSS"),
        "rss_after_run_mb": after.get("VmRSS"),
        "peak_rss_mb": after.get("VmHWM"),
        "child_peak_rss_mb": max(timer.child_peak_mb, default=None),
    }


def _share(part: float, whole: float) -> float:
    return round(part / whole, 4) if whole > 0 else 0.0


def _spread(values: list[int]) -> Json:
    if not values:
        return {"mean": None, "min": None, "max": None}
    return {"mean": round(statistics.mean(values)), "min": min(values), "max": max(values)}


def first_index(vault: Path, data_root: Path) -> Json:
    return asyncio.run(_first_index(vault, data_root))


async def _timed_run(engine: Engine, embedder: LoadTimedEmbedder, *, first: bool = False) -> Json:
    embedded_before = embedder.seconds
    started = time.perf_counter()
    report = _checked(await engine.indexer.run(), "re-index", first=first)
    seconds = time.perf_counter() - started
    return {
        "seconds": round(seconds, 3),
        "indexed": report.indexed,
        "unchanged": report.unchanged,
        "embedded": report.embedded,
        "embed_seconds": round(embedder.seconds - embedded_before, 3),
    }


def _summary(runs: list[Json]) -> Json:
    seconds = [cast(float, r["seconds"]) for r in runs]
    return {"seconds": round(statistics.median(seconds), 3), "runs": runs}


async def _reindex(vault: Path, data_root: Path, options: PdfOptions) -> Json:
    async with open_engine(_config(vault, data_root), sync_vectors=False) as engine:
        embedder = LoadTimedEmbedder(engine.dense.embedder)
        engine.dense.embedder = embedder
        first = await _timed_run(engine, embedder, first=True)
        chunks = engine.manifest.count_chunks()
        noop = [await _timed_run(engine, embedder) for _ in range(options.repeats)]
        changed: list[Json] = []
        for turn in range(options.repeats):
            path = _small(turn % options.small_pdfs)
            write_text_pdf(vault / path, prose_pages(options.small_pages, options.seed + 100 + turn), path)
            changed.append({"file": path} | await _timed_run(engine, embedder))
        big = vault / BIG
        mtime = big.stat().st_mtime_ns + 1_000_000_000
        os.utime(big, ns=(mtime, mtime))  # the same bytes, a later modification time (a sync client's touch)
        touched = {"file": BIG} | await _timed_run(engine, embedder)
    return {
        "notes": first["indexed"],
        "chunks": chunks,
        "first": first,
        "noop": _summary(noop),
        "changed": _summary(changed),
        "touched": touched,
    }


def reindex(vault: Path, data_root: Path, options: PdfOptions) -> Json:
    return asyncio.run(_reindex(vault, data_root, options))


def _vault(root: Path, notes: int, seed: int, big: Path | None) -> Path:
    synth.write_vault(root, notes, seed)
    if big is not None:
        (root / BIG).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(big, root / BIG)
    return root


def run_pdf(options: PdfOptions, work: Path) -> Json:
    """The three measurements, each in a fresh process; `work` is emptied afterwards."""
    o = options
    work.mkdir(parents=True, exist_ok=True)
    data_root = work / "data"
    try:
        started = time.perf_counter()
        big = write_text_pdf(work / "big.pdf", prose_pages(o.pages, o.seed))
        written, file_mb = time.perf_counter() - started, big.stat().st_size / 1e6
        tiny = write_text_pdf(work / "tiny.pdf", prose_pages(1, o.seed + 1, low=200, high=300))
        log(f"extracting {o.pages} pages")
        extraction = fresh(_extraction, big, tiny, o.repeats)
        log("first index with the big PDF")
        with_pdf = fresh(first_index, _vault(work / "with-pdf", o.notes, o.seed, big), data_root)
        log("first index of the same notes without it")
        without_pdf = fresh(first_index, _vault(work / "without-pdf", o.notes, o.seed, None), data_root)
        vault = _vault(work / "reindex", o.vault_notes, o.seed, big)
        for k in range(o.small_pdfs):
            write_text_pdf(vault / _small(k), prose_pages(o.small_pages, o.seed + 10 + k), _small(k))
        log("re-index")
        again = fresh(reindex, vault, data_root, o)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "pages": o.pages,
        "file_mb": round(file_mb, 2),
        "written_seconds": round(written, 2),
        "vault_notes": o.vault_notes,
        "small_pdfs": o.small_pdfs,
        "small_pages": o.small_pages,
        "repeats": o.repeats,
        "extraction": extraction,
        "first_index": with_pdf,
        "first_index_without_pdf": without_pdf,
        "reindex": again,
    }
