"""Embedders for benchmarks: a near-zero-cost deterministic one, and a wrapper that times any embedder."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from askvault.embed.prefixes import NONE, Prefixes
from askvault.embed.protocol import Embedder

POOL = 4096


class HashEmbedder:
    """askvault.embed.protocol.Embedder with no model: each text maps, by a hash, to the normalised sum of two
    of `POOL` fixed random vectors. Same text, same vector; costs microseconds, so what a benchmark measures
    around it is our own overhead. Vectors say nothing about meaning (the dense leg's cost does not depend on it).
    """

    def __init__(self, dim: int = 768, model: str = "bench-hash", seed: int = 0) -> None:
        self._dim = dim
        self._model = model
        pool = np.random.default_rng([seed, dim]).standard_normal((POOL, dim)).astype(np.float32)
        self._pool = pool / np.linalg.norm(pool, axis=1, keepdims=True)

    @property
    def model(self) -> str:
        return self._model

    @property
    def backend(self) -> str:
        return "bench"

    @property
    def prefixes(self) -> Prefixes:
        return NONE

    @property
    def label(self) -> str:
        return f"bench hash, {self._dim}-d"

    async def dimension(self) -> int:
        return self._dim

    async def fingerprint(self) -> str:
        return f"{self._model}@{self._dim}"

    def matrix(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The vectors of `texts` as one float32 matrix (rows L2-normalised)."""
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        keys = np.array(
            [int.from_bytes(hashlib.blake2b(t.encode(), digest_size=4).digest(), "little") for t in texts],
            dtype=np.int64,
        )
        rows = self._pool[keys % POOL] + 0.5 * self._pool[(keys // POOL) % POOL]
        normed: npt.NDArray[np.float32] = rows / np.linalg.norm(rows, axis=1, keepdims=True)
        return normed

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        rows: list[list[float]] = self.matrix(texts).tolist()
        return rows

    async def embed_query(self, text: str) -> list[float]:
        row: list[float] = self.matrix([text])[0].tolist()
        return row


class TimedEmbedder:
    """Delegates to another embedder and adds up the wall time of its embedding calls."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def backend(self) -> str:
        return self.inner.backend

    @property
    def prefixes(self) -> Prefixes:
        return self.inner.prefixes

    @property
    def label(self) -> str:
        return self.inner.label

    async def dimension(self) -> int:
        return await self.inner.dimension()

    async def fingerprint(self) -> str:
        return await self.inner.fingerprint()

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        started = time.perf_counter()
        try:
            return await self.inner.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += len(texts)

    async def embed_query(self, text: str) -> list[float]:
        started = time.perf_counter()
        try:
            return await self.inner.embed_query(text)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += 1
