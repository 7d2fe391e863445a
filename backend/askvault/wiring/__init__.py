"""The composition root: the only place that names concrete classes and connects them."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from askvault.ask.pipeline import AnswerPipeline
from askvault.ask.relevance import calibration_for
from askvault.ask.rerank import ChatReranker
from askvault.config import Config, VaultConfig
from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.choice import EmbedderChoice, EmbedderSpec, calibration_name, choose_embedder
from askvault.embed.ollama import OllamaEmbedder
from askvault.embed.protocol import Embedder
from askvault.extract.pdf import PdfExtractor, PdfLimits
from askvault.generate.ollama_chat import OllamaChatModel
from askvault.index.dense_sync import recorded_embedder, sync_dense
from askvault.index.indexer import Indexer
from askvault.index.language import NoteLanguages
from askvault.index.lock import IndexLock
from askvault.index.policy import NotePolicy
from askvault.index.privacy import VisibilityGuard
from askvault.index.report import Progress
from askvault.retrieve.hybrid import HybridSearcher
from askvault.retrieve.related import RelatedNotes
from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.manifest.manifest import Manifest
from askvault.store.text.detect import shared_detector
from askvault.store.text.tokenize import Tokenizer
from askvault.store.vectors.dense_index import DenseIndex
from askvault.wire.search_scored import SearchRelevance
from askvault.wiring.vectors import EdgeFactory, ServerFactory

log = logging.getLogger(__name__)

MANIFEST_FILE = "manifest.sqlite"
ModelEmbedder = OllamaEmbedder | BuiltinEmbedder


@dataclass
class Engine:
    """Everything one vault needs, built once from the configuration and closed together."""

    config: Config
    manifest: Manifest
    catalog: ChunkCatalog
    keywords: Bm25Index
    dense: DenseIndex[Embedder]
    embedder: ModelEmbedder
    embedder_choice: EmbedderChoice
    """Which embedder this engine uses and why: configured, the index's own, or the built-in default."""
    chat: OllamaChatModel
    vectors: EdgeFactory | ServerFactory
    indexer: Indexer
    searcher: HybridSearcher
    pipeline: AnswerPipeline
    policy: NotePolicy
    """What may be indexed or shown, and why not: the one instance the indexer, the guard and explain ask."""
    guard: VisibilityGuard
    """Re-checks exclusions on every hit and chunk lookup (the index may be older than the rules)."""
    reranker: ChatReranker
    """Built whatever `retrieval.rerank` says (the evaluation's rerank mode uses it); the answer pipeline gets
    it only when reranking is on."""
    related: RelatedNotes
    """Notes closest to a note (`/api/related`, `askvault related`), with the same privacy re-check as search."""

    @property
    def store_kind(self) -> str:
        return self.vectors.kind

    @property
    def search_relevance(self) -> SearchRelevance:
        """What search needs to show the relevance decision `ask` would make (its calibration and top_k)."""
        calibration = calibration_for(calibration_name(self.embedder_choice.spec))
        return SearchRelevance(calibration, self.config.retrieval.top_k)


def vault_id(config: Config) -> str:
    """The per-vault folder's name doubles as the namespace for a shared Qdrant server."""
    return config.store.data_dir.name


