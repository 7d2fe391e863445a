"""`askvault serve`: the engine, the API, the watcher and the model monitor, started and stopped in order."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass

from askvault import __version__
from askvault.api.app import create_app
from askvault.api.discovery import remove_discovery, write_discovery
from askvault.api.server import check_bind_host, serve
from askvault.api.services import ApiServices
from askvault.api.token import load_or_create_token
from askvault.config import Config
from askvault.index.report import IndexReport, Progress
from askvault.index.source_watch import Watchers
from askvault.wiring import Engine, open_engine
from askvault.wiring.control import EngineControl
from askvault.wiring.explain import engine_explainer
from askvault.wiring.models import ModelMonitor
from askvault.wiring.remote import remote_serving_site, remove_serving, write_serving

log = logging.getLogger("askvault")


@dataclass(frozen=True, slots=True)
class Started:
    """What `serve` prints once it listens."""

    url: str
    port: int
    engine: Engine
    models: dict[str, object]
    taken_port: int | None = None
    """The default port, when another program held it and `port` is a free one chosen instead."""
    remote_url: str | None = None
    fingerprint: str | None = None
    """Remote mode's https URL and its certificate's SHA-256 fingerprint; None when remote mode is off."""


@dataclass(frozen=True, slots=True)
class Indexed:
    """How the start-up run ended, for `serve`'s one "index ready" line."""

    notes: int
    chunks: int
    """What the sidecar serves now (after the run, or the last good index when the run changed nothing)."""
    report: IndexReport | None
    """The run's report; None when it failed before making one."""
    refused: str | None
    """Why the run changed nothing (a vault that looks unmounted, an unexpected failure); None when it ran."""
    seconds: float


async def run_sidecar(
    config: Config,
    on_started: Callable[[Started], None] | None = None,
    stop: asyncio.Event | None = None,
    *,
    reconcile_every_s: float = 300.0,
    model_poll_s: float = 30.0,
    on_progress: Callable[[Progress], None] | None = None,
    on_indexed: Callable[[Indexed], None] | None = None,
) -> None:
    """Serves until `stop` is set or SIGINT/SIGTERM arrives.

    The last good index answers at once; the start-up reconcile (notes changed while we were down) runs in
    the background, then the watcher keeps the index fresh. `on_progress` sees that run's progress and
    `on_indexed` its outcome, both only after `on_started` (the banner comes first).
    """
    check_bind_host(config.server)
    token = load_or_create_token(config.store.data_dir, config.vault.root)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        async with open_engine(config, sync_vectors=False) as engine:
            control: EngineControl | None = None

            async def embed_model_appeared() -> None:
                # The model was pulled while we ran: add vectors to the chunks we have, no re-chunking.
                if control is not None and engine.dense.state != "ready":
                    await control.start_reindex(False)

            ollama_embed = engine.embedder.model if engine.embedder_choice.spec.backend == "ollama" else None
            monitor = ModelMonitor(
                config.ollama,
                on_embed_available=embed_model_appeared,
                interval_s=model_poll_s,
                embed_model=ollama_embed,
                builtin_label=engine.embedder.label,
            )
            control = EngineControl(engine, monitor)
            services = ApiServices(
                searcher=engine.searcher,
                answerer=engine.pipeline,
                index=control,
                related=engine.related,
                explainer=engine_explainer(engine),
                search_relevance=engine.search_relevance,
            )
            app = create_app(services, config.server, token, config.server.port)
            site, access = remote_serving_site(config, services, app) if config.server.remote else (None, None)
            watcher = Watchers(config.vault, engine.indexer, reconcile_every_s, reconcile_on_start=False)
            async with serve(app, config.server, site) as listening:
                write_discovery(config.store.data_dir, config.server.host, listening.port, os.getpid(), __version__)
                if access is not None:
                    write_serving(config, access.fingerprint)
                first_run: asyncio.Task[None] | None = None
                try:
                    await monitor.start()
                    run_started = loop.time()
                    await control.start_reindex(False)
                    await watcher.start()
                    if on_started is not None:
                        on_started(
                            Started(
                                url=f"http://{_url_host(config.server.host)}:{listening.port}",
                                port=listening.port,
                                engine=engine,
                                models=dict(monitor.snapshot()),
                                taken_port=listening.taken_port,
                                remote_url=f"https://{config.server.remote.address}" if config.server.remote else None,
                                fingerprint=access.fingerprint if access else None,
                            )
                        )
                    if on_progress is not None or on_indexed is not None:
                        first_run = asyncio.create_task(
                            _follow_first_run(engine, control, run_started, on_progress, on_indexed)
                        )
                    await stop.wait()
                finally:
                    log.info("stopping")
                    if first_run is not None:
                        first_run.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await first_run
                    await watcher.stop()
                    await monitor.stop()
                    await control.cancel()
                    # A cancelled run may still have a worker thread writing; the manifest closes after it.
                    await engine.indexer.drain()
                    remove_discovery(config.store.data_dir, os.getpid())
                    if access is not None:
                        access.devices.flush()
                        remove_serving(config)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)


async def _follow_first_run(
    engine: Engine,
    control: EngineControl,
    started: float,
    on_progress: Callable[[Progress], None] | None,
    on_indexed: Callable[[Indexed], None] | None,
) -> None:
    """Forwards the start-up run's progress until it ends, then reports how it ended."""
    indexer = engine.indexer
    report: list[IndexReport | None] = []

    def listen(progress: Progress) -> None:
        if on_progress is not None:
            on_progress(progress)
        if progress.phase == "done" and not report:
            report.append(indexer.last_report)  # this run's, before a watcher batch can replace it

    remove = indexer.add_listener(listen)
    try:
        if indexer.running:
            listen(indexer.progress)  # where the run is now: it started before the banner
        await control.wait()
    finally:
        remove()
    if on_indexed is not None:
        refused = control.run_error
        on_indexed(
            Indexed(
                notes=engine.catalog.note_count(),
                chunks=len(engine.catalog),
                report=(report[0] if report else indexer.last_report) if refused is None else None,
                refused=refused.reason if refused is not None else None,
                seconds=asyncio.get_running_loop().time() - started,
            )
        )


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
