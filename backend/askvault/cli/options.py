"""Options every subcommand shares, the one place the configuration is built, and exit codes."""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import ParamSpec, TypeVar

import click

from askvault.cli.fs_errors import DATA_ROOT, os_error
from askvault.cli.option_groups import shared_options as shared_options  # every group: serve, mcp, eval
from askvault.config import Config, default_data_root, load_config, read_config_file
from askvault.errors import AskVaultError, ConfigError, IndexLocked, NotIndexed, VaultLooksEmpty

P = ParamSpec("P")
R = TypeVar("R")

EXIT_ERROR = 1
EXIT_CONFIG = 2
EXIT_LOCKED = 3
EXIT_VAULT_EMPTY = 4
EXIT_NOTES_FAILED = 5
"""`index` finished, but some notes could not be indexed (each is named in the summary)."""
EXIT_DENSE_OFF = 6
"""`index` finished for keyword search only: dense search is off (the summary says why and how to fix it)."""
EXIT_NOT_INDEXED = 7
"""`search`, `ask`, `related` or `token` found no index for the vault: nothing was indexed there yet."""

EXIT_CODES = (
    (0, "success"),
    (EXIT_ERROR, "an error (the message says which and how to fix it)"),
    (EXIT_CONFIG, "a flag, variable or config file value is wrong"),
    (EXIT_LOCKED, "another askvault process (a sidecar, an index run) holds the index"),
    (EXIT_VAULT_EMPTY, "index refused: the vault looks empty or unmounted while its index is full"),
    (EXIT_NOTES_FAILED, "index done, but some notes failed (listed in the summary)"),
    (EXIT_DENSE_OFF, "index done for keyword search only: dense search is off (also when notes failed)"),
    (EXIT_NOT_INDEXED, "nothing is indexed for the vault yet: run `askvault index` first"),
    (130, "interrupted (Ctrl-C)"),
)
"""Every exit code the CLI uses; docs/cli.md lists the same (a test keeps them equal)."""


def exit_codes_epilog() -> str:
    """The "Exit codes" block of a command's --help (`\b` keeps click from rewrapping it into one paragraph)."""
    return "\b\nExit codes:\n" + "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_CODES)


def build_config(params: dict[str, object], *, require_vault: bool = True) -> Config:
    """Flags win over environment, environment over the config file."""
    config_path = params.get("config_file")
    if config_path is not None and not Path(str(config_path)).is_file():
        raise ConfigError(f"--config: {config_path} does not exist")
    file = read_config_file(Path(str(config_path)) if config_path else default_data_root() / "config.toml")
    flags = {key: params.get(key) for key in params if key != "config_file"}
    config = load_config(flags, os.environ, file, require_vault=require_vault)
    DATA_ROOT.set(config.store.data_dir.parents[1])  # <root>/vaults/<vault>: failures under it are the data folder's
    return config


def exit_code(exc: AskVaultError) -> int:
    if isinstance(exc, IndexLocked):
        return EXIT_LOCKED
    if isinstance(exc, VaultLooksEmpty):
        return EXIT_VAULT_EMPTY
    if isinstance(exc, NotIndexed):
        return EXIT_NOT_INDEXED
    if isinstance(exc, ConfigError):
        return EXIT_CONFIG
    return EXIT_ERROR


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Expected failures print one readable line and exit with their code: no tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        outer_root = DATA_ROOT.set(None)  # no earlier command's data folder (tests run many in one thread)
        try:
            return func(*args, **kwargs)
        except AskVaultError as exc:
            click.echo(f"askvault: {exc.message}", err=True)
            sys.exit(exit_code(exc))
        except OSError as exc:
            # A folder or file we could not create or write (most often the data folder): a sentence, not a trace.
            error = os_error(exc)
            if error is None:
                raise
            click.echo(f"askvault: {error.message}", err=True)
            sys.exit(exit_code(error))
        except KeyboardInterrupt:
            click.echo("askvault: interrupted", err=True)
            sys.exit(130)
        finally:
            DATA_ROOT.reset(outer_root)

    return wrapper


THIRD_PARTY_LOGGERS = (
    "asyncio",
    "fastembed",
    "filelock",
    "httpcore",
    "httpx",
    "huggingface_hub",
    "markdown_it",
    "mcp",
    "onnxruntime",
    "qdrant_client",
    "urllib3",
    "watchdog",
)
"""Kept at WARNING even with -v: httpcore alone dumps every byte sent to Ollama at DEBUG, and httpx logs each
request URL at INFO. -v is for what Ask Vault does; other libraries' warnings still show."""

REPORTED_LOGGERS: Mapping[str, str] = {
    "askvault.index": "",
    "askvault.index.indexer": "dense search off",
    "askvault.index.dense_sync": "dense search off",
}
"""Logger → the start of the messages (format strings) the command's own output says already: each note's problem
(`askvault.index`) and dense search being off are in `index`'s summary and the reading commands' "Keyword search
only" line. Those commands pass this as `reported`, so each is said once; other warnings of these loggers stay."""


class _Unreported(logging.Filter):
    """Drops the `reported` messages below ERROR (the logger's exact name and the start of its format string)."""

    def __init__(self, reported: Mapping[str, str]) -> None:
        super().__init__()
        self._reported = dict(reported)

    def filter(self, record: logging.LogRecord) -> bool:
        prefix = self._reported.get(record.name)
        return prefix is None or record.levelno >= logging.ERROR or not str(record.msg).startswith(prefix)


def setup_logging(verbose: bool, default: int = logging.WARNING, *, reported: Mapping[str, str] | None = None) -> None:
    """Logs to stderr: Ask Vault's loggers at `default` (DEBUG with -v), third parties' at WARNING at least, and the
    `reported` loggers' warnings only with -v (the command's own output says them)."""
    root = logging.getLogger()
    if root.handlers:
        return  # logging is configured already (a host such as pytest): its levels stay its own
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    if reported and not verbose:
        handler.addFilter(_Unreported(reported))
    root.addHandler(handler)
    root.setLevel(default)
    if verbose:
        logging.getLogger("askvault").setLevel(logging.DEBUG)
    for name in THIRD_PARTY_LOGGERS:
        logging.getLogger(name).setLevel(max(default, logging.WARNING))
