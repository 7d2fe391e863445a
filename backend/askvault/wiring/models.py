"""Watches which Ollama models are available, so status can say what to pull and dense search can come back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping

import httpx
from ollama import AsyncClient, ResponseError

from askvault.config import OllamaConfig
from askvault.ollama_errors import missing, unreachable

log = logging.getLogger(__name__)

Listener = Callable[[Mapping[str, object]], None]


def _same_model(wanted: str, available: str) -> bool:
    """Ollama treats `name` and `name:latest` as one model."""

    def norm(name: str) -> str:
        return name if ":" in name else f"{name}:latest"

    return norm(wanted) == norm(available)


class ModelMonitor:
    """Polls `GET /api/tags` (cheap, no model load) and reports `{embed, chat}` availability.

    `embed_model` is the Ollama embedding model to watch; None when the built-in embedder is in use (the
    embed entry then says so and never changes: `EngineControl` reports the built-in embedder's own state).
    """

    def __init__(
        self,
        cfg: OllamaConfig,
        on_embed_available: Callable[[], Awaitable[None]] | None = None,
        interval_s: float = 30.0,
        *,
        embed_model: str | None = None,
        builtin_label: str = "built-in",
    ) -> None:
        self._cfg = cfg
        self._embed_model = embed_model
        self._builtin = {"name": builtin_label, "ok": True, "problem": None}
        timeout = httpx.Timeout(5.0, connect=cfg.connect_timeout_s)
        self._client = AsyncClient(host=cfg.url, timeout=timeout, trust_env=False)  # never via an env proxy
        self._on_embed_available = on_embed_available
        self._interval = interval_s
        self._listeners: list[Listener] = []
        self._state: dict[str, object] = {
            "embed": {"name": embed_model, "ok": False, "problem": "not checked yet"} if embed_model else self._builtin,
            "chat": {"name": cfg.chat_model, "ok": False, "problem": "not checked yet"},
        }
        self._task: asyncio.Task[None] | None = None

    def snapshot(self) -> Mapping[str, object]:
        return dict(self._state)

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def check(self) -> Mapping[str, object]:
        """One poll; updates the snapshot and tells listeners when something changed."""
        try:
            listed = await self._client.list()
            names = [m.model or "" for m in listed.models]
            reachable = True
        except (httpx.HTTPError, ResponseError, OSError) as exc:
            log.debug("Ollama not reachable: %s", exc)
            names, reachable = [], False
        state: dict[str, object] = {"embed": self._builtin}
        watched: list[tuple[str, str]] = [("embed", self._embed_model)] if self._embed_model else []
        for role, model in (*watched, ("chat", self._cfg.chat_model)):
            ok = reachable and any(_same_model(model, name) for name in names)
            if ok:
                problem = None
            elif not reachable:
                problem = unreachable(self._cfg.url)
            else:
                problem = missing(model, "embedding" if role == "embed" else "chat")
            state[role] = {"name": model, "ok": ok, "problem": problem}
        previous, self._state = self._state, state
        if previous != state:
            for listener in list(self._listeners):
                listener(self.snapshot())
            embed_before = previous.get("embed")
            was_ok = isinstance(embed_before, Mapping) and embed_before.get("ok")
            embed_now = state["embed"]
            if not was_ok and isinstance(embed_now, Mapping) and embed_now.get("ok") and self._on_embed_available:
                await self._on_embed_available()
        return self.snapshot()

    async def start(self) -> None:
        await self.check()
        self._task = asyncio.create_task(self._loop(), name="askvault-model-monitor")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                await self.check()
            except Exception:  # the monitor must never die; the next poll tries again
                log.exception("model check failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._client.close()  # type: ignore[no-untyped-call]
