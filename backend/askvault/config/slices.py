"""The configuration slices each stage receives, and where a vault's data lives; built once by `load.py`."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

DEFAULT_PORT = 27582
"""The sidecar's port: "ASKVA" on a phone keypad. Not 27123/27124 (Obsidian Local REST API and the MCP servers that call
it) nor another port a popular Obsidian tool or local model server uses; below every OS's ephemeral range
(docs/decisions.md)."""
DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"
DEFAULT_EMBED_MODEL: str | None = None
"""No embedding model configured: the one the index was built with, else the built-in one (`embed/choice.py`)."""
DEFAULT_CHAT_MODEL = "llama3.2:3b"
OPT_OUT_KEY = "askvault"
"""Frontmatter key: `askvault: false` keeps a note out of the index."""


SOURCE_SEPARATOR = ":"
"""A folder beside the vault names its files `LABEL:relative/path`; Obsidian allows no `:` in a file or folder name,
so no vault path reads as one."""


@dataclass(frozen=True, slots=True)
class SourceConfig:
    """A folder beside the vault searched with it (`--source LABEL=PATH`, `[[sources]]` in the config file)."""

    label: str
    """Marks its hits and prefixes its paths (`Docs:setup/install.md`)."""
    root: Path
    include_globs: tuple[str, ...] = ()
    exclude_globs: tuple[str, ...] = ()

    @property
    def prefix(self) -> str:
        return self.label + SOURCE_SEPARATOR


@dataclass(frozen=True, slots=True)
class VaultConfig:
    root: Path
    exclude_globs: tuple[str, ...] = ()
    """Gitignore-style patterns (vault-relative) kept out of the index, on top of Obsidian's own."""
    max_note_bytes: int = 4 * 1024 * 1024
    opt_out_key: str = OPT_OUT_KEY
    include_globs: tuple[str, ...] = ()
    """Include-only mode: when set, only notes matching one of these gitignore-style patterns are indexed."""
    exclude_headings: tuple[str, ...] = ()
    """Heading texts (case-insensitive) whose sections, subsections included, are dropped before chunking."""
    redact_seed_phrases: bool = True
    """BIP-39 seed phrases (12-24 wordlist words) are redacted before indexing (off: crypto-free vaults whose
    word lists should stay searchable)."""
    pdfs: bool = True
    """PDFs in the vault are indexed page by page (off: they stay attachments, as before)."""
    canvases: bool = True
    """Canvases (`.canvas`) are indexed by their cards' text and the notes they show."""
    max_pdf_bytes: int = 256 * 1024 * 1024
    """A larger PDF is skipped and reported (PDFs carry images and fonts, so this is far above `max_note_bytes`)."""
    pdf_max_pages: int = 1000
    """Pages of one PDF that are indexed; later ones are left out, and the note says so."""
    pdf_max_seconds: float = 120.0
    """Extracting one PDF's text may take this long; a slower one is reported and skipped."""
    pdf_max_memory_mb: int = 1024
    """The memory the process extracting a PDF may use; a PDF needing more (a decompression bomb) is reported."""

    texts: bool = False
    """Plain `.txt` files are indexed too: on in the folders beside the vault, off in the vault (Obsidian hides
    them)."""
    sources: tuple[SourceConfig, ...] = ()
    """Folders beside the vault, indexed and watched with it, each under its label."""

    def indexes(self, kind: str) -> bool:
        """Whether files of this `parse.documents` kind are indexed in this vault."""
        return (
            kind == "note"
            or (kind == "pdf" and self.pdfs)
            or (kind == "canvas" and self.canvases)
            or (kind == "text" and self.texts)
        )


@dataclass(frozen=True, slots=True)
class ChunkParams:
    max_chars: int = 1500
    min_chars: int = 150
    hard_cap_chars: int = 4000
    """No chunk's index text exceeds this, whatever the input (keeps the embedder's context safe)."""
    overlap: bool = True
    """A split section's next piece repeats the previous paragraph (False: pieces share no text)."""
    alias_header: bool = True
    """Every chunk's index text names the note's aliases under its title (eval/README.md, round two)."""
    tag_header: bool = True
    """Every chunk's index text names the note's tags under its title."""


