"""Keeping the index fresh on a 10k-note vault: no-op re-index, start-up, save-to-searchable through the watcher.

Save-to-searchable edits one note on disk (appends a sentence with a new word) while the real VaultWatcher runs,
and times until a keyword search finds that word in that note. The watcher's debounce (0.3 s of quiet) is part
of it. Embedding time inside the window is subtracted (it is microseconds with the hash embedder).
"""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

from askvault.index.changes import ChangeBatch
from askvault.index.dense_sync import sync_dense
from askvault.index.indexer import Indexer
from askvault.index.watcher import VaultWatcher
from askvault.retrieve.hybrid import HybridSearcher
from bench import synth
from bench.fake_embed import HashEmbedder, TimedEmbedder
from bench.harness import bench_engine, percentiles

FOUND_WITHIN_S = 60.0
POLL_S = 0.01


class TimedSink:
    """The watcher's ChangeSink: the indexer, with the duration of each batch it applied."""

    def __init__(self, indexer: Indexer) -> None:
        self._indexer = indexer
        self.applied: list[float] = []

    async def apply(self, batch: ChangeBatch) -> None:
        started = time.perf_counter()
        await self._indexer.apply(batch)
        self.applied.append(time.perf_counter() - started)

    async def reconcile(self) -> None:
        await self._indexer.reconcile()


def _seconds(samples: list[float]) -> dict[str, float]:
    """p50/p95 of durations given in seconds, reported in seconds."""
    figures = percentiles([s * 1000 for s in samples])
    return {"p50": round(figures["p50"] / 1000, 3), "p95": round(figures["p95"] / 1000, 3), "n": figures["n"]}


async def _found(searcher: HybridSearcher, word: str, path: str) -> bool:
    result = await searcher.search(word, 3, "keyword")
    return any(hit.chunk.path == path for hit in result.hits)


async def _measure(notes: int, dim: int, seed: int, repeats: int, work: Path) -> dict[str, object]:
    vault = synth.write_vault(work / "vault", notes, seed)
    data = work / "data"
    embedder = TimedEmbedder(HashEmbedder(dim))
    out: dict[str, object] = {"notes": notes}
    async with bench_engine(vault, data, embedder) as engine:
        report = await engine.indexer.run()
        out["chunks"] = report.chunks
        noop: list[float] = []
        for _ in range(repeats):
            started = time.perf_counter()
            again = await engine.indexer.run()
            noop.append(time.perf_counter() - started)
            assert again.indexed == 0, "a no-op re-index re-read notes"
        out["noop_reindex_s"] = _seconds(noop)

        # The parts of every applied change that grow with the vault, timed on their own.
        sweep: list[float] = []
        rebuild: list[float] = []
        for _ in range(repeats):
            started = time.perf_counter()
            await sync_dense(engine.manifest, engine.dense, engine.vectors)  # nothing to embed: the orphan sweep
            sweep.append(time.perf_counter() - started)
            started = time.perf_counter()
            await asyncio.to_thread(engine.indexer.keyword_sync.rebuild)
            rebuild.append(time.perf_counter() - started)
        out["dense_sync_noop_s"] = _seconds(sweep)
        out["keyword_rebuild_s"] = _seconds(rebuild)

        sink = TimedSink(engine.indexer)
        watcher = VaultWatcher(vault, sink, reconcile_every_s=3600.0, reconcile_on_start=False)
        await watcher.start()
        try:
            await asyncio.sleep(1.0)  # the observer adds its watches in the background
            visible: list[float] = []
            for attempt in range(repeats):
                index = (attempt * 7919 + 13) % notes
                path = synth.note_path(index)
                word = f"fresh{attempt}word{seed}"
                embed_before = embedder.seconds
                started = time.perf_counter()
                with (vault / path).open("a", encoding="utf-8") as note:
                    note.write(f"\nToday the {word} setting changed.\n")
                while not await _found(engine.searcher, word, path):
                    if time.perf_counter() - started > FOUND_WITHIN_S:
                        raise TimeoutError(f"{word} not searchable after {FOUND_WITHIN_S} s")
                    await asyncio.sleep(POLL_S)
                visible.append(time.perf_counter() - started - (embedder.seconds - embed_before))
                await asyncio.sleep(0.5)
        finally:
            await watcher.stop()
        out["save_to_searchable_s"] = _seconds(visible)
        out["watcher_apply_s"] = _seconds(sink.applied)
        out["watcher_debounce_s"] = 0.3

    opened: list[float] = []
    reconciled: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        async with bench_engine(vault, data, embedder, ready=True) as engine:
            opened.append(time.perf_counter() - started)
            started = time.perf_counter()
            await engine.indexer.run()  # what `serve` starts in the background once it answers
            reconciled.append(time.perf_counter() - started)
    out["startup_open_s"] = _seconds(opened)
    out["startup_reconcile_s"] = _seconds(reconciled)
    return out


def run_freshness(notes: int, dim: int, seed: int, repeats: int, work: Path) -> dict[str, object]:
    """Run it in a fresh process; `work` is emptied afterwards."""
    work.mkdir(parents=True, exist_ok=True)
    try:
        return asyncio.run(_measure(notes, dim, seed, repeats, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