@contextlib.asynccontextmanager
async def open_engine(
    config: Config,
    *,
    sync_vectors: bool = True,
    progress: Callable[[Progress], None] | None = None,
    announce: Callable[[str], None] | None = None,
) -> AsyncIterator[Engine]:
    """Takes the vault's writer lock, opens the stores and serves the last good index at once.

    `sync_vectors` probes the embedding model and opens the current collection (embedding whatever a
    previous run left without a vector), so dense search is ready when this returns; it never fails
    because of the embedder (dense search just stays off, with the reason in `engine.dense.problem`).
    The embedder is the configured one, else the one the index was built with, else the built-in one; when the
    configured one differs from the index's, `announce` hears the sentence saying so before anything is embedded,
    and `progress` follows the embedding `sync_vectors` does.
    """
    data_dir = config.store.data_dir
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    async with contextlib.AsyncExitStack() as stack:
        lock = IndexLock(data_dir)
        lock.acquire()
        stack.callback(lock.release)
        manifest = Manifest.open(data_dir / MANIFEST_FILE)
        stack.callback(manifest.close)
        choice = choose_embedder(config.ollama.embed_model, recorded_embedder(manifest))
        if choice.replaces is not None:
            log.info("%s", choice.describe())
            if announce is not None:
                announce(choice.describe() + ".")
        embedder = make_embedder(choice.spec, config)
        stack.push_async_callback(embedder.aclose)
        chat = OllamaChatModel(config.ollama)
        stack.push_async_callback(chat.aclose)
        vectors: EdgeFactory | ServerFactory
        if config.store.qdrant_url:
            vectors = ServerFactory(config.store.qdrant_url, vault_id(config))
        else:
            vectors = EdgeFactory(data_dir / "vectors")
        stack.push_async_callback(vectors.close)
        catalog = ChunkCatalog(manifest.chunk_texts)
        detector = shared_detector() if config.retrieval.note_languages else None
        keywords = Bm25Index(
            Tokenizer(config.retrieval.stem_language),
            detect=detector.detect if detector is not None else None,
        )
        dense = DenseIndex[Embedder](embedder)
        languages = NoteLanguages(enabled=config.retrieval.note_languages, detector=detector)
        pdfs = _pdf_extractor(config.vault)
        if pdfs is not None:
            stack.callback(pdfs.close)
        # One policy for the whole engine: an Excluded files edit the indexer has read is what the guard applies.
        policy = NotePolicy(config.vault)
        indexer = Indexer(
            config.vault,
            config.chunk,
            manifest,
            catalog,
            keywords,
            dense,
            vectors,
            languages=languages,
            pdfs=pdfs,
            policy=policy,
        )
        guard = VisibilityGuard(policy, catalog.text_of)
        searcher = HybridSearcher(catalog, keywords, dense, config.retrieval, visible=guard.visible)
        related = RelatedNotes(catalog, keywords, dense, visible=guard.visible)
        reranker = ChatReranker.from_params(_rerank_chat(config, chat, stack), config.retrieval)
        pipeline = _pipeline(config, searcher, chat, reranker, choice.spec)
        await indexer.load()
        if sync_vectors:
            await sync_dense(manifest, dense, vectors, progress=progress)
        yield Engine(
            config=config,
            manifest=manifest,
            catalog=catalog,
            keywords=keywords,
            dense=dense,
            embedder=embedder,
            embedder_choice=choice,
            chat=chat,
            vectors=vectors,
            indexer=indexer,
            searcher=searcher,
            pipeline=pipeline,
            policy=policy,
            guard=guard,
            reranker=reranker,
            related=related,
        )


def _pdf_extractor(vault: VaultConfig) -> PdfExtractor | None:
    """The process that reads PDFs, bounded by the vault's limits; started at the first PDF, None with PDFs off."""
    if not vault.pdfs:
        return None
    limits = PdfLimits(
        max_pages=vault.pdf_max_pages, max_seconds=vault.pdf_max_seconds, max_memory_mb=vault.pdf_max_memory_mb
    )
    return PdfExtractor(limits)


def make_embedder(spec: EmbedderSpec, config: Config) -> ModelEmbedder:
    """The built-in embedder, or an Ollama one for the spec's model."""
    if spec.backend == "builtin":
        params = config.builtin_embed
        models_dir = params.models_dir or config.store.data_dir / "models"
        return BuiltinEmbedder(models_dir, threads=params.threads, batch=params.batch)
    return OllamaEmbedder(dataclasses.replace(config.ollama, embed_model=spec.model))


def _pipeline(
    config: Config, searcher: HybridSearcher, chat: OllamaChatModel, reranker: ChatReranker, spec: EmbedderSpec
) -> AnswerPipeline:
    return AnswerPipeline(
        searcher,
        chat,
        config.prompt,
        config.retrieval,
        reranker=reranker if config.retrieval.rerank else None,
        # Signals mean different things under different embedders (cosines of one model are not another's).
        calibration=calibration_for(calibration_name(spec)),
    )


@dataclass(frozen=True)
class AnsweringModel:
    chat: OllamaChatModel
    pipeline: AnswerPipeline
    """The engine's answer pipeline with this chat model (and, when reranking is on without its own
    `rerank_model`, this model as the reranker too)."""


@contextlib.asynccontextmanager
async def answering_models(engine: Engine, models: Sequence[str]) -> AsyncIterator[dict[str, AnsweringModel]]:
    """One answer pipeline per chat model over the engine's index (the evaluation compares models side by side);
    the engine's own model reuses its pipeline. Clients made here are closed on exit."""
    config = engine.config
    async with contextlib.AsyncExitStack() as stack:
        built: dict[str, AnsweringModel] = {}
        for model in dict.fromkeys(models):
            if model == config.ollama.chat_model:
                built[model] = AnsweringModel(engine.chat, engine.pipeline)
                continue
            chat = OllamaChatModel(dataclasses.replace(config.ollama, chat_model=model))
            stack.push_async_callback(chat.aclose)
            reranker = engine.reranker
            if not config.retrieval.rerank_model:
                reranker = ChatReranker.from_params(chat, config.retrieval)
            spec = engine.embedder_choice.spec
            built[model] = AnsweringModel(chat, _pipeline(config, engine.searcher, chat, reranker, spec))
        yield built


def _rerank_chat(config: Config, chat: OllamaChatModel, stack: contextlib.AsyncExitStack) -> OllamaChatModel:
    """The chat model itself, or a client for `retrieval.rerank_model` when that names another model."""
    model = config.retrieval.rerank_model
    if not model or model == config.ollama.chat_model:
        return chat
    other = OllamaChatModel(dataclasses.replace(config.ollama, chat_model=model))
    stack.push_async_callback(other.aclose)
    return other
