"""The reference retriever: plain BM25 + cosine + RRF over heading/paragraph chunks, a yardstick for the product.

It shares nothing with the product's chunker, tokenizer or fusion, only the embedding model and the list of
notes the product indexed, so a gap between the two is the product's own doing. It is an evaluation mode only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from rank_bm25 import BM25Okapi

from askvault.embed.protocol import Embedder
from askvault.errors import NoteError
from askvault.evaluate.files import EvalFiles
from askvault.evaluate.metrics import JsonValue
from askvault.evaluate.modes import EvalMode
from askvault.evaluate.reference_chunks import (
    MAX_CHARS,
    RRF_K,
    chunk_text,
    index_text,
    note_title,
    page_chunks,
    rrf,
    tokenize,
    top_indices,
)
from askvault.model import Chunk, Hit, SearchMode

LEG_DEPTH = 50
"""Each leg's list before fusion."""
EMBED_BATCH = 64
REFERENCE_MODES: dict[str, SearchMode] = {
    "reference": "hybrid",
    "reference-dense": "dense",
    "reference-keyword": "keyword",
}

Matrix = npt.NDArray[np.float64]


def read_chunks(vault: Path, paths: Iterable[str], files: EvalFiles | None = None) -> list[Chunk]:
    """The reference chunks of the given vault-relative files, in path order; unreadable files are left out.

    Each file is read as the indexer reads it (`EvalFiles`; None: files of this call's own, closed when it ends):
    a note or canvas (as its Markdown) is chunked at its headings, a PDF page by page.
    """
    if files is None:
        with EvalFiles(vault) as own:
            return read_chunks(vault, paths, own)
    chunks: list[Chunk] = []
    for path in sorted(set(paths)):
        try:
            read = files.read(path)
        except NoteError:
            continue  # gone or garbled since the product indexed it: the product has no chunk of it either
        title = note_title(path)
        refs = page_chunks(read.lines, read.pages) if read.kind == "pdf" else chunk_text(read.text)
        for ref in refs:
            chunk_id = hashlib.sha1(f"{path}\0{ref.start_line}".encode()).hexdigest()
            chunks.append(
                Chunk(
                    id=chunk_id,
                    path=path,
                    title=title,
                    heading_path=ref.heading_path,
                    start_line=ref.start_line,
                    end_line=ref.end_line,
                    text=ref.text,
                    index_text=index_text(title, ref),
                )
            )
    return chunks


def _text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _unit_rows(vectors: Sequence[Sequence[float]]) -> Matrix:
    matrix = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms == 0.0, 1.0, norms)


