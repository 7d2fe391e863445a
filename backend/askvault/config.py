"""The one typed configuration object, built once from flags, environment and config file, in that order."""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from askvault.errors import ConfigError

DEFAULT_PORT = 27123
DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"
DEFAULT_EMBED_MODEL = "nomic-embed-text"
DEFAULT_CHAT_MODEL = "llama3.2:3b"
OPT_OUT_KEY = "askvault"
"""Frontmatter key: `askvault: false` keeps a note out of the index."""


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


@dataclass(frozen=True, slots=True)
class ChunkParams:
    max_chars: int = 1500
    min_chars: int = 150
    hard_cap_chars: int = 4000
    """No chunk's index text exceeds this, whatever the input (keeps the embedder's context safe)."""
    alias_header: bool = False
    """Every chunk's index text names the note's aliases under its title (eval/README.md, round two)."""
    tag_header: bool = False
    """Every chunk's index text names the note's tags under its title."""
    header_new_words_only: bool = False
    """That header keeps only words the title (or an earlier alias or tag) does not already have."""
    header_first_chunk_only: bool = False
    """The alias/tag header goes on the note's first chunk only: a handle for the note without lifting
    every chunk of it (on every chunk, a note's alias words crowd its own other sections out)."""
    note_chunk: bool = False
    """One extra chunk per note: title, aliases, tags, heading outline, table columns, outgoing link titles."""
    boilerplate_min_notes: int = 0
    """Lines found in at least this many notes are kept out of index text (0: off). Set by the indexer."""


@dataclass(frozen=True, slots=True)
class RetrievalParams:
    dense_k: int = 50
    keyword_k: int = 50
    rrf_k: int = 60
    top_k: int = 8
    min_dense_score: float = 0.0
    """Dense hits below this cosine similarity do not count as 'found' for the no-retrieval rule."""
    stem_language: str = "english"
    dense_weight: float = 1.0
    """Weight of the dense leg in reciprocal rank fusion: score = Σ weight / (rrf_k + rank)."""
    keyword_weight: float = 1.0
    protect_top: int = 0
    """Each leg's top N chunks are kept within the fused top (legs × N) (0: plain RRF)."""
    expand_note_hits: bool = False
    """A note-level chunk that ranks is replaced by its note's best other chunk (or first chunk) at its place."""
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
    identifier_weight: float = 0.0
    """Hybrid only: weight of a third RRF ranking of the candidates that hold one of the query's identifier-like
    tokens (`kodi-livingroom`, `INC-0214`, `5433`) literally (0: off; `retrieve/identifiers.py`)."""
    mention_top: int = 0
    """Hybrid only: each `[[Note]]` and `#tag` the query names gets its best chunk within the first N places
    (0: off; `retrieve/mentions.py`)."""
    keep_stop_words: bool = False
    """The keyword index keeps stop words (as `=word`, not counted in chunk length), and a query made only of stop
    words searches for them (`store.tokenize.Tokenizer(keep_stop_words=…)`, which wiring must pass it to)."""
    neighbours: int = 0
    """Chunks this many places either side of each of the top `neighbour_anchors` fused chunks, in the same
    note, become candidates right after their anchor, within that note's places only (0: off)."""
    neighbour_anchors: int = 3
    link_hops: bool = False
    """Notes one link hop (out or back) from the top `link_seeds` fused notes get a weak RRF bonus."""
    link_weight: float = 0.1
    """Weight of the linked notes' list in fusion: a linked note's best chunk gains link_weight / (rrf_k + rank).
    0.1 of a leg: ≈ 0.0016 at link rank 1, about two places of a fused top 10 (whose scores span ≈ 0.008),
    so a linked note moves up a little and never jumps the ranking."""
    link_seeds: int = 3


@dataclass(frozen=True, slots=True)
class PromptParams:
    max_sources: int = 6
    max_chars: int = 9000
    max_history_turns: int = 6


@dataclass(frozen=True, slots=True)
class OllamaConfig:
    url: str = DEFAULT_OLLAMA_URL
    embed_model: str = DEFAULT_EMBED_MODEL
    chat_model: str = DEFAULT_CHAT_MODEL
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 120.0
    embed_batch: int = 32
    embed_concurrency: int = 2


