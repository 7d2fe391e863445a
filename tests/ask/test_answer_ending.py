"""Every answer stream ends with one done or error event, an error carrying the partial answer made inert."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import pytest

from askvault.ask.events import AskEvent, DoneEvent, ErrorEvent, Metrics, TokenEvent
from askvault.ask.generation import ENDED_EARLY_MESSAGE, UNEXPECTED_MESSAGE, ending_answer
from askvault.errors import ModelStreamBroken
from askvault.safety.answer import neutralise_answer

TOKENS = ["Port 5433 [1]. ![map](https://evil", ".example/p.png)"]
PARTIAL = neutralise_answer("".join(TOKENS)).text
DONE = DoneEvent("Port 5433 [1].", (1,), (), False, Metrics(1.0, 1.0, None, None, 2.0, None, None))


class Source:
    """Plays `steps` (events, or an exception to raise) and records whether it was closed and how far it got."""

    def __init__(self, *steps: AskEvent | Exception) -> None:
        self.steps = steps
        self.played = 0
        self.closed = False

    async def run(self) -> AsyncGenerator[AskEvent, None]:
        try:
            for step in self.steps:
                if isinstance(step, Exception):
                    raise step
                self.played += 1
                yield step
        except GeneratorExit:
            self.closed = True
            raise


async def _collect(source: Source, unexpected: str = UNEXPECTED_MESSAGE) -> list[AskEvent]:
    return [event async for event in ending_answer(source.run(), unexpected)]


async def test_a_whole_answer_passes_through_and_nothing_after_done_is_read() -> None:
    source = Source(TokenEvent(TOKENS[0]), DONE, TokenEvent("late"))
    assert await _collect(source) == [TokenEvent(TOKENS[0]), DONE]
    assert (source.played, source.closed) == (2, True)


async def test_a_failure_mid_answer_ends_it_with_the_partial_made_inert() -> None:
    source = Source(*(TokenEvent(t) for t in TOKENS), ModelStreamBroken("Ollama closed the stream"))
    events = await _collect(source)
    assert events[-1] == ErrorEvent("ollama_stream_broken", "Ollama closed the stream", PARTIAL)
    assert "https://" not in PARTIAL


async def test_an_unexpected_failure_is_internal_with_the_callers_message() -> None:
    events = await _collect(Source(TokenEvent(TOKENS[0]), RuntimeError("disk full")), "internal error")
    assert events[-1] == ErrorEvent("internal", "internal error", neutralise_answer(TOKENS[0]).text)


async def test_a_stream_without_an_ending_gets_one() -> None:
    events = await _collect(Source(*(TokenEvent(t) for t in TOKENS)))
    assert events[-1] == ErrorEvent("internal", ENDED_EARLY_MESSAGE, PARTIAL)


async def test_a_failure_before_the_first_event_is_raised_and_no_event_is_none() -> None:
    with pytest.raises(ModelStreamBroken):
        await _collect(Source(ModelStreamBroken("no stream")))
    assert await _collect(Source()) == []


async def test_an_error_event_from_upstream_is_passed_on_as_it_is() -> None:
    error = ErrorEvent("model_missing", "pull it", "")
    assert await _collect(Source(error, TokenEvent("late"))) == [error]
