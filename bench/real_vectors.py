"""Real embeddings for the approximate-search bench: real vaults' chunks and the eval questions, embedded
by a running Ollama-compatible server, cached in one .npz; and synthetic growth from them to any size.

Read only when asked (`python -m bench.ann --corpora DIR`): tests never read outside the repository.
Each corpus is indexed by the real engine (its chunker, its dense sync, the server's model); the vectors are read
back from the store. Queries are the questions of `eval/` (real people's phrasing, some far from any note).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import tempfile
from pathlib import Path
from uuid import UUID

import numpy as np
import numpy.typing as npt
from qdrant_edge import ScrollRequest

from askvault.store.vectors.qdrant_edge import EdgeVectorStore
from askvault.wiring import open_engine
from bench.harness import config_for

REPO = Path(__file__).resolve().parents[1]
Matrix = npt.NDArray[np.float32]


def questions() -> list[str]:
    """Every question of the eval sets in the repository, in file order."""
    found: list[str] = []
    for path in sorted([*REPO.glob("eval/questions*.jsonl"), *REPO.glob("eval/corpora/*.jsonl")]):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                found.append(str(json.loads(line)["question"]))
    return found


async def _embed_corpus(vault: Path, work: Path, url: str, model: str) -> Matrix:
    async with open_engine(config_for(vault, work, model, url), sync_vectors=False) as engine:
        await engine.indexer.run()
        store = engine.dense.store
        if not isinstance(store, EdgeVectorStore) or engine.dense.state != "ready":
            raise RuntimeError(f"{vault.name}: dense index not ready ({engine.dense.problem})")
        shard = store._shard  # a benchmark may look inside: the vectors exactly as the store holds them
        assert shard is not None
        rows: list[list[float]] = []
        offset: int | UUID | str | None = None
        while True:
            records, offset = shard.scroll(ScrollRequest(offset=offset, limit=1024, with_vector=True))
            rows.extend(list(r.vector) for r in records)  # type: ignore[arg-type]  # one unnamed dense vector
            if offset is None:
                break
    return np.asarray(rows, dtype=np.float32)


async def _embed_questions(texts: list[str], url: str, model: str, work: Path) -> Matrix:
    vault = work / "empty-vault"
    (vault / ".obsidian").mkdir(parents=True, exist_ok=True)
    async with open_engine(config_for(vault, work / "q", model, url), sync_vectors=False) as engine:
        vectors = [await engine.embedder.embed_query(text) for text in texts]
    return np.asarray(vectors, dtype=np.float32)


def load(corpora: Path, url: str, model: str, cache: Path) -> tuple[Matrix, Matrix, dict[str, int]]:
    """(chunk vectors, question vectors, chunks per corpus), unit length; embedded once, then read from `cache`."""
    names = sorted(p.name for p in corpora.iterdir() if p.is_dir())
    texts = questions()
    key = hashlib.sha256(json.dumps([model, names, texts]).encode()).hexdigest()[:12]
    path = cache / f"real-{model.replace(':', '_')}-{key}.npz"
    if path.is_file():
        with np.load(path) as saved:
            counts = json.loads(str(saved["counts"]))
            return saved["docs"], saved["queries"], counts
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-real-"))
    try:
        parts = [asyncio.run(_embed_corpus(corpora / name, work / name, url, model)) for name in names]
        queries = asyncio.run(_embed_questions(texts, url, model, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    docs = _unit(np.concatenate(parts))
    counts = {name: len(part) for name, part in zip(names, parts, strict=True)}
    np.savez(path, docs=docs, queries=_unit(queries), counts=json.dumps(counts))
    return docs, _unit(queries), counts


def _unit(matrix: Matrix) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    result: Matrix = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return result


def grow(real: Matrix, n: int, seed: int, noise: float = 0.6, isotropic: bool = False) -> Matrix:
    """`n` vectors: the real ones first, then synthetic ones, each a mix of two real chunks (the second weighted
    0-0.5) plus Gaussian noise shaped like the real vectors' own spread around their mean (their covariance,
    times `noise`), normalised. At 0.6 the synthetic vectors' nearest-neighbour and mean pairwise cosines match
    the real ones' (0.81 and 0.21 for all-minilm on the two eval corpora). `isotropic` noise of norm ≈ `noise`
    instead fills all dimensions alike: much harder for a graph (real embeddings have a decaying spectrum, the
    top 50 of 384 directions hold ≈ 73 % of the variance), a pessimistic case."""
    rng = np.random.default_rng(seed)
    dim = real.shape[1]
    centred = real - real.mean(axis=0)
    eigenvalues, basis = np.linalg.eigh(np.cov(centred, rowvar=False))
    spread = np.sqrt(np.clip(eigenvalues, 0.0, None))
    out = np.empty((n, dim), dtype=np.float32)
    count = min(n, len(real))
    out[:count] = real[:count]
    step = 65_536
    for start in range(count, n, step):
        m = min(step, n - start)
        first = real[rng.integers(0, len(real), m)]
        second = real[rng.integers(0, len(real), m)]
        weight = rng.uniform(0.0, 0.5, (m, 1)).astype(np.float32)
        gauss = rng.standard_normal((m, dim))
        jitter = gauss * (noise / np.sqrt(dim)) if isotropic else (gauss * spread) @ basis.T * noise
        out[start : start + m] = first * (1 - weight) + second * weight + jitter.astype(np.float32)
    return _unit(out)
