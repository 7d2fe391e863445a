"""Serving MCP over stdio until the client hangs up or a signal arrives, with the index kept fresh meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Protocol

from mcp.server.mcpserver import MCPServer

from askvault.config import VaultConfig
from askvault.index.indexer import Indexer
from askvault.index.source_watch import Watchers

log = logging.getLogger(__name__)


class Background(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class IndexKeeper:
    """Keeps the engine's index fresh while the server runs: a reconcile at start, then the vault watcher.

    Tools answer from the last good index at once (keyword search at first); `warm_up` (opening the stored
    vectors) brings semantic search back before the reconcile walks the vault, then the watcher keeps up.
    """

    def __init__(
        self,
        vault: VaultConfig,
        indexer: Indexer,
        *,
        warm_up: Callable[[], Awaitable[object]] | None = None,
        reconcile_every_s: float = 300.0,
    ) -> None:
        self._indexer = indexer
        self._warm_up = warm_up
        self._watcher = Watchers(vault, indexer, reconcile_every_s, reconcile_on_start=True)

    async def start(self) -> None:
        if self._warm_up is not None:
            try:
                await self._warm_up()
            except Exception:
                # The reconcile below retries the same; the tools keep answering from keywords meanwhile.
                log.exception("opening the stored vectors failed")
        await self._watcher.start()

    async def stop(self) -> None:
        await self._watcher.stop()
        # A cancelled run may still have a worker thread writing; the stores close only after it.
        await self._indexer.drain()


async def run_stdio(server: MCPServer[object], background: Background | None = None, *, grace_s: float = 1.0) -> bool:
    """Serves until the client closes stdin, or SIGINT/SIGTERM; `background` starts without delaying the handshake.

    While serving, the SDK points file descriptor 1 at stderr, so nothing but the protocol reaches stdout.
    Returns True once the transport has finished. False means a signal arrived while stdin was still open:
    the SDK reads stdin in a worker thread that nothing can interrupt, so the transport never finishes and
    the caller must end the process itself once its own resources are closed (`background` already is).
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    serving = asyncio.create_task(server.run_stdio_async(), name="askvault-mcp")
    stopping = asyncio.create_task(stop.wait(), name="askvault-mcp-stop")
    starting = asyncio.create_task(background.start(), name="askvault-mcp-index") if background else None
    try:
        await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (stopping, starting, serving):
            if task is not None and not task.done():
                task.cancel()
        await asyncio.wait({t for t in (stopping, starting) if t is not None})
        await asyncio.wait({serving}, timeout=grace_s)
        if background is not None:
            await background.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    if starting is not None and not starting.cancelled() and starting.exception() is not None:
        log.error("keeping the index fresh failed to start", exc_info=starting.exception())
    if not serving.done():
        log.info("stopped by a signal while the client still held stdin open")
        return False
    failure = None if serving.cancelled() else serving.exception()
    if failure is not None:
        raise failure
    return True
