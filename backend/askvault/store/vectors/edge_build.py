"""Builds an embedded shard's HNSW graph in a child process, on a copy, then swaps it in; and the child itself.

The engine's `optimize` holds the GIL for the whole build (minutes at a million vectors), so the serving process
never runs it on a graph shard: it flushes and copies its shard while writes wait (searches go on), a child
(`python -m askvault.store.vectors.edge_build`) builds the graph on the copy at low priority, and the store then swaps
the copy in, replaying every write the journal recorded since the copy. A copy of more than
`GraphParams.segment_points` points is rewritten into a new shard one graph segment at a time (`build_here`).
Searches stay exact on the old shard until the swap, which only waits for the searches in flight. An
interrupted swap is finished or undone when the shard is next opened (`recover`); a leftover copy is deleted.
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
from uuid import UUID

from qdrant_edge import EdgeConfig, EdgeShard, Point, ScrollRequest, UpdateOperation

from askvault.errors import StoreError
from askvault.store.vectors.edge_graph import GraphParams, graph_config, payload_index, plain_config

log = logging.getLogger(__name__)

MARKER = "askvault_graph.json"
"""Written into a shard by the child once its graph is built: the parameters it was built with."""
STAGING = ".graph-build"
SEGMENTS = ".segments"
"""Beside the copy (`<shard>.graph-build.segments`): the new shard a big copy is rewritten into."""
RETIRED = ".graph-old"
_SCROLL = 1024
"""Points read from the copy and written to the new shard at a time."""
REBUILD_SHARE = 0.1
"""A graph shard is rebuilt once this share of its vectors lies outside the graph (written since, scanned
exactly on every search)."""


def read_graph(path: Path) -> tuple[GraphParams | None, int]:
    """The parameters the shard at `path` was given its graph with (None without a graph) and how many graph
    segments it was built in (1 without a graph, or for a marker written before markers held the points)."""
    try:
        data = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, 1
    if not isinstance(data, dict) or "params" not in data:
        return None, 1
    params = GraphParams.from_json(data["params"])
    points = data.get("points")
    return params, params.segments(points) if isinstance(points, int) else 1


def read_marker(path: Path) -> GraphParams | None:
    return read_graph(path)[0]


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
    for leftover in (staging, staging.with_name(staging.name + SEGMENTS)):
        if leftover.exists():
            shutil.rmtree(leftover, ignore_errors=True)


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
        "askvault.store.vectors.edge_build",
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
    """The child's work: give the copy at `path` its graph, mark it, flush. Returns the points.

    Up to `segment_points` points get one graph, built in place. A bigger copy is rewritten segment by segment
    (`_rewrite_in_segments`) and the new shard takes its place: the engine never splits a segment it has (its
    `max_segment_size` only limits merges), and one graph over everything keeps the whole shard's vectors and
    working files mapped at once (4.9 GB at 300k × 768, for a sidecar of 2.6 GB)."""
    source = EdgeShard.load(str(path))
    try:
        points = source.info().points_count
        segments = params.segments(points)
        if segments > 1:
            _rewrite_in_segments(source, path.with_name(path.name + SEGMENTS), dim, params, segments)
    finally:
        source.close()
    if segments > 1:
        shutil.rmtree(path)
        path.with_name(path.name + SEGMENTS).rename(path)
        shard = EdgeShard.load(str(path), graph_config(dim, params, build=True, segmented=True))
    else:
        shard = EdgeShard.load(str(path), graph_config(dim, params, build=True))
        shard.optimize()
    try:
        points = shard.info().points_count
        (path / MARKER).write_text(json.dumps({"params": params.to_json(), "points": points}), encoding="utf-8")
        shard.flush()
    finally:
        shard.close()
    return points


def _rewrite_in_segments(source: EdgeShard, target: Path, dim: int, params: GraphParams, segments: int) -> None:
    """Writes every point of `source` (vector and payload, payload indexes alike) into a new shard at `target`,
    `segments` runs of equal size, each given its graph (`optimize`: the run fills the one appendable segment,
    which becomes a graph segment, and the next run a new one) before the next run is written. The shard is
    reopened after each, so the finished segments' files are no longer mapped into this process."""
    shutil.rmtree(target, ignore_errors=True)
    config = graph_config(dim, params, build=True, segmented=True)
    per = -(-source.info().points_count // segments)
    shard = EdgeShard.create(str(target), config)
    try:
        for field, index in source.info().payload_schema.items():
            # On disk in the graph segments, whatever the copy's were (an index made by an earlier version).
            shard.update(UpdateOperation.create_field_index(field, payload_index(index.data_type)))
    except BaseException:
        shard.close()
        raise
    offset: int | UUID | str | None = None
    while True:
        try:
            written = 0
            while written < per:
                page = ScrollRequest(
                    offset=offset, limit=min(_SCROLL, per - written), with_payload=True, with_vector=True
                )
                records, offset = source.scroll(page)
                points = [Point(r.id, r.vector, r.payload) for r in records if r.vector is not None]
                if points:
                    shard.update(UpdateOperation.upsert_points(points))
                written += len(records)
                if offset is None:
                    break
            shard.optimize()  # this run's graph: one segment
            shard.flush()
        finally:
            shard.close()
        if offset is None:
            return
        shard = EdgeShard.load(str(target), config)


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
