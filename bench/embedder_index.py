"""A first index through the real engine, as `askvault index` runs it, with the built-in or the HTTP embedder.

Also where the embedder bench gets its chunks: the `index_text` of every chunk the index holds a vector for, read
back from the manifest in the order the indexer embeds them (path, then position).
"""

from __future__ import annotations

import asyncio
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from askvault.embed.protocol import Embedder
from askvault.wiring import open_engine
from bench.fake_embed import TimedEmbedder
from bench.harness import NOWHERE, config_for

BUILTIN = "builtin"
"""The `ollama.embed_model` setting that picks the built-in embedder (as leaving it unset does on a new index)."""


@dataclass(frozen=True)
class IndexRun:
    embedder: str
    notes: int
    chunks: int
    seconds: float
    """open_engine + indexer.run()"""
    load_seconds: float
    """The model's load (built-in) or probe (HTTP): `dimension` and `fingerprint` calls."""
    embed_seconds: float
    """`embed_documents` calls."""


class LoadTimedEmbedder(TimedEmbedder):
    """Also adds up `dimension` and `fingerprint`: the built-in model loads (and the HTTP one is probed) there."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.load_seconds = 0.0

    async def dimension(self) -> int:
        started = time.perf_counter()
        try:
            return await self.inner.dimension()
        finally:
            self.load_seconds += time.perf_counter() - started

    async def fingerprint(self) -> str:
        started = time.perf_counter()
        try:
            return await self.inner.fingerprint()
        finally:
            self.load_seconds += time.perf_counter() - started


async def _first_index(vault: Path, data_root: Path, embed_model: str, url: str) -> tuple[IndexRun, list[str]]:
    started = time.perf_counter()
    async with open_engine(config_for(vault, data_root, embed_model, url), sync_vectors=False) as engine:
        timed = LoadTimedEmbedder(engine.dense.embedder)
        engine.dense.embedder = timed
        report = await engine.indexer.run()
        seconds = time.perf_counter() - started
        # Only chunks with an index text get a vector (a template-only passage has none).
        texts = [chunk.index_text for chunk in engine.manifest.iter_chunks() if chunk.index_text]
    if report.embedded != len(texts) or report.dense != "ready":
        raise RuntimeError(f"the first index embedded {report.embedded} of {len(texts)} chunks: {report.dense_problem}")
    run = IndexRun(
        embed_model,
        report.notes,
        report.chunks,
        round(seconds, 3),
        round(timed.load_seconds, 3),
        round(timed.seconds, 3),
    )
    return run, texts


def first_index(vault: Path, work: Path, embed_model: str = BUILTIN, url: str = NOWHERE) -> tuple[IndexRun, list[str]]:
    """Indexes `vault` from nothing into `work` (removed afterwards): open_engine + indexer.run(), timed together;
    returns the figures and every chunk's `index_text`.

    With the built-in embedder that includes checking the model's files and copying them into the new data folder,
    loading the ONNX session and embedding every chunk: all of what a new user waits for.
    """
    work.mkdir(parents=True, exist_ok=True)
    try:
        return asyncio.run(_first_index(vault, work / "data", embed_model, url))
    finally:
        shutil.rmtree(work, ignore_errors=True)
