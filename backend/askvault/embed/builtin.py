"""The built-in embedder: an ONNX model run in process by fastembed, its files from the install, verified first."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from askvault.embed.builtin_files import ALL_MINILM, BuiltinModel, model_folder
from askvault.embed.builtin_prepared import discard, prepared_folder
from askvault.embed.builtin_session import lean_session_class
from askvault.embed.prefixes import NONE, Prefixes
from askvault.errors import BuiltinModelBroken

if TYPE_CHECKING:  # fastembed pulls in onnxruntime and numpy: imported when the model is first used
    from fastembed.text.custom_text_embedding import CustomTextEmbedding as TextEmbedding

log = logging.getLogger(__name__)

BACKEND = "builtin"
_PROBE_TEXT = "dimension probe"
_REGISTERED: set[str] = set()
_REGISTER_LOCK = threading.Lock()


def _registered_name(model: BuiltinModel) -> str:
    """fastembed keeps custom models in a class-wide registry: each is added once per process."""
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    name = f"askvault/{model.key}"
    with _REGISTER_LOCK:
        if name not in _REGISTERED:
            # The source is never fetched: `specific_model_path` hands fastembed the verified folder.
            TextEmbedding.add_custom_model(
                name,
                pooling=PoolingType.MEAN,
                normalization=True,
                sources=ModelSource(hf=name),
                dim=model.dimension,
                model_file=model.onnx_file,
                license=model.license,
            )
            _REGISTERED.add(name)
    return name


class BuiltinEmbedder:
    """askvault.embed.protocol.Embedder on a model shipped with the install (all-MiniLM-L6-v2 by default).

    Nothing is loaded until the first call; loading checks every file's SHA-256 and the vector size, and any
    problem is a BuiltinModelBroken sentence naming the file. Inference runs in worker threads, texts sorted by
    length within a call so that a batch pads little (bench/README.md, "The built-in embedder").
    """

    def __init__(self, models_dir: Path, *, threads: int = 0, batch: int = 1, model: BuiltinModel = ALL_MINILM) -> None:
        self._models_dir = models_dir
        self._threads = threads
        self._batch = max(1, batch)
        self._spec = model
        self._model: TextEmbedding | None = None
        self._load_lock = asyncio.Lock()

    @property
    def model(self) -> str:
        return self._spec.name

    @property
    def backend(self) -> str:
        return BACKEND

    @property
    def prefixes(self) -> Prefixes:
        return NONE

    @property
    def label(self) -> str:
        return f"built-in {self._spec.name}, {self._spec.dimension}-d"

    async def dimension(self) -> int:
        await self._loaded()
        return self._spec.dimension

    async def fingerprint(self) -> str:
        return f"{BACKEND}-{self._spec.key}@{await self.dimension()}"

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        model = await self._loaded()
        return await asyncio.to_thread(self._embed_sorted, model, list(texts))

    async def embed_query(self, text: str) -> list[float]:
        model = await self._loaded()
        (vector,) = await asyncio.to_thread(self._embed_sorted, model, [text])
        return vector

    async def aclose(self) -> None:
        self._model = None

    async def _loaded(self) -> TextEmbedding:
        if self._model is None:
            async with self._load_lock:
                if self._model is None:
                    self._model = await asyncio.to_thread(self._load)
        return self._model

    def _load(self) -> TextEmbedding:
        folder = model_folder(self._spec, self._models_dir)
        prepared = prepared_folder(self._spec, folder)
        if prepared is not None:
            try:
                return self._open(prepared)
            except BuiltinModelBroken as exc:
                # The verified originals are still there: load those, and make the prepared folder again next time.
                log.warning("The built-in embedder's prepared model did not load, so the original is used: %s", exc)
                discard(prepared)
        return self._open(folder)

    def _open(self, folder: Path) -> TextEmbedding:
        try:
            model = lean_session_class()(
                _registered_name(self._spec),
                cache_dir=str(self._models_dir),
                threads=self._threads or None,
                specific_model_path=str(folder),
                local_files_only=True,
                cuda=False,
                enable_mem_pattern=False,
            )
            (probe,) = list(model.embed([_PROBE_TEXT], batch_size=1))
        except BuiltinModelBroken:
            raise
        except Exception as exc:  # ONNX Runtime and tokenizers raise their own types; one sentence for them all
            raise BuiltinModelBroken(
                f"The built-in embedder could not load {folder} ({type(exc).__name__}: {exc}); "
                "delete that folder and restart, or reinstall askvault"
            ) from exc
        if len(probe) != self._spec.dimension:
            raise BuiltinModelBroken(
                f"{folder / self._spec.onnx_file} gives {len(probe)}-dimensional vectors, "
                f"not the {self._spec.dimension} its model declares; reinstall askvault"
            )
        return model

    def _embed_sorted(self, model: TextEmbedding, texts: list[str]) -> list[list[float]]:
        # Sorting by length keeps each batch's padding small; the result goes back to the input order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[Any] = [None] * len(texts)
        for at, vector in zip(order, model.embed([texts[i] for i in order], batch_size=self._batch), strict=True):
            vectors[at] = vector.tolist()
        return vectors
