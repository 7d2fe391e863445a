"""Building the one Config: flags, then environment, then the config file, each setting validated and named."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from askvault.config.data_dir import check_data_dir
from askvault.config.file_keys import check_keys
from askvault.config.remote import remote_config
from askvault.config.slices import (
    DEFAULT_CHAT_MODEL,
    DEFAULT_OLLAMA_URL,
    DEFAULT_PORT,
    BuiltinEmbedParams,
    Config,
    OllamaConfig,
    RemoteConfig,
    RetrievalParams,
    ServerConfig,
    StoreConfig,
    VaultConfig,
    default_data_root,
    vault_data_dir,
)
from askvault.config.sources import load_sources
from askvault.config.values import boolean, bounded, ollama_base_url, string_list
from askvault.errors import ConfigError

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
    "redact_seed_phrases": (
        "--redact-seed-phrases/--no-redact-seed-phrases",
        "ASKVAULT_REDACT_SEED_PHRASES",
        "redact_seed_phrases",
    ),
    "pdfs": ("--pdfs/--no-pdfs", "ASKVAULT_PDFS", "pdfs"),
    "canvases": ("--canvases/--no-canvases", "ASKVAULT_CANVASES", "canvases"),
    "pdf_max_pages": ("--pdf-max-pages", "ASKVAULT_PDF_MAX_PAGES", "pdf_max_pages"),
    "pdf_max_seconds": ("--pdf-max-seconds", "ASKVAULT_PDF_MAX_SECONDS", "pdf_max_seconds"),
    "pdf_max_memory_mb": ("--pdf-max-memory-mb", "ASKVAULT_PDF_MAX_MEMORY_MB", "pdf_max_memory_mb"),
    "max_pdf_mb": ("--max-pdf-mb", "ASKVAULT_MAX_PDF_MB", "max_pdf_mb"),
    "sources": ("--source", "ASKVAULT_SOURCES", "sources"),
    "origins": ("--allow-origin", "ASKVAULT_ORIGINS", "origins"),
    "remote": ("--remote", "ASKVAULT_REMOTE", "remote"),
    "in_container": ("--in-container", "ASKVAULT_IN_CONTAINER", "in_container"),
    "remote_cert": ("--remote-cert", "ASKVAULT_REMOTE_CERT", "remote_cert"),
    "remote_key": ("--remote-key", "ASKVAULT_REMOTE_KEY", "remote_key"),
    "remote_names": ("--remote-name", "ASKVAULT_REMOTE_NAMES", "remote_names"),
    "rerank": ("--rerank/--no-rerank", "ASKVAULT_RERANK", "rerank"),
    "rerank_model": ("--rerank-model", "ASKVAULT_RERANK_MODEL", "rerank_model"),
    "rerank_candidates": ("--rerank-candidates", "ASKVAULT_RERANK_CANDIDATES", "rerank_candidates"),
    "rerank_excerpt_chars": ("--rerank-excerpt-chars", "ASKVAULT_RERANK_EXCERPT_CHARS", "rerank_excerpt_chars"),
    "rerank_timeout_s": ("--rerank-timeout", "ASKVAULT_RERANK_TIMEOUT", "rerank_timeout"),
    "query_dates": ("--query-dates/--no-query-dates", "ASKVAULT_QUERY_DATES", "query_dates"),
}

PDF_PAGES_RANGE = (1, 100_000)
PDF_SECONDS_RANGE = (1.0, 3600.0)
PDF_MEMORY_RANGE = (256, 65_536)
PDF_MB_RANGE = (1, 65_536)
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


def _retrieval(flags: Mapping[str, object], environ: Mapping[str, str], file: Mapping[str, object]) -> RetrievalParams:
    """The reranker settings and date scoping from outside; every other retrieval parameter keeps its measured
    default (eval/README.md)."""
    defaults = RetrievalParams()
    raw, src = _pick("rerank", flags, environ, file)
    rerank = boolean(raw, src) if raw is not None else defaults.rerank
    raw, _ = _pick("rerank_model", flags, environ, file)
    model = str(raw).strip() or None if raw is not None else None
    raw, src = _pick("rerank_candidates", flags, environ, file)
    candidates = int(bounded(raw, src, int, RERANK_CANDIDATES_RANGE)) if raw is not None else defaults.rerank_candidates
    raw, src = _pick("rerank_excerpt_chars", flags, environ, file)
    excerpt = int(bounded(raw, src, int, RERANK_EXCERPT_RANGE)) if raw is not None else defaults.rerank_excerpt_chars
    raw, src = _pick("rerank_timeout_s", flags, environ, file)
    timeout = float(bounded(raw, src, float, RERANK_TIMEOUT_RANGE)) if raw is not None else defaults.rerank_timeout_s
    raw, src = _pick("query_dates", flags, environ, file)
    query_dates = boolean(raw, src) if raw is not None else defaults.query_dates
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
        query_dates=query_dates,
    )


def _in_container(flags: Mapping[str, object], environ: Mapping[str, str], file: Mapping[str, object]) -> bool:
    raw, src = _pick("in_container", flags, environ, file)
    return boolean(raw, src) if raw is not None else False


def _remote(flags: Mapping[str, object], environ: Mapping[str, str], file: Mapping[str, object]) -> RemoteConfig | None:
    raw, src = _pick("remote", flags, environ, file)
    cert, _ = _pick("remote_cert", flags, environ, file)
    key, _ = _pick("remote_key", flags, environ, file)
    raw_names, names_src = _pick("remote_names", flags, environ, file)
    names = string_list(raw_names, names_src) if raw_names is not None else ()
    if raw is None or not str(raw).strip():
        if cert is not None or key is not None or names:
            raise ConfigError("--remote-cert, --remote-key and --remote-name only apply with --remote ADDRESS:PORT")
        return None
    return remote_config(raw, src, cert, key, names, names_src)


def _documents(
    flags: Mapping[str, object], environ: Mapping[str, str], file: Mapping[str, object], vault: VaultConfig
) -> VaultConfig:
    """Which files besides notes are indexed (PDFs, canvases) and the bounds of reading a PDF."""
    raw, src = _pick("pdfs", flags, environ, file)
    pdfs = boolean(raw, src) if raw is not None else vault.pdfs
    raw, src = _pick("canvases", flags, environ, file)
    canvases = boolean(raw, src) if raw is not None else vault.canvases
    raw, src = _pick("pdf_max_pages", flags, environ, file)
    pages = int(bounded(raw, src, int, PDF_PAGES_RANGE)) if raw is not None else vault.pdf_max_pages
    raw, src = _pick("pdf_max_seconds", flags, environ, file)
    seconds = float(bounded(raw, src, float, PDF_SECONDS_RANGE)) if raw is not None else vault.pdf_max_seconds
    raw, src = _pick("pdf_max_memory_mb", flags, environ, file)
    memory = int(bounded(raw, src, int, PDF_MEMORY_RANGE)) if raw is not None else vault.pdf_max_memory_mb
    raw, src = _pick("max_pdf_mb", flags, environ, file)
    size = int(bounded(raw, src, int, PDF_MB_RANGE)) * 1024 * 1024 if raw is not None else vault.max_pdf_bytes
    return replace(
        vault,
        pdfs=pdfs,
        canvases=canvases,
        pdf_max_pages=pages,
        pdf_max_seconds=seconds,
        pdf_max_memory_mb=memory,
        max_pdf_bytes=size,
    )


CONFIG_KEYS = frozenset(key for _, _, key in _SOURCES.values())
"""Every key a config file may set: the file is flat, one key per setting (README.md, Configuration)."""


def _toml_problem(exc: tomllib.TOMLDecodeError) -> str:
    """tomllib's "Invalid value (at line 1, column 14)" as "invalid value at line 1, column 14", to sit mid-sentence."""
    text = str(exc)
    found = re.fullmatch(r"(.+?) \((at .+)\)", text)
    if found is None:
        return text
    return f"{found.group(1)[:1].lower()}{found.group(1)[1:]} {found.group(2)}"


