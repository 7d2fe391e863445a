"""The floor under the built-in embedder: the same verified model folder run by ONNX Runtime and `tokenizers` alone."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnxruntime as ort  # type: ignore[import-untyped]  # ships no type stubs
from tokenizers import Tokenizer

MAX_TOKENS = 256
"""all-MiniLM-L6-v2 was trained on 256 word pieces; its tokenizer_config.json says so, and fastembed truncates there."""

Matrix = npt.NDArray[np.float32]


def tokenizer(folder: Path) -> Tokenizer:
    """The model's tokenizer as the built-in embedder sets it up: truncation at 256, padding to the batch's longest."""
    loaded = Tokenizer.from_file(str(folder / "tokenizer.json"))
    # tokenizer.json itself says 128 and a fixed padding of 128; the model's limit and batch-longest win.
    loaded.enable_truncation(MAX_TOKENS)
    loaded.enable_padding(pad_id=0, pad_token="[PAD]", length=None)
    return loaded


def token_counts(folder: Path, texts: Sequence[str]) -> list[int]:
    """Word pieces each text is run with (after truncation, [CLS] and [SEP] included, no padding)."""
    return [sum(e.attention_mask) for e in tokenizer(folder).encode_batch(list(texts))]


class OnnxFloor:
    """Tokenize (truncate at 256, pad to the batch's longest), run the session, mean-pool, L2-normalise: nothing else.

    Texts are sorted by length and cut into batches exactly as `BuiltinEmbedder` does, so the two do the same
    arithmetic and what separates their times is the built-in path's own overhead.
    """

    def __init__(self, folder: Path, onnx_file: str = "model.onnx", threads: int = 0, *, optimise: bool = True) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads  # 0: ONNX Runtime's default, as the built-in embedder's threads 0
        if not optimise:
            # fastembed asks for every graph optimisation; their constant folding turns the int8 weights into float
            # copies at load. Off, the session is smaller: the bench measures what that costs in speed.
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        self._session = ort.InferenceSession(str(folder / onnx_file), options, providers=["CPUExecutionProvider"])
        self._inputs = {node.name for node in self._session.get_inputs()}
        self._tokenizer = tokenizer(folder)

    def embed(self, texts: Sequence[str], batch: int) -> Matrix:
        """One row per text, in the input order."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: Matrix | None = None
        for start in range(0, len(order), max(1, batch)):
            rows = order[start : start + max(1, batch)]
            vectors = self._run([texts[i] for i in rows])
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[rows] = vectors
        return out if out is not None else np.zeros((0, 0), dtype=np.float32)

    def _run(self, texts: list[str]) -> Matrix:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = np.asarray(self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0])
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        normed: Matrix = (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)
        return normed


def min_cosine(a: Matrix, b: Matrix) -> float:
    """The lowest cosine between matching rows of two matrices of unit vectors."""
    if len(a) == 0:
        return float("nan")
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    return float(np.min(np.einsum("ij,ij->i", a, b) / np.maximum(norms, 1e-12)))
