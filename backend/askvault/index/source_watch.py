"""Watching the vault and every folder beside it: one `VaultWatcher` each, a source's changes named under its label."""

from __future__ import annotations

from askvault.config import VaultConfig
from askvault.index.changes import ChangeBatch, ChangeSink
from askvault.index.watcher import VaultWatcher


class PrefixedSink:
    """A source folder's watcher speaks of `guide/setup.md`; the index knows it as `Docs:guide/setup.md`."""

    def __init__(self, sink: ChangeSink, prefix: str) -> None:
        self._sink = sink
        self._prefix = prefix

    async def apply(self, batch: ChangeBatch) -> None:
        named = self._prefix.__add__
        await self._sink.apply(
            ChangeBatch(
                upserts=frozenset(map(named, batch.upserts)),
                deletes=frozenset(map(named, batch.deletes)),
                deleted_prefixes=frozenset(map(named, batch.deleted_prefixes)),
                moved=tuple((named(old), named(new)) for old, new in batch.moved),
            )
        )

    async def reconcile(self) -> None:
        # A full run covers every folder; one that cannot be read keeps its notes (`index.roots`).
        await self._sink.reconcile()


class Watchers:
    """The vault's watcher and one per source, started and stopped together."""

    def __init__(
        self, vault: VaultConfig, sink: ChangeSink, reconcile_every_s: float, reconcile_on_start: bool
    ) -> None:
        self.watchers = [
            VaultWatcher(vault.root, sink, reconcile_every_s=reconcile_every_s, reconcile_on_start=reconcile_on_start)
        ]
        # The sources' watchers reconcile only on overflow or after a restart, at the vault's cadence times the
        # number of folders: each reconcile is a full run over every folder.
        every = reconcile_every_s * (len(vault.sources) + 1)
        self.watchers.extend(
            VaultWatcher(
                source.root, PrefixedSink(sink, source.prefix), reconcile_every_s=every, reconcile_on_start=False
            )
            for source in vault.sources
        )

    async def start(self) -> None:
        for watcher in self.watchers:
            await watcher.start()

    async def stop(self) -> None:
        for watcher in reversed(self.watchers):
            await watcher.stop()