def read_config_file(path: Path | None) -> dict[str, object]:
    if path is None or not path.exists():
        return {}
    # Each message names the whole path: the default file sits in a data folder the user may not know.
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path} is not UTF-8 text; save it as UTF-8") from exc
    except OSError as exc:
        raise ConfigError(
            f"config file {path} cannot be read ({exc.strerror or exc}); check that it is a readable file"
        ) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"config file {path} is not valid TOML: {_toml_problem(exc)}; fix it there, or move the file aside"
        ) from exc
    check_keys(data, path, CONFIG_KEYS)
    return data


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

    raw_data, data_src = _pick("data_dir", flags, environ, file)
    root = Path(str(raw_data)).expanduser().resolve() if raw_data is not None else data_root or default_data_root()
    data_dir = vault_data_dir(root, vault)
    check_data_dir(data_dir, data_src if raw_data is not None else "the default data folder")
    if data_dir == vault or vault in data_dir.parents:
        raise ConfigError("--data-dir / ASKVAULT_DATA_DIR: the index must live outside the vault")

    raw_url, url_src = _pick("ollama_url", flags, environ, file)
    ollama_url = ollama_base_url(str(raw_url), url_src) if raw_url is not None else DEFAULT_OLLAMA_URL
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
    raw_seeds, seeds_src = _pick("redact_seed_phrases", flags, environ, file)
    raw_origins, origins_src = _pick("origins", flags, environ, file)
    origins = string_list(raw_origins, origins_src) if raw_origins is not None else ()
    for origin in origins:
        if origin == "*" or not re.match(r"^[a-z][a-z0-9+.-]*://[^/\s]+$", origin):
            raise ConfigError(f"{origins_src}: {origin!r} is not an exact origin (scheme://host[:port])")

    raw_sources, sources_src = _pick("sources", flags, environ, file)
    sources = load_sources(raw_sources, sources_src, vault, data_dir) if raw_sources is not None else ()

    return Config(
        vault=_documents(
            flags,
            environ,
            file,
            VaultConfig(
                root=vault,
                exclude_globs=string_list(raw_excl, excl_src) if raw_excl is not None else (),
                include_globs=string_list(raw_incl, incl_src) if raw_incl is not None else (),
                exclude_headings=string_list(raw_headings, headings_src) if raw_headings is not None else (),
                redact_seed_phrases=boolean(raw_seeds, seeds_src) if raw_seeds is not None else True,
                sources=sources,
            ),
        ),
        store=StoreConfig(data_dir=data_dir, qdrant_url=str(qdrant_url).rstrip("/") if qdrant_url else None),
        ollama=OllamaConfig(
            url=ollama_url,
            embed_model=str(embed_model).strip() if embed_model and str(embed_model).strip() else None,
            chat_model=str(chat_model) if chat_model else DEFAULT_CHAT_MODEL,
        ),
        builtin_embed=BuiltinEmbedParams(models_dir=root / "models"),
        retrieval=_retrieval(flags, environ, file),
        server=ServerConfig(
            host=str(raw_host) if raw_host else "127.0.0.1",
            port=port,
            port_fallback=raw_port is None,
            remote=_remote(flags, environ, file),
            in_container=_in_container(flags, environ, file),
            extra_origins=origins,
        ),
    )
