"""The Ollama embedder: `/api/embed` through the official async client, batched, bounded, with clear errors."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import httpx
from ollama import AsyncClient

from askvault.config import OllamaConfig
from askvault.embed.prefixes import Prefixes, collection_tag, prefixes_for
from askvault.errors import ModelError
from askvault.ollama_errors import OllamaCall, ollama_error

DEFAULT_OLLAMA_EMBED_MODEL = "nomic-embed-text"
"""The Ollama embedder used when the configuration names none (tests and library callers)."""
DEFAULT_KEEP_ALIVE = "10m"
"""How long Ollama keeps the model loaded after a call; indexing sends many calls in a row."""
_PROBE_TEXT = "dimension probe"


class OllamaEmbedder:
    """askvault.embed.protocol.Embedder on Ollama. Close with `await aclose()`."""

    def __init__(
        self, cfg: OllamaConfig, *, keep_alive: str | float = DEFAULT_KEEP_ALIVE, client: AsyncClient | None = None
    ) -> None:
        self._cfg = cfg
        self._model = cfg.embed_model or DEFAULT_OLLAMA_EMBED_MODEL
        self._keep_alive = keep_alive
        self._prefixes: Prefixes = prefixes_for(self._model)
        timeout = httpx.Timeout(cfg.read_timeout_s, connect=cfg.connect_timeout_s)
        # trust_env=False: HTTP(S)_PROXY must never route note text to a proxy; Ollama is local.
        self._client = client if client is not None else AsyncClient(host=cfg.url, timeout=timeout, trust_env=False)
        self._slots = asyncio.Semaphore(max(1, cfg.embed_concurrency))
        self._dim: int | None = None
        self._probe_lock = asyncio.Lock()

    @property
    def model(self) -> str:
        return self._model

    @property
    def backend(self) -> str:
        return "ollama"

    @property
    def label(self) -> str:
        return f"Ollama: {self._model}"

    @property
    def prefixes(self) -> Prefixes:
        return self._prefixes

    async def dimension(self) -> int:
        if self._dim is None:
            async with self._probe_lock:
                if self._dim is None:
                    (vector,) = await self._embed_batch([_PROBE_TEXT])
                    self._dim = len(vector)
        return self._dim

    async def fingerprint(self) -> str:
        # `x` and `x:latest` are the same model in Ollama; one name keeps their vectors in one collection. The
        # document prefix is part of the key: vectors made with and without it must never be ranked together.
        name = self.model.removesuffix(":latest")
        return f"{name}@{await self.dimension()}{collection_tag(self._prefixes)}"

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._embed([self._prefixes.document + t for t in texts])

    async def embed_query(self, text: str) -> list[float]:
        (vector,) = await self._embed([self._prefixes.query + text])
        return vector

    async def aclose(self) -> None:
        await self._client.close()  # type: ignore[no-untyped-call]  # ollama leaves close() unannotated

    async def _embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        size = max(1, self._cfg.embed_batch)
        batches = [texts[i : i + size] for i in range(0, len(texts), size)]
        if len(batches) == 1:
            return await self._embed_batch(batches[0])
        try:
            # A TaskGroup cancels the other batches as soon as one fails.
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(self._embed_batch(batch)) for batch in batches]
        except* ModelError as failures:
            raise failures.exceptions[0] from None
        return [vector for task in tasks for vector in task.result()]

    async def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        async with self._slots:
            try:
                response = await self._client.embed(
                    model=self.model, input=batch, truncate=True, keep_alive=self._keep_alive
                )
            except Exception as exc:
                raise ollama_error(exc, self._call(len(batch))) from exc
        vectors = [[float(x) for x in vector] for vector in response.embeddings]
        self._check(batch, vectors)
        return vectors

    def _check(self, batch: list[str], vectors: list[list[float]]) -> None:
        if len(vectors) != len(batch):
            raise ModelError(f"Ollama returned {len(vectors)} embeddings for {len(batch)} texts ({self.model!r})")
        sizes = {len(v) for v in vectors}
        expected = {self._dim} if self._dim is not None else sizes
        if len(sizes) > 1 or sizes != expected or 0 in sizes:
            raise ModelError(
                f"{self.model!r} returned vectors of size {sorted(sizes)}, expected {sorted(expected)}; "
                "was the model replaced while Ask Vault was running? Restart to re-probe it"
            )

    def _call(self, texts: int) -> OllamaCall:
        doing = f"embedding {texts} texts" if texts != 1 else "embedding a text"
        return OllamaCall(self._cfg.url, self.model, "embedding", doing, "/api/embed", self._cfg.read_timeout_s)