@dataclass(frozen=True, slots=True)
class StoreConfig:
    data_dir: Path
    """Per-vault folder for the index, token and lock; never inside the vault."""
    qdrant_url: str | None = None
    """None: the embedded engine in `data_dir`; otherwise a Qdrant server."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    allow_remote: bool = False
    extra_origins: tuple[str, ...] = ()
    max_body_bytes: int = 256 * 1024


@dataclass(frozen=True, slots=True)
class Config:
    vault: VaultConfig
    store: StoreConfig
    ollama: OllamaConfig = field(default_factory=OllamaConfig)
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


# (flag name, environment variable, config-file key) for each setting that can come from outside.
_SOURCES: dict[str, tuple[str, str | None, str]] = {
    "vault": ("--vault", "ASKVAULT_VAULT", "vault"),
    "data_dir": ("--data-dir", "ASKVAULT_DATA_DIR", "data_dir"),
    "ollama_url": ("--ollama-url", "OLLAMA_HOST", "ollama_url"),
    "embed_model": ("--embed-model", "ASKVAULT_EMBED_MODEL", "embed_model"),
    "chat_model": ("--chat-model", "ASKVAULT_CHAT_MODEL", "chat_model"),
    "qdrant_url": ("--qdrant-url", "QDRANT_URL", "qdrant_url"),
    "host": ("--host", "ASKVAULT_HOST", "host"),
    "port": ("--port", "ASKVAULT_PORT", "port"),
    "exclude": ("--exclude", "ASKVAULT_EXCLUDE", "exclude"),
    "include": ("--include", "ASKVAULT_INCLUDE", "include"),
    "exclude_headings": ("--exclude-heading", "ASKVAULT_EXCLUDE_HEADINGS", "exclude_headings"),
    "origins": ("--allow-origin", "ASKVAULT_ORIGINS", "origins"),
    "rerank": ("--rerank/--no-rerank", "ASKVAULT_RERANK", "rerank"),
    "rerank_model": ("--rerank-model", "ASKVAULT_RERANK_MODEL", "rerank_model"),
    "rerank_candidates": ("--rerank-candidates", "ASKVAULT_RERANK_CANDIDATES", "rerank_candidates"),
    "rerank_excerpt_chars": ("--rerank-excerpt-chars", "ASKVAULT_RERANK_EXCERPT_CHARS", "rerank_excerpt_chars"),
    "rerank_timeout_s": ("--rerank-timeout", "ASKVAULT_RERANK_TIMEOUT", "rerank_timeout"),
}

RERANK_CANDIDATES_RANGE = (2, 30)
RERANK_EXCERPT_RANGE = (100, 4000)
RERANK_TIMEOUT_RANGE = (1.0, 600.0)
RERANK_PROMPT_CHARS = 24_000
"""candidates × excerpt chars may not exceed this: the chat model's 8,192-token context holds ≈ 30k chars, and
Ollama drops the start of a longer prompt (the system message first)."""


def _pick(
    name: str, flags: Mapping[str, object], environ: Mapping[str, str], file: Mapping[str, object]
) -> tuple[object, str]:
    flag, env, key = _SOURCES[name]
    value = flags.get(name)
    if value is not None and value != ():
        return value, flag
    if env is not None and environ.get(env):
        return environ[env], env
    if key in file:
        return file[key], f"config file key {key!r}"
    return None, flag


def _ollama_url(raw: str, source: str) -> str:
    url = raw.strip().rstrip("/")
    if "://" in url and not re.match(r"^https?://", url):
        raise ConfigError(f"{source}: {raw!r} is not an http(s) URL")
    if not re.match(r"^https?://", url):
        # Ollama itself accepts OLLAMA_HOST=host:port; so do we.
        url = "http://" + url
    if not re.match(r"^https?://[^/\s]+(:\d+)?(/.*)?$", url):
        raise ConfigError(f"{source}: {raw!r} is not an http(s) URL")
    return url


def _list(value: object, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(str(v) for v in value)
    raise ConfigError(f"{source}: expected a comma-separated list of strings")


def _bool(value: object, source: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{source}: {value!r} is not true or false")


def _number(value: object, source: str, kind: type[int] | type[float], bounds: tuple[float, float]) -> float:
    what = "whole number" if kind is int else "number"
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | str)
        or (kind is int and isinstance(value, float))
    ):
        raise ConfigError(f"{source}: {value!r} is not a {what}")
    try:
        number = kind(value.strip() if isinstance(value, str) else value)
    except ValueError as exc:
        raise ConfigError(f"{source}: {value!r} is not a {what}") from exc
    low, high = bounds
    if not low <= number <= high:
        raise ConfigError(f"{source}: {number:g} is outside {low:g}..{high:g}")
    return number


def _retrieval(flags: Mapping[str, object], environ: Mapping[str, str], file: Mapping[str, object]) -> RetrievalParams:
    """The reranker settings from outside; every other retrieval parameter keeps its tuned default."""
    defaults = RetrievalParams()
    raw, src = _pick("rerank", flags, environ, file)
    rerank = _bool(raw, src) if raw is not None else defaults.rerank
    raw, _ = _pick("rerank_model", flags, environ, file)
    model = str(raw).strip() or None if raw is not None else None
    raw, src = _pick("rerank_candidates", flags, environ, file)
    candidates = int(_number(raw, src, int, RERANK_CANDIDATES_RANGE)) if raw is not None else defaults.rerank_candidates
    raw, src = _pick("rerank_excerpt_chars", flags, environ, file)
    excerpt = int(_number(raw, src, int, RERANK_EXCERPT_RANGE)) if raw is not None else defaults.rerank_excerpt_chars
    raw, src = _pick("rerank_timeout_s", flags, environ, file)
    timeout = float(_number(raw, src, float, RERANK_TIMEOUT_RANGE)) if raw is not None else defaults.rerank_timeout_s
    if candidates * excerpt > RERANK_PROMPT_CHARS:
        raise ConfigError(
            f"rerank_candidates × rerank_excerpt_chars = {candidates} × {excerpt} exceeds {RERANK_PROMPT_CHARS:,} "
            "characters, more than the reranking prompt can hold; lower one of them"
        )
    return RetrievalParams(
        rerank=rerank,
        rerank_model=model,
        rerank_candidates=candidates,
        rerank_excerpt_chars=excerpt,
        rerank_timeout_s=timeout,
    )


def read_config_file(path: Path | None) -> dict[str, object]:
    if path is None or not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path.name}: {exc}") from exc


def load_config(
    flags: Mapping[str, object],
    environ: Mapping[str, str],
    file: Mapping[str, object] | None = None,
    *,
    data_root: Path | None = None,
    require_vault: bool = True,
) -> Config:
    """Build the configuration once. Errors name the flag, variable or config key that is wrong."""
    file = file or {}
    raw_vault, vault_src = _pick("vault", flags, environ, file)
    if raw_vault is None:
        if require_vault:
            raise ConfigError("no vault given: pass --vault DIR or set ASKVAULT_VAULT")
        raw_vault = "."
    vault = Path(str(raw_vault)).expanduser()
    if require_vault and not vault.is_dir():
        raise ConfigError(f"{vault_src}: {vault} is not a folder")
    vault = vault.resolve()

    raw_data, _ = _pick("data_dir", flags, environ, file)
    if raw_data is not None:
        data_dir = Path(str(raw_data)).expanduser().resolve()
        data_dir = vault_data_dir(data_dir, vault)
    else:
        data_dir = vault_data_dir(data_root or default_data_root(), vault)
    if data_dir == vault or vault in data_dir.parents:
        raise ConfigError("--data-dir / ASKVAULT_DATA_DIR: the index must live outside the vault")

    raw_url, url_src = _pick("ollama_url", flags, environ, file)
    ollama_url = _ollama_url(str(raw_url), url_src) if raw_url is not None else DEFAULT_OLLAMA_URL
    embed_model, _ = _pick("embed_model", flags, environ, file)
    chat_model, _ = _pick("chat_model", flags, environ, file)
    qdrant_url, qdrant_src = _pick("qdrant_url", flags, environ, file)
    if qdrant_url is not None and not re.match(r"^https?://", str(qdrant_url)):
        raise ConfigError(f"{qdrant_src}: {qdrant_url!r} is not an http(s) URL")

    raw_host, _ = _pick("host", flags, environ, file)
    raw_port, port_src = _pick("port", flags, environ, file)
    try:
        port = int(str(raw_port)) if raw_port is not None else DEFAULT_PORT
    except ValueError as exc:
        raise ConfigError(f"{port_src}: {raw_port!r} is not a port number") from exc
    if not 0 <= port <= 65535:
        raise ConfigError(f"{port_src}: {port} is not a port number (0-65535)")
    raw_excl, excl_src = _pick("exclude", flags, environ, file)
    raw_incl, incl_src = _pick("include", flags, environ, file)
    raw_headings, headings_src = _pick("exclude_headings", flags, environ, file)
    raw_origins, origins_src = _pick("origins", flags, environ, file)
    origins = _list(raw_origins, origins_src) if raw_origins is not None else ()
    for origin in origins:
        if origin == "*" or not re.match(r"^[a-z][a-z0-9+.-]*://[^/\s]+$", origin):
            raise ConfigError(f"{origins_src}: {origin!r} is not an exact origin (scheme://host[:port])")

    return Config(
        vault=VaultConfig(
            root=vault,
            exclude_globs=_list(raw_excl, excl_src) if raw_excl is not None else (),
            include_globs=_list(raw_incl, incl_src) if raw_incl is not None else (),
            exclude_headings=_list(raw_headings, headings_src) if raw_headings is not None else (),
        ),
        store=StoreConfig(data_dir=data_dir, qdrant_url=str(qdrant_url).rstrip("/") if qdrant_url else None),
        ollama=OllamaConfig(
            url=ollama_url,
            embed_model=str(embed_model) if embed_model else DEFAULT_EMBED_MODEL,
            chat_model=str(chat_model) if chat_model else DEFAULT_CHAT_MODEL,
        ),
        retrieval=_retrieval(flags, environ, file),
        server=ServerConfig(
            host=str(raw_host) if raw_host else "127.0.0.1",
            port=port,
            allow_remote=bool(flags.get("allow_remote", False)),
            extra_origins=origins,
        ),
    )
