"""The Ollama embedder: `/api/embed` through the official async client, batched, bounded, with clear errors."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import httpx
from ollama import AsyncClient, ResponseError

from askvault.config import OllamaConfig
from askvault.embed.prefixes import Prefixes, collection_tag, prefixes_for
from askvault.errors import ModelError, ModelMissing, ModelTimeout, ModelUnreachable

DEFAULT_KEEP_ALIVE = "10m"
"""How long Ollama keeps the model loaded after a call; indexing sends many calls in a row."""
_PROBE_TEXT = "dimension probe"


class OllamaEmbedder:
    """askvault.embed.protocol.Embedder on Ollama. Close with `await aclose()`."""

    def __init__(
        self, cfg: OllamaConfig, *, keep_alive: str | float = DEFAULT_KEEP_ALIVE, client: AsyncClient | None = None
    ) -> None:
        self._cfg = cfg
        self._keep_alive = keep_alive
        self._prefixes: Prefixes = prefixes_for(cfg.embed_model)
        timeout = httpx.Timeout(cfg.read_timeout_s, connect=cfg.connect_timeout_s)
        # trust_env=False: HTTP(S)_PROXY must never route note text to a proxy; Ollama is local.
        self._client = client if client is not None else AsyncClient(host=cfg.url, timeout=timeout, trust_env=False)
        self._slots = asyncio.Semaphore(max(1, cfg.embed_concurrency))
        self._dim: int | None = None
        self._probe_lock = asyncio.Lock()

    @property
    def model(self) -> str:
        return self._cfg.embed_model

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
            except ResponseError as exc:
                raise self._response_error(exc) from None
            except ConnectionError as exc:
                # The ollama client turns httpx.ConnectError (refused, DNS failure) into ConnectionError.
                raise self._unreachable() from exc
            except httpx.ConnectTimeout as exc:
                raise self._unreachable() from exc
            except httpx.TimeoutException as exc:
                raise ModelTimeout(
                    f"Ollama at {self._cfg.url} did not answer within {self._cfg.read_timeout_s:g} s while "
                    f"embedding {len(batch)} texts with {self.model!r}"
                ) from exc
            except (httpx.HTTPError, ValueError) as exc:
                # ValueError: a body that is not JSON or not an embed response (pydantic's error is one).
                raise ModelError(f"Ollama at {self._cfg.url} broke off an embedding request: {exc}") from exc
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

    def _unreachable(self) -> ModelUnreachable:
        return ModelUnreachable(
            f"Ollama is not reachable at {self._cfg.url}: start it with `ollama serve` or set OLLAMA_HOST / "
            "--ollama-url"
        )

    def _response_error(self, exc: ResponseError) -> ModelError:
        text = str(exc.error)
        lowered = text.lower()
        if exc.status_code == 404 and "not found" in lowered and self.model.split(":")[0].lower() in lowered:
            return ModelMissing(self.model)
        if exc.status_code == 404:
            return ModelError(f"Ollama at {self._cfg.url} has no /api/embed ({text}); update Ollama to 0.3 or newer")
        if "not support" in lowered and "embed" in lowered:
            return ModelError(
                f"{self.model!r} is a chat model and cannot make embeddings; choose an embedding model such "
                "as nomic-embed-text with --embed-model / ASKVAULT_EMBED_MODEL"
            )
        return ModelError(
            f"Ollama at {self._cfg.url} failed to embed with {self.model!r} (HTTP {exc.status_code}): {text}"
        )
