"""The configuration flags in groups, so each command offers (and its --help lists) only the ones it reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import click

P = ParamSpec("P")
R = TypeVar("R")

Decorator = Callable[[Callable[..., object]], Callable[..., object]]
OptionGroup = tuple[Decorator, ...]

LOCATION: OptionGroup = (
    click.option("--vault", type=click.Path(path_type=Path), help="The vault folder [env ASKVAULT_VAULT]."),
    click.option(
        "--data-dir",
        type=click.Path(path_type=Path),
        help="Where indexes live (one folder per vault, never inside it) [env ASKVAULT_DATA_DIR].",
    ),
    click.option(
        "--source",
        "sources",
        multiple=True,
        metavar="LABEL=PATH",
        help="A folder beside the vault to search with it, its hits marked LABEL (repeatable) [env ASKVAULT_SOURCES].",
    ),
)
"""Which vault (and folders beside it) and where its index lives: every command that reads the configuration."""

ENGINE: OptionGroup = (
    click.option("--ollama-url", help="Ollama's URL [env OLLAMA_HOST; default http://127.0.0.1:11434]."),
    click.option(
        "--embed-model",
        help="`builtin` (all-MiniLM-L6-v2, in process) or an Ollama embedding model [env ASKVAULT_EMBED_MODEL; "
        "default: the one the index was built with, else builtin].",
    ),
    click.option("--qdrant-url", help="A Qdrant server; unset = the embedded engine [env QDRANT_URL]."),
)
"""The embedder and the vector store: every command that opens the index."""

FILTERS: OptionGroup = (
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
)
"""What is kept out: applied when indexing, and again to every result read back (a newly excluded note is never
shown), so the reading commands take them too."""

INDEXING: OptionGroup = (
    click.option(
        "--redact-seed-phrases/--no-redact-seed-phrases",
        default=None,
        help="Redact BIP-39 seed phrases before indexing [env ASKVAULT_REDACT_SEED_PHRASES; default on].",
    ),
    click.option(
        "--pdfs/--no-pdfs",
        default=None,
        help="Index the vault's PDFs, page by page [env ASKVAULT_PDFS; default on].",
    ),
    click.option(
        "--canvases/--no-canvases",
        default=None,
        help="Index the vault's canvases by their cards [env ASKVAULT_CANVASES; default on].",
    ),
    click.option(
        "--pdf-max-pages",
        type=int,
        help="Pages of one PDF that are indexed [env ASKVAULT_PDF_MAX_PAGES; default 1000].",
    ),
    click.option(
        "--pdf-max-seconds",
        type=float,
        help="Seconds reading one PDF may take [env ASKVAULT_PDF_MAX_SECONDS; default 120].",
    ),
    click.option(
        "--pdf-max-memory-mb",
        type=int,
        help="Memory (MB) the process reading a PDF may use [env ASKVAULT_PDF_MAX_MEMORY_MB; default 1024].",
    ),
    click.option("--max-pdf-mb", type=int, help="Larger PDFs (MB) are skipped [env ASKVAULT_MAX_PDF_MB; default 256]."),
)
"""Only what writes the index reads these: index, serve, mcp and eval."""

QUERY: OptionGroup = (
    click.option(
        "--query-dates/--no-query-dates",
        default=None,
        help="Narrow retrieval to the notes of a date phrase in the question, e.g. 'last week' "
        "[env ASKVAULT_QUERY_DATES; default on].",
    ),
)
"""How a question is read: every command that runs a search."""

ANSWER: OptionGroup = (click.option("--chat-model", help="Chat model [env ASKVAULT_CHAT_MODEL; default llama3.2:3b]."),)
"""The model that writes answers (and reranks, unless --rerank-model names another)."""

RERANK: OptionGroup = (
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
)
"""Reranking happens in the answer pipeline only (ask, explain, serve, mcp, eval), never in a plain search."""

CONFIG_FILE: Decorator = click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path),
    help="A TOML config file [default <data root>/config.toml].",
)

_ORDER = (LOCATION, ENGINE, ANSWER, FILTERS, INDEXING, RERANK, QUERY)
"""The order --help lists the groups in, whichever a command takes; --config comes last."""


def option_groups(*groups: OptionGroup) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator adding these groups' flags (and --config) to a command, in the order --help lists them."""
    chosen = [option for group in _ORDER if any(group is g for g in groups) for option in group]
    chosen.append(CONFIG_FILE)

    def apply(func: Callable[P, R]) -> Callable[P, R]:
        for option in reversed(chosen):
            option(func)  # click records the flag on the function itself (and hands the same function back)
        return func

    return apply


REMOTE: OptionGroup = (
    click.option(
        "--remote",
        metavar="ADDRESS:PORT",
        help="Also serve paired devices over TLS on this address, e.g. a LAN or Tailscale one (docs/remote.md) "
        "[env ASKVAULT_REMOTE].",
    ),
    click.option(
        "--remote-name",
        "remote_names",
        multiple=True,
        metavar="NAME",
        help="A DNS name devices use to reach it, e.g. a Tailscale MagicDNS name (repeatable) "
        "[env ASKVAULT_REMOTE_NAMES].",
    ),
    click.option(
        "--remote-cert",
        type=click.Path(path_type=Path),
        help="Your own TLS certificate (PEM, e.g. from `tailscale cert`) instead of the self-signed one "
        "[env ASKVAULT_REMOTE_CERT].",
    ),
    click.option(
        "--remote-key", type=click.Path(path_type=Path), help="The key of --remote-cert [env ASKVAULT_REMOTE_KEY]."
    ),
)
"""Remote mode: serve (which listens) and pair (which puts the address and fingerprint into the pairing link)."""


def remote_options(func: Callable[P, R]) -> Callable[P, R]:
    """Adds the REMOTE flags (after whatever groups the command already has)."""
    for option in reversed(REMOTE):
        option(func)
    return func


location_options = option_groups(LOCATION)
"""token: the vault and its data folder only."""
index_options = option_groups(LOCATION, ENGINE, FILTERS, INDEXING)
search_options = option_groups(LOCATION, ENGINE, FILTERS, QUERY)
related_options = option_groups(LOCATION, ENGINE, FILTERS)
answer_options = option_groups(LOCATION, ENGINE, FILTERS, QUERY, ANSWER, RERANK)
"""ask and explain: the answer pipeline, without the indexing-only flags."""
shared_options = option_groups(*_ORDER)
"""serve, mcp and eval: they index, search and answer, so they take every group."""