@dataclass(frozen=True, slots=True)
class RetrievalParams:
    dense_k: int = 50
    keyword_k: int = 50
    rrf_k: int = 60
    top_k: int = 8
    min_dense_score: float = 0.0
    """Dense hits below this cosine similarity do not count as 'found' for the no-retrieval rule."""
    stem_language: str = "english"
    """The Snowball stemmer for notes whose language is not known (and for every note with `note_languages` off)."""
    note_languages: bool = True
    """Each note is tokenized in its own language: its frontmatter's `lang`/`language`, else detected
    (`store.text.detect`); a question in its own language and the vault's main ones. Off: all in `stem_language`."""
    dense_weight: float = 1.0
    """Weight of the dense leg in hybrid score fusion: its share of the convex combination (weight / Σ weights;
    `retrieve.fusion.score_fusion`). Single-leg modes rank by 1/(rrf_k + rank)."""
    keyword_weight: float = 1.0
    keyword_coverage: bool = True
    """Score fusion only: the keyword leg's weight is scaled by the share of the query's terms the vault's
    vocabulary holds at all (df > 0), so a question asked in a language the notes are not written in, which the
    keyword leg can only match on a borrowed word or two, is ranked mostly by its dense leg (eval/README.md,
    "Keyword weight by coverage"). A question whose every term occurs somewhere is fused exactly as before."""
    rerank: bool = False
    """A chat model reorders the top `rerank_candidates` fused chunks before the prompt (answers only, not
    /api/search). Off by default: it costs seconds per question and only pays with a capable model."""
    rerank_model: str | None = None
    """The reranking model; None: the chat model."""
    rerank_candidates: int = 12
    rerank_excerpt_chars: int = 600
    """Each candidate is shown to the reranker cut to this many characters."""
    rerank_timeout_s: float = 20.0
    """A slower reranker is abandoned and the fused order kept."""
    query_dates: bool = True
    """A date phrase in the query ("last week", "in March") narrows both legs to notes dated in that range."""
    identifier_weight: float = 1.0
    """Hybrid only: weight of a third fusion component for the candidates that hold one of the query's identifier-like
    tokens (`kodi-livingroom`, `INC-0214`, `5433`) literally (0: off; `retrieve/identifiers.py`)."""
    mention_top: int = 3
    """Hybrid only: each `[[Note]]` and `#tag` the query names gets its best chunk within the first N places
    (0: off; `retrieve/mentions.py`)."""
    phrase_weight: float = 0.1
    """Hybrid only: weight of the phrase share, for the fused leaders that hold the question's adjacent word pairs
    side by side (`retrieve/phrases.py`; 0: off; eval/README.md, round four, "Phrases")."""
    phrase_candidates: int = 10
    """How many fused leaders the phrase share looks at (each is tokenized once per search)."""
    section_weight: float = 1.5
    """Hybrid only: how much the question's words that are rare among one note's chunks decide the order of that
    note's chunks among the fused leaders, against the leaders' score spread; no note gains or loses a place
    (`retrieve/sections.py`; 0: off; eval/README.md, round four, "Within a note")."""
    section_candidates: int = 10
    """How many fused leaders the section order looks at."""
    noise_penalty: float = 0.3
    """Hybrid only: a chunk's fused score loses this share of the part of it that is template, link or query lines
    (`retrieve/informative.py`; 0: off; eval/README.md, "Passages that say nothing")."""


@dataclass(frozen=True, slots=True)
class PromptParams:
    max_sources: int = 6
    max_chars: int = 9000
    max_history_turns: int = 6


