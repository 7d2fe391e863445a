"""In-process index runs for the long checks: the restart after a kill and the fresh rebuild to compare with."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from askvault.config import Config, load_config
from askvault.index.report import IndexReport
from askvault.wiring import open_engine

DIM = 64
"""The fake Ollama's embedding size for the default embedding model."""


def make_config(vault: Path, data_root: Path, ollama_url: str) -> Config:
    # The fake Ollama's embedder: these runs are about faults (Ollama dying, the disk filling), and compare indexes
    # by the fake's 64-d vectors.
    flags = {"vault": str(vault), "data_dir": str(data_root), "ollama_url": ollama_url, "port": 0}
    return load_config({**flags, "embed_model": "nomic-embed-text"}, {})


def child_env(workdir: Path) -> dict[str, str]:
    """The environment for `askvault` child processes: no user settings or config file leak in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASKVAULT_", "OLLAMA_", "QDRANT_"))}
    env["XDG_DATA_HOME"] = str(workdir / "xdg-data")
    env["XDG_CONFIG_HOME"] = str(workdir / "xdg-config")
    env["PYTHONUNBUFFERED"] = "1"
    return env


async def index_once(config: Config, full: bool = False) -> IndexReport:
    """Opens the engine (a restart), runs one index pass to the end, closes everything."""
    async with open_engine(config, sync_vectors=False) as engine:
        return await engine.indexer.run(full=full)


async def fresh_rebuild(vault: Path, data_root: Path, ollama_url: str) -> tuple[Config, IndexReport]:
    """Indexes the vault from nothing into `data_root` (wiped first)."""
    shutil.rmtree(data_root, ignore_errors=True)
    config = make_config(vault, data_root, ollama_url)
    return config, await index_once(config, full=True)


def report_problems(report: IndexReport, what: str) -> list[str]:
    """A finished run over a healthy vault with Ollama up: nothing failed and every chunk has its vector."""
    problems = [f"{what}: {p.path} failed: {p.reason}" for p in report.failed]
    if report.dense != "ready":
        problems.append(f"{what}: dense search {report.dense} ({report.dense_problem})")
    return problems
