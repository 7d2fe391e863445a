"""Fake services behind the real API: canned search results, a scripted answerer, a controllable index."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field

from askvault.ask.events import AskEvent
from askvault.errors import NotFound
from askvault.model import Chunk, Message, SearchFilters, SearchMode, SearchResult
from askvault.retrieve.related import NO_NOTE, RelatedResult
from askvault.retrieve.trace import SearchTrace
from tests.api.samples import ASK_EVENTS, CHUNKS, RELATED, STATUS, search_result


@dataclass
class FakeSearcher:
    calls: list[tuple[str, int, SearchMode, SearchFilters | None]] = field(default_factory=list)
    fail_with: Exception | None = None

    async def search(
        self,
        query: str,
        k: int,
        mode: SearchMode = "hybrid",
        filters: SearchFilters | None = None,
        trace: SearchTrace | None = None,
    ) -> SearchResult:
        self.calls.append((query, k, mode, filters))
        if self.fail_with is not None:
            raise self.fail_with
        result = search_result(query)
        return SearchResult(
            query=result.query,
            mode=mode,
            hits=result.hits[:k],
            terms=result.terms,
            counts=result.counts,
            timings=result.timings,
        )


Step = AskEvent | Exception


@dataclass
class FakeAnswerer:
    """Plays `script` (typed events, or exceptions to raise) with a small pause between steps.

    `hold` (when set) is awaited after each event, so a test can read a line before the next exists.
    `outcomes` records how each run ended: completed, closed (aclose) or cancelled; `yielded` counts events
    handed out (a generator closed right after its last event never reaches "completed").
    """

    script: list[Step] = field(default_factory=lambda: list(ASK_EVENTS))
    hold: asyncio.Event | None = None
    calls: list[tuple[str, tuple[Message, ...], int | None, SearchFilters | None]] = field(default_factory=list)
    forces: list[bool] = field(default_factory=list)
    """Each run's `force`, in call order."""
    outcomes: list[str] = field(default_factory=list)
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    yielded: int = 0
    running: int = 0
    max_running: int = 0

    def run(
        self,
        question: str,
        history: Sequence[Message],
        k: int | None,
        filters: SearchFilters | None,
        *,
        force: bool = False,
    ) -> AsyncIterator[AskEvent]:
        self.calls.append((question, tuple(history), k, filters))
        self.forces.append(force)
        return self._play()

    async def _play(self) -> AsyncIterator[AskEvent]:
        self.running += 1
        self.max_running = max(self.max_running, self.running)
        outcome = "completed"
        try:
            for step in self.script:
                if isinstance(step, Exception):
                    raise step
                self.yielded += 1
                yield step
                if self.hold is not None:
                    await self.hold.wait()
                await asyncio.sleep(0.001)
        except GeneratorExit:
            outcome = "closed"
            raise
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        except Exception:
            outcome = "raised"
            raise
        finally:
            self.running -= 1
            self.outcomes.append(outcome)
            self.ended.set()


@dataclass
class FakeIndex:
    status_parts: dict[str, object] = field(default_factory=lambda: dict(STATUS))
    chunks: dict[str, Chunk] = field(default_factory=lambda: dict(CHUNKS))
    reindexing: bool = False
    reindex_calls: list[bool] = field(default_factory=list)
    chunk_lookups: list[str] = field(default_factory=list)
    queues: list[asyncio.Queue[Mapping[str, object] | None]] = field(default_factory=list)
    closed_subscriptions: int = 0
    status_calls: int = 0
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)
    unsubscribed: asyncio.Event = field(default_factory=asyncio.Event)

    def status(self) -> Mapping[str, object]:
        self.status_calls += 1
        return self.status_parts

    async def start_reindex(self, full: bool) -> bool:
        self.reindex_calls.append(full)
        if self.reindexing:
            return False
        self.reindexing = True
        return True

    def subscribe(self) -> AsyncIterator[Mapping[str, object]]:
        queue: asyncio.Queue[Mapping[str, object] | None] = asyncio.Queue()
        self.queues.append(queue)
        self.subscribed.set()
        return Subscription(self, queue)

    def _unsubscribe(self, queue: asyncio.Queue[Mapping[str, object] | None]) -> None:
        if queue in self.queues:
            self.queues.remove(queue)
            self.closed_subscriptions += 1
            self.unsubscribed.set()

    def publish(self, event: Mapping[str, object] | None) -> None:
        """Sends an event to every subscriber; None ends their subscriptions."""
        for queue in self.queues:
            queue.put_nowait(event)

    async def get_chunk(self, chunk_id: str) -> Chunk | None:
        self.chunk_lookups.append(chunk_id)
        return self.chunks.get(chunk_id)


class Subscription:
    """Registered when created (so nothing published after `subscribe()` is missed), released by `aclose()`
    whether or not it was ever iterated: the shape a real subscription needs."""

    def __init__(self, index: FakeIndex, queue: asyncio.Queue[Mapping[str, object] | None]) -> None:
        self._index, self._queue = index, queue

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Mapping[str, object]:
        event = await self._queue.get()
        if event is None:
            self._index._unsubscribe(self._queue)
            raise StopAsyncIteration
        return event

    async def aclose(self) -> None:
        self._index._unsubscribe(self._queue)


@dataclass
class FakeRelated:
    """Answers RELATED for its note and "not indexed" for any other path; records every call."""

    calls: list[tuple[str, int]] = field(default_factory=list)

    async def related(self, path: str, k: int) -> RelatedResult:
        self.calls.append((path, k))
        if path != RELATED.path:
            raise NotFound(NO_NOTE)
        return RelatedResult(RELATED.path, RELATED.method, RELATED.hits[:k], RELATED.timings_ms)