@dataclass(frozen=True, slots=True)
class OllamaConfig:
    url: str = DEFAULT_OLLAMA_URL
    embed_model: str | None = DEFAULT_EMBED_MODEL
    """`builtin`, an Ollama embedding model, or None: the index's own embedder, else the built-in one."""
    chat_model: str = DEFAULT_CHAT_MODEL
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 120.0
    answer_tokens: int = 1024
    """The answer's token cap (Ollama's `num_predict`): a model that repeats itself stops here, and the done event
    says so (`done_reason: "length"`). About 700 words; a grounded answer is told to be brief."""
    embed_batch: int = 32
    embed_concurrency: int = 2


@dataclass(frozen=True, slots=True)
class BuiltinEmbedParams:
    """The built-in (in-process ONNX) embedder's settings."""

    threads: int = 0
    """ONNX Runtime's threads; 0: its default (the machine's cores)."""
    batch: int = 1
    """Texts per inference call, sorted by length first. 1: as fast as any batch on 2 cores, and ONNX Runtime's
    working memory grows with the batch (52 MB added at 1, 177 MB at 4, 700 MB at 16; bench/README.md, "The
    built-in embedder")."""
    models_dir: Path | None = None
    """Where the verified model folder is kept; None: `<data_dir>/models`. `load_config` shares one per data root."""


@dataclass(frozen=True, slots=True)
class StoreConfig:
    data_dir: Path
    """Per-vault folder for the index, token and lock; never inside the vault."""
    qdrant_url: str | None = None
    """None: the embedded engine in `data_dir`; otherwise a Qdrant server."""


@dataclass(frozen=True, slots=True)
class RemoteConfig:
    """Remote mode (docs/remote.md): a second, TLS-only listener for paired devices."""

    host: str
    """An IP literal to listen on (IPv6 without brackets); 0.0.0.0 or :: only when the user wrote it."""
    port: int
    cert_file: Path | None = None
    key_file: Path | None = None
    """The user's own certificate and key (e.g. from `tailscale cert`); None: a self-signed one in the data dir."""
    names: tuple[str, ...] = ()
    """DNS names devices use to reach it: in the self-signed certificate and the Host allow-list."""

    @property
    def address(self) -> str:
        """`HOST:PORT` as a device dials it: the first name if any, else the address (`[v6]:PORT`)."""
        host = self.names[0] if self.names else self.host
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @property
    def unspecified(self) -> bool:
        """True for 0.0.0.0 / :: (every interface)."""
        return self.host in ("0.0.0.0", "::")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    port_fallback: bool = False
    """True when `port` is only the default (no flag, environment or file named one): when it is taken, listen
    on a free port instead and say which (the banner, the discovery file). A port the user chose is never swapped."""
    remote: RemoteConfig | None = None
    """None: loopback only (the default)."""
    in_container: bool = False
    """Plain HTTP may listen on a container's interface (its published port bound to the host's loopback); the
    Host guard still answers loopback names only."""
    extra_origins: tuple[str, ...] = ()
    max_body_bytes: int = 256 * 1024


@dataclass(frozen=True, slots=True)
class Config:
    vault: VaultConfig
    store: StoreConfig
    ollama: OllamaConfig = field(default_factory=OllamaConfig)
    builtin_embed: BuiltinEmbedParams = field(default_factory=BuiltinEmbedParams)
    chunk: ChunkParams = field(default_factory=ChunkParams)
    retrieval: RetrievalParams = field(default_factory=RetrievalParams)
    prompt: PromptParams = field(default_factory=PromptParams)
    server: ServerConfig = field(default_factory=ServerConfig)


def default_data_root() -> Path:
    return Path(platformdirs.user_data_dir("askvault", appauthor=False))


def vault_data_dir(root: Path, vault: Path) -> Path:
    """One folder per vault: a readable slug plus a hash of the absolute path, so two `Notes` never collide."""
    absolute = str(vault.resolve())
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", vault.resolve().name).strip("-") or "vault"
    digest = hashlib.sha256(absolute.encode("utf-8")).hexdigest()[:12]
    return root / "vaults" / f"{slug}-{digest}"
