"""The sidecar's view of the engine: status, background reindex runs, live events, chunk lookups."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping

from askvault.errors import AskVaultError
from askvault.index.eta import RateMeter
from askvault.index.report import Problem, Progress
from askvault.model import Chunk
from askvault.store.protocol import GraphIndexed
from askvault.wiring import Engine
from askvault.wiring.models import ModelMonitor

log = logging.getLogger(__name__)

MAX_FAILURES_SHOWN = 50
VAULT_PATH = "(vault)"
"""The path of a problem with the whole vault (a refused run) rather than with one note."""
SUBSCRIBER_QUEUE = 256


class EngineControl:
    """Implements `askvault.api.services.IndexControl` for a running engine."""

    def __init__(self, engine: Engine, models: ModelMonitor) -> None:
        self._engine = engine
        self._models = models
        self._task: asyncio.Task[None] | None = None
        self._subscribers: set[asyncio.Queue[Mapping[str, object]]] = set()
        self._run_error: Problem | None = None
        self._meter = RateMeter()
        engine.indexer.add_listener(self._on_progress)
        models.add_listener(self._on_models)

    # ----- IndexControl -----------------------------------------------------------------------
    def status(self) -> Mapping[str, object]:
        engine = self._engine
        report = engine.indexer.last_report
        progress = engine.indexer.progress
        # Vault-wide problems (a refused run or watcher batch) come from the last run; each note's from the
        # indexer's current problems, which outlive the run or batch that found them until the note is fixed.
        vault = [] if report is None else [p for p in report.failed if p.path == VAULT_PATH]
        if self._run_error is not None and self._run_error not in vault:  # a refused run reports it too
            vault.insert(0, self._run_error)
        failures = [{"path": p.path, "reason": p.reason, "kind": "failed"} for p in vault]
        failures.extend(problem.to_json() for problem in engine.indexer.problems.current())
        last_run: dict[str, object] | None = None
        if report is not None:
            last_run = {
                "finished_at": report.finished_at,
                "indexed": report.indexed,
                "unchanged": report.unchanged,
                "skipped": len(report.skipped),
                "failed": len(report.failed),
                "seconds": report.seconds,
                "template_lines": report.template_lines,
                "template_floor": report.template_floor,
            }
        indexing = engine.indexer.running
        notes = engine.catalog.note_count()  # walks every chunk: count once per status
        return {
            "vault": {
                "name": engine.config.vault.root.name,
                "notes": notes,
                "chunks": len(engine.catalog),
                "sources": self._sources(),
            },
            "index": {
                "state": "indexing" if indexing else "idle",
                "done": progress.done if indexing else notes,
                "total": progress.total if indexing else notes,
                "last_run": last_run,
                "failures": failures[:MAX_FAILURES_SHOWN],
                "dense": engine.dense.state,
                **self._big_vault_parts(indexing),
                "redactions": engine.indexer.redactions.summary(),
            },
            "models": self._model_states(),
            "embedder": self.embedder_status(),
            "store": engine.store_kind,
        }

    def _sources(self) -> list[dict[str, object]]:
        """The folders beside the vault: label, folder and notes indexed from it (the plugin opens their files)."""
        sources = self._engine.config.vault.sources
        if not sources:
            return []
        paths = self._engine.catalog.by_note()
        return [
            {"label": s.label, "path": str(s.root), "notes": sum(1 for p in paths if p.startswith(s.prefix))}
            for s in sources
        ]

    def embedder_status(self) -> dict[str, object]:
        """Which embedder dense search uses, why that one, and (when it is off) the sentence that fixes it."""
        engine = self._engine
        choice = engine.embedder_choice
        dense = engine.dense
        return {
            "backend": choice.spec.backend,
            "model": choice.spec.model,
            "label": engine.embedder.label,
            "source": choice.source,
            "state": dense.state,
            "problem": dense.problem,
            "replaces": choice.replaces.spec.label if choice.replaces is not None else None,
        }

    def _model_states(self) -> dict[str, object]:
        """Ollama's models as the monitor sees them; the built-in embedder's entry from its own state."""
        models = dict(self._models.snapshot())
        if self._engine.embedder_choice.spec.backend == "builtin":
            problem = self._engine.dense.problem
            models["embed"] = {"name": self._engine.embedder.label, "ok": problem is None, "problem": problem}
        return models

    def _big_vault_parts(self, indexing: bool) -> dict[str, object]:
        """`progress` (the current phase's rate and time left, while indexing), `dense_coverage` (share of the
        chunks dense search can find) and `dense_graph` (whether dense search walks an HNSW graph)."""
        dense = self._engine.dense
        store = dense.store
        return {
            "progress": self._meter.estimate().to_json() if indexing else None,
            "dense_coverage": round(dense.coverage, 4) if dense.usable else 0.0,
            "dense_graph": store.graph_state if isinstance(store, GraphIndexed) else "none",
        }

    async def start_reindex(self, full: bool) -> bool:
        if self.busy:
            return False
        self._task = asyncio.create_task(self._run(full), name="askvault-reindex")
        return True

    @property
    def run_error(self) -> Problem | None:
        """Why the last run changed nothing (refused or failed); None when it ran."""
        return self._run_error

    @property
    def busy(self) -> bool:
        return self._engine.indexer.running or (self._task is not None and not self._task.done())

    async def subscribe(self) -> AsyncIterator[Mapping[str, object]]:
        queue: asyncio.Queue[Mapping[str, object]] = asyncio.Queue(SUBSCRIBER_QUEUE)
        self._subscribers.add(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._subscribers.discard(queue)

    async def get_chunk(self, chunk_id: str) -> Chunk | None:
        catalog = self._engine.catalog
        info = catalog.get(chunk_id)
        chunk = catalog.with_text([info]).get(chunk_id) if info is not None else None
        # A chunk of a note excluded since it was indexed is as absent as one that never existed.
        return chunk if chunk is not None and self._engine.guard.visible(chunk) else None

    # ----- internals --------------------------------------------------------------------------
    async def _run(self, full: bool) -> None:
        try:
            await self._engine.indexer.run(full=full)
            self._run_error = None
        except AskVaultError as exc:
            # e.g. VaultLooksEmpty: the index is kept, and the status says why.
            self._run_error = Problem("(vault)", exc.message)
            log.warning("index run refused: %s", exc.message)
        except Exception:
            self._run_error = Problem("(vault)", "the index run failed unexpectedly; see the sidecar log")
            log.exception("index run failed")
        self._on_models(self._models.snapshot())

    async def wait(self) -> None:
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await self.wait()

    def _publish(self, event: Mapping[str, object]) -> None:
        for queue in list(self._subscribers):
            if queue.full():
                # A slow reader loses intermediate progress, never the latest state.
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(event)

    def _on_progress(self, progress: Progress) -> None:
        self._meter.update(progress)
        indexing = progress.phase != "done"
        self._publish(
            {
                "type": "index",
                "state": "indexing" if indexing else "idle",
                "phase": progress.phase,
                "done": progress.done,
                "total": progress.total,
            }
        )

    def _on_models(self, models: Mapping[str, object]) -> None:
        self._publish({"type": "models", "models": self._model_states(), "dense": self._engine.dense.state})
