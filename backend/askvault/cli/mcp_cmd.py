"""`askvault mcp`: the vault for AI agents over the Model Context Protocol (stdio), beside or without a sidecar."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
from typing import TYPE_CHECKING, NoReturn

import click

from askvault.api.discovery import find_compatible
from askvault.api.token import load_or_create_token
from askvault.cli.options import build_config, handles_errors, setup_logging, shared_options
from askvault.config import Config
from askvault.errors import IndexLocked

if TYPE_CHECKING:
    from askvault.mcp.backends import SidecarAddress

log = logging.getLogger("askvault.mcp")

SIDECAR_WAIT_S = 10.0
"""How long a locked index may stay without a sidecar appearing before we give up (an `askvault index` run)."""


@click.command("mcp")
@shared_options
@click.option("-v", "--verbose", is_flag=True, help="Log more (to stderr; stdout carries the protocol).")
@handles_errors
def mcp_command(verbose: bool, **params: object) -> None:
    """Serve the vault to AI agents over MCP (stdio).

    An MCP server for Claude Desktop, IDEs and other agents, on stdin/stdout.

    Tools: search_vault, ask_vault, get_note_section; all read-only. When a sidecar (`askvault serve`) runs
    for this vault, answers come through it; otherwise this process opens the index itself and keeps it fresh.
    """
    setup_logging(verbose)
    config = build_config(params)
    asyncio.run(_main(config))


async def _main(config: Config) -> None:
    if not await _serve(config):
        # Inside the loop on purpose: closing it would wait for the stuck stdin thread forever.
        _leave_now()


def locate_sidecar(config: Config) -> SidecarAddress | None:
    """The running sidecar for this vault, with its token; None when none runs."""
    from askvault.mcp.backends import SidecarAddress

    found = find_compatible(config.store.data_dir)
    if found is None:
        return None
    host = f"[{found.host}]" if ":" in found.host else found.host
    token = load_or_create_token(config.store.data_dir, config.vault.root)
    return SidecarAddress(url=f"http://{host}:{found.port}", token=token)


async def _serve(config: Config) -> bool:
    """Serves until the client hangs up (True) or a signal stops it with stdin still open (False; see run_stdio)."""
    # Imported here, not at the top: the MCP SDK takes a while to import, and every other command would pay.
    from askvault.mcp.backends import SidecarBackend
    from askvault.mcp.sections import NoteSections
    from askvault.mcp.server import run_stdio
    from askvault.mcp.tools import build_server

    if locate_sidecar(config) is None:
        finished = await _serve_own_index(config)
        if finished is not None:
            return finished
    sections = NoteSections(config.vault)  # no engine here: a policy of its own, the same code and wording
    log.info("serving %s through the running sidecar (read-only)", config.vault.root.name)
    async with SidecarBackend(lambda: locate_sidecar(config)) as backend:
        return await run_stdio(build_server(backend, sections, config.vault.root.name))


async def _serve_own_index(config: Config) -> bool | None:
    """Opens the engine and serves from it; None when it is locked because a sidecar was starting meanwhile."""
    from askvault.index.dense_sync import sync_dense
    from askvault.mcp.backends import LocalBackend
    from askvault.mcp.sections import NoteSections
    from askvault.mcp.server import IndexKeeper, run_stdio
    from askvault.mcp.tools import build_server
    from askvault.wiring import open_engine

    async with contextlib.AsyncExitStack() as stack:
        try:
            engine = await stack.enter_async_context(open_engine(config, sync_vectors=False))
        except IndexLocked:
            # A sidecar starting up takes the lock before it writes its discovery file; give it a moment.
            if await _wait_for_sidecar(config):
                return None
            raise
        name = config.vault.root.name
        log.info("serving %s from its own index (no sidecar running)", name)
        # The engine's own policy: an Excluded files edit its indexer has read is what MCP refuses by, too.
        sections = NoteSections(config.vault, engine.policy)
        server = build_server(LocalBackend(engine.searcher, engine.pipeline), sections, name)
        warm_up = functools.partial(sync_dense, engine.manifest, engine.dense, engine.vectors)
        return await run_stdio(server, IndexKeeper(config.vault, engine.indexer, warm_up=warm_up))


def _leave_now() -> NoReturn:
    """Ends the process although the SDK's stdin thread still blocks; everything of ours is closed by now."""
    logging.shutdown()
    sys.stderr.flush()
    os._exit(0)


async def _wait_for_sidecar(config: Config) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SIDECAR_WAIT_S
    while loop.time() < deadline:
        if locate_sidecar(config) is not None:
            return True
        await asyncio.sleep(0.2)
    return False