class ReferenceIndex:
    """Chunks and BM25 built on the first search, chunk vectors on the first dense one; kept for the run."""

    def __init__(
        self,
        vault: Path,
        note_paths: Callable[[], Iterable[str]],
        embedder: Embedder,
        cache_dir: Path | None = None,
        files: EvalFiles | None = None,
    ) -> None:
        self._vault = vault
        self._files = files
        """Reads the notes (None: files of the build's own, closed once the chunks are read)."""
        self._cache_dir = cache_dir
        """Where chunk vectors are kept between runs (keyed by embedder fingerprint and text); None: not kept."""
        self._note_paths = note_paths
        self._embedder = embedder
        self._lock = asyncio.Lock()
        self._chunks: list[Chunk] | None = None
        self._bm25: BM25Okapi | None = None
        self._vectors: Matrix | None = None

    async def chunks(self) -> list[Chunk]:
        async with self._lock:
            if self._chunks is not None:
                return self._chunks
            built, self._bm25 = await asyncio.to_thread(self._build, list(self._note_paths()))
            self._chunks = built
            return built

    def _build(self, paths: list[str]) -> tuple[list[Chunk], BM25Okapi | None]:
        chunks = read_chunks(self._vault, paths, self._files)
        # BM25Okapi divides by the corpus size, so an empty vault gets no keyword index at all.
        bm25 = BM25Okapi([tokenize(c.index_text) for c in chunks], k1=1.5, b=0.75) if chunks else None
        return chunks, bm25

    async def _chunk_vectors(self) -> Matrix:
        chunks = await self.chunks()
        async with self._lock:
            if self._vectors is None:
                texts = [c.index_text for c in chunks]
                cache = await self._load_cache()
                missing = list(dict.fromkeys(t for t in texts if _text_key(t) not in cache))
                for start in range(0, len(missing), EMBED_BATCH):
                    batch = missing[start : start + EMBED_BATCH]
                    for text, vector in zip(batch, await self._embedder.embed_documents(batch), strict=True):
                        cache[_text_key(text)] = vector
                if missing:
                    await self._save_cache(cache)
                vectors = [cache[_text_key(t)] for t in texts]
                self._vectors = _unit_rows(vectors) if vectors else np.zeros((0, 1))
            return self._vectors

    async def _cache_file(self) -> Path | None:
        if self._cache_dir is None:
            return None
        name = re.sub(r"[^A-Za-z0-9_-]+", "_", await self._embedder.fingerprint())
        return self._cache_dir / f"reference-vectors-{name}.json"

    async def _load_cache(self) -> dict[str, list[float]]:
        path = await self._cache_file()
        if path is None or not path.exists():
            return {}
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # a damaged cache only costs the embeddings again
        return {str(k): [float(x) for x in v] for k, v in loaded.items()} if isinstance(loaded, dict) else {}

    async def _save_cache(self, cache: dict[str, list[float]]) -> None:
        path = await self._cache_file()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(cache), encoding="utf-8")

    async def keyword(self, question: str) -> list[tuple[int, float]]:
        """Top LEG_DEPTH (chunk index, BM25 score), best first, scores <= 0 dropped."""
        await self.chunks()
        tokens = tokenize(question)
        if self._bm25 is None or not tokens:
            return []
        scores: list[float] = [float(s) for s in self._bm25.get_scores(tokens)]
        return [(i, scores[i]) for i in top_indices(scores, LEG_DEPTH, positive_only=True)]

    async def dense(self, question: str) -> list[tuple[int, float]]:
        """Top LEG_DEPTH (chunk index, cosine similarity), best first."""
        vectors = await self._chunk_vectors()
        if not len(vectors):
            return []
        query = _unit_rows([await self._embedder.embed_query(question)])[0]
        scores: list[float] = [float(s) for s in vectors @ query]
        return [(i, scores[i]) for i in top_indices(scores, LEG_DEPTH)]

    async def search(self, question: str, k: int, mode: SearchMode) -> list[Hit]:
        """The top k hits of one mode: RRF (k = 60) of both legs for hybrid, one leg's order for the others."""
        chunks = await self.chunks()
        dense = await self.dense(question) if mode != "keyword" else []
        keyword = await self.keyword(question) if mode != "dense" else []
        dense_scores, keyword_scores = dict(dense), dict(keyword)
        fused = rrf([i for i, _ in dense], [i for i, _ in keyword], k=RRF_K)
        return [
            Hit(
                chunk=chunks[f.index],
                dense_rank=f.dense_rank,
                keyword_rank=f.keyword_rank,
                fused_score=f.score,
                dense_score=dense_scores.get(f.index),
                keyword_score=keyword_scores.get(f.index),
            )
            for f in fused[:k]
        ]

    def stats(self) -> dict[str, JsonValue]:
        chunks = self._chunks or []
        return {
            "chunks": len(chunks),
            "notes": len({c.path for c in chunks}),
            "max_chars": MAX_CHARS,
            "leg_depth": LEG_DEPTH,
            "rrf_k": RRF_K,
        }


def reference_modes(
    vault: Path,
    note_paths: Callable[[], Iterable[str]],
    embedder: Embedder,
    cache_dir: Path | None = None,
    files: EvalFiles | None = None,
) -> list[EvalMode]:
    """`reference`, `reference-dense` and `reference-keyword`, sharing one lazily built index. `note_paths` is
    called on the first search, after the product's index run, so both rank the same notes. `cache_dir` keeps
    the chunk vectors between runs (the evaluation's data dir), so a rerun embeds only changed chunks. `files`
    reads the notes, PDFs and canvases (None: the index reads them with files of its own, closed once read)."""
    index = ReferenceIndex(vault, note_paths, embedder, cache_dir, files)

    def mode(name: str, search_mode: SearchMode) -> EvalMode:
        async def retrieve(question: str, k: int) -> Sequence[Hit]:
            return await index.search(question, k, search_mode)

        return EvalMode(name=name, retrieve=retrieve, needs_dense=search_mode != "keyword", stats=index.stats)

    return [mode(name, search_mode) for name, search_mode in REFERENCE_MODES.items()]
