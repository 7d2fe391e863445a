"""Builds an embedded shard's HNSW graph in a child process, on a copy, then swaps it in; and the child itself.

The engine's `optimize` holds the GIL for the whole build (minutes at a million vectors), so the serving process
never runs it on a graph shard: it flushes and copies its shard while writes wait (searches go on), a child
(`python -m askvault.store.edge_build`) builds the graph on the copy at low priority, and the store then swaps
the copy in, replaying every write the journal recorded since the copy. Searches stay exact on the old shard
until the swap, which only waits for the searches in flight. An interrupted swap is finished or undone when the
shard is next opened (`recover`); a leftover copy is deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import sys
from pathlib import Path

from qdrant_edge import EdgeConfig, EdgeShard

from askvault.errors import StoreError
from askvault.store.edge_graph import GraphParams, graph_config, plain_config

log = logging.getLogger(__name__)

MARKER = "askvault_graph.json"
"""Written into a shard by the child once its graph is built: the parameters it was built with."""
STAGING = ".graph-build"
RETIRED = ".graph-old"
REBUILD_SHARE = 0.1
"""A graph shard is rebuilt once this share of its vectors lies outside the graph (written since, scanned
exactly on every search)."""


def read_marker(path: Path) -> GraphParams | None:
    try:
        data = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return GraphParams.from_json(data["params"]) if isinstance(data, dict) and "params" in data else None


def shard_config(path: Path, dim: int) -> EdgeConfig:
    """The settings a shard is opened with: its graph's, when it has one, else plain."""
    params = read_marker(path)
    return plain_config(dim) if params is None else graph_config(dim, params, build=False)


def recover(path: Path) -> None:
    """Before opening `path`: finish a swap interrupted after the old shard moved away, drop a stale copy."""
    retired = path.with_name(path.name + RETIRED)
    staging = path.with_name(path.name + STAGING)
    if retired.exists():
        if path.exists():
            shutil.rmtree(retired, ignore_errors=True)  # the swap was done, only the cleanup was not
        else:
            retired.rename(path)  # the new shard never arrived: the old one serves
    if staging.exists():
        shutil.rmtree(staging, ignore_errors=True)


def needs_graph(points: int, indexed: int, graph: GraphParams | None, wanted: GraphParams | None) -> bool:
    """A build is due when the shard is big enough and has no graph, or too much of it lies outside the graph."""
    if wanted is None or points < wanted.min_points:
        return False
    if graph is None:
        return True
    return points - indexed > REBUILD_SHARE * points


async def run_child(staging: Path, dim: int, params: GraphParams) -> None:
    """Builds the graph of the shard at `staging` in a child process; kills the child if cancelled."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "askvault.store.edge_build",
        str(staging),
        str(dim),
        json.dumps(params.to_json()),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, err = await process.communicate()
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise
    if process.returncode != 0:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise StoreError(f"the vector graph build failed (exit {process.returncode}): {tail[0]}")


def build_here(path: Path, dim: int, params: GraphParams) -> int:
    """The child's work: open the copy with the graph settings, build, mark it, flush. Returns the points."""
    shard = EdgeShard.load(str(path), graph_config(dim, params, build=True))
    try:
        shard.optimize()
        points = shard.info().points_count
        (path / MARKER).write_text(json.dumps({"params": params.to_json(), "points": points}), encoding="utf-8")
        shard.flush()
    finally:
        shard.close()
    return points


def main(argv: list[str]) -> int:
    path, dim, params = Path(argv[0]), int(argv[1]), GraphParams.from_json(json.loads(argv[2]))
    nice = getattr(os, "nice", None)  # POSIX only
    if nice is not None:
        with contextlib.suppress(OSError):
            nice(10)  # a background job: the sidecar and Ollama come first
    build_here(path, dim, params)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
