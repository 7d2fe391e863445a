"""Helpers for tests on the real engine: configs, notes on disk, and what the stores and the fake Ollama saw."""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Concatenate, ParamSpec

from askvault.config import (
    ChunkParams,
    Config,
    OllamaConfig,
    RetrievalParams,
    StoreConfig,
    VaultConfig,
)
from askvault.embed.prefixes import RETRIEVAL_INSTRUCTION
from askvault.index.dense_sync import ACTIVE_COLLECTION
from askvault.index.report import IndexReport
from askvault.model import Chunk, Note, SearchResult
from askvault.retrieve.hybrid import HybridSearcher
from askvault.store.text.tokenize import Tokenizer
from askvault.wiring import Engine, open_engine
from tests.fakes.ollama_server import FakeOllama

P = ParamSpec("P")

EMBED_MODEL = "nomic-embed-text"
PROBE_TEXT = "dimension probe"
QUERY_PREFIXES = ("search_query: ", "query: ", "task: search result | query: ", RETRIEVAL_INSTRUCTION)


def paragraph(word: str, n: int = 40) -> str:
    """A paragraph of well over ChunkParams.min_chars, so each section stays its own chunk."""
    return " ".join(f"{word}{i % 7}" if i % 5 else word for i in range(n))


def engine_config(
    vault: Path,
    data_dir: Path,
    ollama_url: str,
    *,
    embed_model: str = EMBED_MODEL,
    exclude: tuple[str, ...] = (),
    max_note_bytes: int = 4 * 1024 * 1024,
    retrieval: RetrievalParams | None = None,
) -> Config:
    return Config(
        vault=VaultConfig(root=vault, exclude_globs=exclude, max_note_bytes=max_note_bytes),
        store=StoreConfig(data_dir=data_dir),
        ollama=OllamaConfig(url=ollama_url, embed_model=embed_model, connect_timeout_s=2.0, read_timeout_s=20.0),
        chunk=ChunkParams(),
        retrieval=retrieval or RetrievalParams(),
    )


def write_notes(root: Path, notes: Mapping[str, str | bytes]) -> None:
    """Writes vault-relative files (text as UTF-8, bytes as they are); creates `.obsidian` so it is a vault."""
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    for rel, content in notes.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def set_mtime(path: Path, seconds: float) -> None:
    os.utime(path, (seconds, seconds))


async def index_once(config: Config, *, full: bool = False, allow_mass_delete: bool = False) -> IndexReport:
    """One `askvault index` run on the real engine (opened and closed around it)."""
    async with open_engine(config, sync_vectors=False) as engine:
        return await engine.indexer.run(full=full, allow_mass_delete=allow_mass_delete)


@contextlib.asynccontextmanager
async def indexed_engine(config: Config) -> AsyncIterator[Engine]:
    """Indexes the vault once, then opens the engine as `askvault search` / `ask` would (vectors synced)."""
    await index_once(config)
    async with open_engine(config) as engine:
        assert engine.dense.usable, engine.dense.problem
        yield engine


def embedded_texts(fake: FakeOllama) -> list[str]:
    """Every document text sent to /api/embed (the dimension probe and queries left out)."""
    texts: list[str] = []
    for body in fake.calls("/api/embed"):
        raw = body.get("input", [])
        for text in [raw] if isinstance(raw, str) else raw:
            if text != PROBE_TEXT and not str(text).startswith(QUERY_PREFIXES):
                texts.append(str(text))
    return texts


def manifest_ids(engine: Engine) -> set[str]:
    return {chunk.id for chunk in engine.manifest.iter_chunks()}


async def vector_ids(engine: Engine) -> set[str]:
    """Ids in the vector collection dense search uses; fails the test when dense search is not ready."""
    store = engine.dense.store
    assert store is not None, f"dense search is {engine.dense.state}: {engine.dense.problem}"
    return await store.ids()


def embedded_ids(engine: Engine) -> set[str]:
    """What the manifest records as having a vector in the active collection."""
    active = engine.manifest.get_meta(ACTIVE_COLLECTION)
    assert active is not None
    return engine.manifest.embedded_ids(active)


def before_chunking(
    on_note: Callable[[Note], None], chunker: Callable[Concatenate[Note, P], list[Chunk]]
) -> Callable[Concatenate[Note, P], list[Chunk]]:
    """Wraps the chunker so a test can watch (or break) each note; all else the indexer passes goes through."""

    def chunk(note: Note, /, *args: P.args, **kwargs: P.kwargs) -> list[Chunk]:
        on_note(note)
        return chunker(note, *args, **kwargs)

    return chunk


def paths(result: SearchResult) -> list[str]:
    return [hit.chunk.path for hit in result.hits]


class CountingTokenizer(Tokenizer):
    """The real tokenizer, counting the questions it analyses (`query_terms`), to prove a search does it once."""

    def __init__(self, language: str | None = "english") -> None:
        super().__init__(language)
        self.questions = 0

    def query_terms(self, text: str) -> list[str]:
        self.questions += 1
        return super().query_terms(text)


def tuned_searcher(engine: Engine, **switches: float | int | str) -> HybridSearcher:
    """A searcher over the engine's own index with some retrieval switches changed (`RetrievalParams` fields)."""
    params = dataclasses.replace(engine.config.retrieval, **switches)  # type: ignore[arg-type]
    return HybridSearcher(engine.catalog, engine.keywords, engine.dense, params, visible=engine.guard.visible)
