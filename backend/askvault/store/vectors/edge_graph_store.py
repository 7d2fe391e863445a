"""The embedded vector store that gives itself an HNSW graph once it is big enough (see `edge_build`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Literal
from uuid import UUID

from qdrant_edge import EdgeShard, Point, UpdateOperation

from askvault.errors import StoreError
from askvault.store.vectors.edge_build import (
    RETIRED,
    SEGMENTS,
    STAGING,
    needs_graph,
    read_graph,
    run_child,
    shard_config,
)
from askvault.store.vectors.edge_graph import GraphParams, graph_config
from askvault.store.vectors.edge_shard import MIN_FREE_BYTES
from askvault.store.vectors.qdrant_edge import EdgeVectorStore

log = logging.getLogger(__name__)

GraphState = Literal["none", "building", "ready"]
_REPLAY_BATCH = 256


class GraphVectorStore(EdgeVectorStore):
    """`EdgeVectorStore` plus `ensure_graph`: exact search below `GraphParams.min_points`, a graph above.

    `wanted` None keeps every shard exact (and a shard that has a graph keeps using it)."""

    wanted: GraphParams | None = GraphParams()
    _task: asyncio.Task[bool] | None = None

    @property
    def graph_state(self) -> GraphState:
        """`none`: every search is exact; `building`: a graph is being built (searches as before); `ready`:
        unfiltered searches walk the graph."""
        if self._task is not None and not self._task.done():
            return "building"
        return "ready" if self._graph is not None else "none"

    async def ensure_graph(self) -> bool:
        """Starts building a graph in the background when one is due (`edge_build.needs_graph`); True when a
        build is running. Cheap to call after every sync."""
        if self._task is not None and not self._task.done():
            return True
        info = await asyncio.to_thread(self._run, "info", lambda shard: shard.info())
        if not needs_graph(info.points_count, info.indexed_vectors_count, self._graph, self.wanted):
            return False
        assert self.wanted is not None
        log.info("building a vector graph for %d points in the background", info.points_count)
        self._task = asyncio.create_task(self._build(self.wanted), name="askvault-vector-graph")
        return True

    async def wait_graph(self) -> bool:
        """Waits for a running build; True when the shard has a graph afterwards."""
        if self._task is not None:
            await asyncio.wait([self._task])
        return self._graph is not None

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()  # kills the child; the copy is deleted
            await asyncio.wait([task])
        await super().close()

    async def _build(self, params: GraphParams) -> bool:
        staging = self.path.with_name(self.path.name + STAGING)
        try:
            await _finish_in_thread(self._copy_for_build, staging, params)
            await run_child(staging, self.dim, params)
            await _finish_in_thread(self._swap_in, staging, params)
        except asyncio.CancelledError:
            self._journal = None
            await asyncio.to_thread(_remove_build, staging)
            raise
        except (StoreError, OSError) as exc:
            self._journal = None
            await asyncio.to_thread(_remove_build, staging)
            log.warning("vector graph not built, searches stay exact: %s", exc)
            return False
        log.info("vector graph ready: unfiltered dense searches now use it")
        return True

    def _copy_for_build(self, staging: Path, params: GraphParams) -> None:
        """Flushes and copies the shard while writes wait; every write from here on is journalled. Refused
        when the disk could not hold the copy, the graph (and, built segment by segment, the new shard the copy
        is rewritten into) and the engine's safety margin."""
        _remove_build(staging)

        def copy(shard: EdgeShard) -> None:
            shard.flush()
            size = sum(f.stat().st_blocks * 512 for f in self.path.rglob("*") if f.is_file())
            free = shutil.disk_usage(self.path).free
            # A rewritten copy coexists with the new shard: its vectors, their int8 copies and the graph.
            needed = (2.5 if params.segments(shard.info().points_count) > 1 else 1.5) * size
            if free < needed + MIN_FREE_BYTES:
                raise StoreError(
                    f"not enough disk for a vector graph ({free // 2**20} MiB free, the copy needs "
                    f"{size // 2**20} MiB and room for the graph)"
                )
            shutil.copytree(self.path, staging)
            self._journal = set()

        self._run("copy for the graph build", copy, write=True)

    def _swap_in(self, staging: Path, params: GraphParams) -> None:
        """Replaces the shard with the built copy, replaying the journal; waits only for calls in flight."""
        with self._state:
            self._swapping = True
            while self._active:
                self._state.wait()
            self._active += 1  # `close` waits for the swap as for any call
        try:
            old = self._shard
            if old is None:
                raise StoreError("the vector store closed during the graph build")
            journal = sorted(self._journal or ())
            records = old.retrieve(list(journal), with_payload=True, with_vector=True) if journal else []
            old.flush()
            old.close()
            retired = self.path.with_name(self.path.name + RETIRED)
            self.path.rename(retired)
            staging.rename(self.path)
            try:
                new = EdgeShard.load(str(self.path), graph_config(self.dim, params, build=False))
            except Exception as exc:
                shutil.rmtree(self.path, ignore_errors=True)
                retired.rename(self.path)
                self._shard = EdgeShard.load(str(self.path), shard_config(self.path, self.dim))
                raise StoreError(f"the built vector graph did not open: {exc}") from exc
            kept = [Point(r.id, r.vector, r.payload) for r in records if r.vector is not None]
            found = {str(point.id) for point in kept}
            for start in range(0, len(kept), _REPLAY_BATCH):
                new.update(UpdateOperation.upsert_points(kept[start : start + _REPLAY_BATCH]))
            gone: list[int | UUID | str] = [point for point in journal if point not in found]
            if gone:
                new.update(UpdateOperation.delete_points(gone))
            self._shard, self._graph, self._segments = new, params, read_graph(self.path)[1]
            shutil.rmtree(retired, ignore_errors=True)
        finally:
            self._journal = None
            with self._state:
                self._active -= 1
                self._swapping = False
                self._state.notify_all()


def _remove_build(staging: Path) -> None:
    """The copy a build works on, and the new shard a segment-by-segment build writes beside it."""
    for path in (staging, staging.with_name(staging.name + SEGMENTS)):
        shutil.rmtree(path, ignore_errors=True)


async def _finish_in_thread(call: Callable[..., None], *args: object) -> None:
    """Runs `call` in a worker thread; a cancel waits for the thread to finish first (it cannot be stopped), so
    whatever the caller cleans up afterwards is no longer in use."""
    future = asyncio.ensure_future(asyncio.to_thread(call, *args))
    try:
        await asyncio.shield(future)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await future
        raise
