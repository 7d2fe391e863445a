"""Options every subcommand shares, the one place the configuration is built, and exit codes."""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import click

from askvault.config import Config, default_data_root, load_config, read_config_file
from askvault.errors import AskVaultError, ConfigError, IndexLocked, VaultLooksEmpty

P = ParamSpec("P")
R = TypeVar("R")

EXIT_ERROR = 1
EXIT_CONFIG = 2
EXIT_LOCKED = 3
EXIT_VAULT_EMPTY = 4

_SHARED = (
    "vault",
    "data_dir",
    "ollama_url",
    "embed_model",
    "chat_model",
    "qdrant_url",
    "config_file",
    "exclude",
    "include",
    "exclude_headings",
    "redact_seed_phrases",
    "rerank",
    "rerank_model",
    "rerank_candidates",
    "rerank_excerpt_chars",
    "rerank_timeout_s",
    "query_dates",
)


def shared_options(func: Callable[P, R]) -> Callable[P, R]:
    """--vault, --data-dir, --ollama-url, --embed-model, --chat-model, --qdrant-url, --exclude, --include,
    --exclude-heading, --redact-seed-phrases/--no-redact-seed-phrases, --rerank/--no-rerank and its settings,
    --query-dates/--no-query-dates, --config."""
    decorators = [
        click.option("--vault", type=click.Path(path_type=Path), help="The vault folder [env ASKVAULT_VAULT]."),
        click.option(
            "--data-dir",
            type=click.Path(path_type=Path),
            help="Where indexes live (one folder per vault, never inside it) [env ASKVAULT_DATA_DIR].",
        ),
        click.option("--ollama-url", help="Ollama's URL [env OLLAMA_HOST; default http://127.0.0.1:11434]."),
        click.option(
            "--embed-model",
            help="`builtin` (all-MiniLM-L6-v2, in process) or an Ollama embedding model [env ASKVAULT_EMBED_MODEL; "
            "default: the one the index was built with, else builtin].",
        ),
        click.option("--chat-model", help="Chat model [env ASKVAULT_CHAT_MODEL; default llama3.2:3b]."),
        click.option("--qdrant-url", help="A Qdrant server; unset = the embedded engine [env QDRANT_URL]."),
        click.option(
            "--exclude",
            multiple=True,
            help="Gitignore-style pattern kept out of the index (repeatable) [env ASKVAULT_EXCLUDE].",
        ),
        click.option(
            "--include",
            multiple=True,
            help="Index only notes matching this gitignore-style pattern (repeatable) [env ASKVAULT_INCLUDE].",
        ),
        click.option(
            "--exclude-heading",
            "exclude_headings",
            multiple=True,
            help="Leave out sections under this heading, any case (repeatable) [env ASKVAULT_EXCLUDE_HEADINGS].",
        ),
        click.option(
            "--redact-seed-phrases/--no-redact-seed-phrases",
            default=None,
            help="Redact BIP-39 seed phrases before indexing [env ASKVAULT_REDACT_SEED_PHRASES; default on].",
        ),
        click.option(
            "--rerank/--no-rerank",
            default=None,
            help="Let a chat model reorder the top fused chunks before answering [env ASKVAULT_RERANK; default off].",
        ),
        click.option("--rerank-model", help="Reranking model [env ASKVAULT_RERANK_MODEL; default the chat model]."),
        click.option(
            "--rerank-candidates",
            type=int,
            help="How many top fused chunks the reranker orders [env ASKVAULT_RERANK_CANDIDATES; default 12].",
        ),
        click.option(
            "--rerank-excerpt-chars",
            type=int,
            help="Characters of each chunk the reranker sees [env ASKVAULT_RERANK_EXCERPT_CHARS; default 600].",
        ),
        click.option(
            "--rerank-timeout",
            "rerank_timeout_s",
            type=float,
            help="Seconds before the fused order is kept [env ASKVAULT_RERANK_TIMEOUT; default 20].",
        ),
        click.option(
            "--query-dates/--no-query-dates",
            default=None,
            help="Narrow retrieval to the notes of a date phrase in the question, e.g. 'last week' "
            "[env ASKVAULT_QUERY_DATES; default on].",
        ),
        click.option(
            "--config",
            "config_file",
            type=click.Path(path_type=Path),
            help="A TOML config file [default <data root>/config.toml].",
        ),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def build_config(params: dict[str, object], *, require_vault: bool = True) -> Config:
    """Flags win over environment, environment over the config file."""
    config_path = params.get("config_file")
    if config_path is not None and not Path(str(config_path)).is_file():
        raise ConfigError(f"--config: {config_path} does not exist")
    file = read_config_file(Path(str(config_path)) if config_path else default_data_root() / "config.toml")
    flags = {key: params.get(key) for key in params if key != "config_file"}
    return load_config(flags, os.environ, file, require_vault=require_vault)


def exit_code(exc: AskVaultError) -> int:
    if isinstance(exc, IndexLocked):
        return EXIT_LOCKED
    if isinstance(exc, VaultLooksEmpty):
        return EXIT_VAULT_EMPTY
    if isinstance(exc, ConfigError):
        return EXIT_CONFIG
    return EXIT_ERROR


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Expected failures print one readable line and exit with their code: no tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except AskVaultError as exc:
            click.echo(f"askvault: {exc.message}", err=True)
            sys.exit(exit_code(exc))
        except KeyboardInterrupt:
            click.echo("askvault: interrupted", err=True)
            sys.exit(130)

    return wrapper


def setup_logging(verbose: bool, default: int = logging.WARNING) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else default,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # httpx logs every request URL at INFO; the sidecar's log should speak about the vault instead.
    logging.getLogger("httpx").setLevel(logging.WARNING)
