"""`askvault serve`: the sidecar the Obsidian plugin talks to."""

from __future__ import annotations

import asyncio
import logging
import shlex
from collections.abc import Mapping

import click

from askvault.cli.hints import data_root, suggest
from askvault.cli.option_groups import remote_options
from askvault.cli.options import build_config, handles_errors, setup_logging, shared_options
from askvault.cli.serve_progress import StartupProgress
from askvault.config import DEFAULT_PORT
from askvault.wiring.sidecar import Started, run_sidecar


def _retired_allow_remote(_ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        raise click.UsageError(
            "--allow-remote is gone: it sent the token across the network in clear text; use --remote ADDRESS:PORT, "
            "which serves other devices over TLS and pairs each one (docs/remote.md)"
        )


@click.command()
@shared_options
@click.option("--host", help="Address to listen on [env ASKVAULT_HOST; default 127.0.0.1].")
@click.option(
    "--port",
    type=int,
    help=f"Port to listen on; 0 picks a free one [env ASKVAULT_PORT; default {DEFAULT_PORT}, or a free one when "
    "another program holds it].",
)
@remote_options
@click.option(
    "--in-container",
    is_flag=True,
    default=None,
    help="Let --host name the container's own interface (a container whose published port is bound to the host's "
    "loopback, as docker-compose.yml does) [env ASKVAULT_IN_CONTAINER].",
)
@click.option("--allow-remote", is_flag=True, hidden=True, callback=_retired_allow_remote, expose_value=False)
@click.option(
    "--allow-origin", "origins", multiple=True, help="Another exact Origin to allow besides app://obsidian.md."
)
@click.option("-v", "--verbose", is_flag=True)
@handles_errors
def serve(verbose: bool, **params: object) -> None:
    """Serve the vault to the Obsidian plugin.

    On localhost; with --remote also to paired phones and computers, over TLS (docs/remote.md).

    The sidecar keeps the index fresh while it runs (a watcher, and a sweep of the vault at start-up).
    """
    setup_logging(verbose, default=logging.INFO)
    config = build_config(params)
    shown = StartupProgress()
    try:
        asyncio.run(run_sidecar(config, on_started=print_banner, on_progress=shown.progress, on_indexed=shown.indexed))
    finally:
        shown.close()


def _problem(models: Mapping[str, object], role: str) -> str | None:
    entry = models.get(role)
    if isinstance(entry, Mapping):
        problem = entry.get("problem")
        return str(problem) if problem else None
    return None


def print_banner(started: Started) -> None:
    config = started.engine.config
    vault = config.vault.root
    # The plugin and `askvault token` look in the default data folder unless told otherwise.
    root = data_root(config)
    finds = "it finds" if root is None else f'with its "Data folder" setting at {root} it finds'
    lines = [
        f"Ask Vault is serving {vault.name} on {started.url}",
        f"  index: {len(started.engine.catalog)} chunks ready, reconciling with the vault in the background; "
        f"vectors: {started.engine.store_kind}",
        f"  plugin: install it with `{shlex.join(['askvault', 'install-plugin', '--vault', str(vault)])}`; "
        f"{finds} this sidecar by itself (or paste the token from `{suggest('token', config)}`).",
    ]
    if started.remote_url is not None:
        lines.insert(
            1,
            f"  remote: {started.remote_url} for paired devices (TLS; certificate SHA-256 {started.fingerprint}); "
            f"pair one with `{suggest('pair', config)}`",
        )
    if started.taken_port is not None:
        lines.insert(
            1,
            f"  port: {started.taken_port} is taken by another program, so this sidecar listens on {started.port}; "
            "the plugin finds it by itself (pass --port to insist on one).",
        )
    engine = started.engine
    builtin = engine.embedder_choice.spec.backend == "builtin"
    lines.append(f"  {engine.embedder_choice.describe()}")
    embed_problem = _problem(started.models, "embed")
    chat_problem = _problem(started.models, "chat")
    if embed_problem:
        lines.append(f"    dense search off: {embed_problem}. Keyword search works meanwhile.")
    if chat_problem is None:
        lines.append(f"  answers: {config.ollama.chat_model} at {config.ollama.url} ready")
    else:
        lines.append(f"  answers off: {chat_problem}. Search works without it.")
    pulls = [m for m, problem in ((engine.embedder.model, embed_problem and not builtin), (config.ollama.chat_model,
             chat_problem)) if problem]  # fmt: skip
    if pulls:
        lines.append(
            "    Install Ollama from https://ollama.com, then "
            + " and ".join(f"`ollama pull {model}`" for model in pulls)
            + "; no restart needed."
        )
    lines.append("  stop with Ctrl-C")
    click.echo("\n".join(lines), err=False)
