"""Progress on stderr: read commands that embed before they answer (a first run, a new embedder), and index runs."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from types import TracebackType
from typing import TYPE_CHECKING, Never

import click
from tqdm import tqdm

from askvault.config import Config
from askvault.index.report import Progress

if TYPE_CHECKING:
    from askvault.wiring import Engine


class EmbedProgress:
    """`progress` and `announce` for `open_engine`: a bar while chunks are embedded, and the rebuild sentence.

    Both go to stderr, so `--json` output on stdout stays one document; the bar only on a terminal.
    """

    def __init__(self, show_bar: bool | None = None) -> None:
        self._show_bar = sys.stderr.isatty() if show_bar is None else show_bar
        self._bar: tqdm[Never] | None = None

    def announce(self, sentence: str) -> None:
        click.echo(sentence, err=True)

    def progress(self, progress: Progress) -> None:
        if not self._show_bar or progress.phase != "embed":
            return
        if self._bar is None:
            self._bar = tqdm(total=progress.total, desc="embedding", unit="", file=sys.stderr)
        self._bar.total = progress.total
        self._bar.n = progress.done
        self._bar.refresh()

    def __enter__(self) -> EmbedProgress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.close()


@contextlib.asynccontextmanager
async def engine_for_reading(config: Config, *, sync_vectors: bool = True) -> AsyncIterator[Engine]:
    """`open_engine` for search, ask, explain and related: what it embeds first is shown on stderr, and so is an
    embedder that is unavailable (one sentence with its fix; the command goes on with keyword search)."""
    from askvault.wiring import open_engine  # the engine's imports are paid only when the index is opened here

    async with contextlib.AsyncExitStack() as stack:
        with EmbedProgress() as shown:  # the bar closes once the engine is open, before any output
            opening = open_engine(config, sync_vectors=sync_vectors, progress=shown.progress, announce=shown.announce)
            engine = await stack.enter_async_context(opening)
        if engine.dense.problem is not None:
            # Every read command says it once, on stderr, so stdout stays the result (or the JSON document).
            click.echo(
                f"Keyword search only: {engine.embedder.label} is unavailable — {engine.dense.problem}.", err=True
            )
        yield engine


class IndexBars:
    """An index run's bars on stderr, one for the notes and one for embedding, fed by its `Progress` (from the
    indexer here, or from a sidecar's `/api/events` lines)."""

    def __init__(self, show: bool) -> None:
        self._show = show
        self._bars: dict[str, tqdm[Never]] = {}

    def update(self, progress: Progress) -> None:
        if not self._show or progress.phase not in ("notes", "embed"):
            return
        bar = self._bars.get(progress.phase)
        if bar is None:
            label = "notes" if progress.phase == "notes" else "embedding"
            bar = tqdm(total=progress.total, desc=label, unit="", file=sys.stderr)
            self._bars[progress.phase] = bar
        bar.total = progress.total
        bar.n = progress.done
        bar.refresh()

    def close(self) -> None:
        for bar in self._bars.values():
            bar.close()
