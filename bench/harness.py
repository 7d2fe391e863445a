"""What every benchmark shares: percentiles, memory and disk readings, fresh processes, the engine under test."""

from __future__ import annotations

import contextlib
import os
import platform
import resource
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import ParamSpec, TypeVar

import numpy as np

from askvault.config import Config, OllamaConfig, StoreConfig, VaultConfig, vault_data_dir
from askvault.embed.protocol import Embedder
from askvault.index.dense_sync import sync_dense
from askvault.wiring import Engine, open_engine

P = ParamSpec("P")
R = TypeVar("R")

NOWHERE = "http://127.0.0.1:9"
"""An Ollama URL nothing listens on: benchmarks that swap in their own embedder never call the chat model."""

Figures = dict[str, float]


def percentiles(samples: Sequence[float]) -> Figures:
    """p50 and p95 (and how many samples) of timings in ms."""
    if not samples:
        return {"p50": float("nan"), "p95": float("nan"), "n": 0}
    p50, p95 = np.percentile(np.asarray(samples, dtype=np.float64), [50, 95])
    return {"p50": round(float(p50), 3), "p95": round(float(p95), 3), "n": len(samples)}


def proc_status(pid: int | None = None) -> Figures:
    """VmRSS (now) and VmHWM (peak) in MB of a process, from /proc; the benchmark's own by default. VmRSS splits
    into RssAnon (the process's own memory) and RssFile (pages of mapped files: the engine's memory-mapped
    vectors and indexes, which the kernel can drop and read back under pressure)."""
    found: Figures = {}
    with open(f"/proc/{pid or os.getpid()}/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                found[key] = round(int(value.split()[0]) / 1024, 1)
    return found


def reset_peak_rss() -> None:
    """Restarts VmHWM from the current RSS (Linux ≥ 4.0), so a later peak belongs to what ran since."""
    with contextlib.suppress(OSError), open(f"/proc/{os.getpid()}/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")


def dir_size(path: Path, *, apparent: bool = False) -> int:
    """Bytes the files under `path` take on disk (allocated blocks: qdrant's WAL and mmap files are sparse), or
    their apparent sizes."""
    files = [f.stat() for f in path.rglob("*") if f.is_file()]
    return sum(s.st_size for s in files) if apparent else sum(s.st_blocks * 512 for s in files)


def in_fresh_process(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Runs `fn` in a new interpreter, so each measurement starts cold and its peak memory is its own."""
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(fn, *args, **kwargs).result()


def config_for(vault: Path, data_root: Path, embed_model: str, ollama_url: str = NOWHERE) -> Config:
    root = vault.resolve()
    return Config(
        vault=VaultConfig(root=root),
        store=StoreConfig(data_dir=vault_data_dir(data_root, root)),
        ollama=OllamaConfig(url=ollama_url, embed_model=embed_model),
    )


@contextlib.asynccontextmanager
async def bench_engine(
    vault: Path, data_root: Path, embedder: Embedder, *, ollama_url: str = NOWHERE, ready: bool = False
) -> AsyncIterator[Engine]:
    """The real composition root (`open_engine`), with `embedder` in place of Ollama's.

    `ready` makes dense search usable on an existing index at once (what `open_engine(sync_vectors=True)` does).
    """
    async with open_engine(config_for(vault, data_root, embedder.model, ollama_url), sync_vectors=False) as engine:
        engine.dense.embedder = embedder
        if ready:
            await sync_dense(engine.manifest, engine.dense, engine.vectors)
        yield engine


def machine() -> dict[str, str | int | float]:
    """What the figures ran on."""
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as info:
        cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    ram_kb = 0
    with contextlib.suppress(OSError), open("/proc/meminfo", encoding="ascii") as meminfo:
        ram_kb = int(next(line for line in meminfo if line.startswith("MemTotal")).split()[1])
    return {
        "nproc": os.cpu_count() or 0,
        "ram_gb": round(ram_kb / 1024 / 1024, 1),
        "cpu": cpu,
        "python": platform.python_version(),
        "kernel": platform.release(),
    }


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip() + ("+uncommitted changes" if dirty.stdout.strip() else "")


def self_peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def askvault_command() -> list[str]:
    """The installed `askvault` console script beside this interpreter."""
    return [str(Path(sys.executable).with_name("askvault"))]
