"""Generation, the pipeline's last stage: stream the model's answer, end it inert (`safety`), check its citations."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator

from askvault.ask.events import AskEvent, DoneEvent, ErrorEvent, Metrics, TokenEvent
from askvault.ask.tracing import Tracer, safe_record
from askvault.errors import AskVaultError, ModelError, ModelStreamBroken
from askvault.generate.citations import check_citations
from askvault.generate.prompt import Prompt
from askvault.generate.protocol import ChatDone, ChatModel
from askvault.generate.repetition import repeats_at_end
from askvault.retrieve.timing import METRIC_DIGITS, AnswerTimings, elapsed_ms
from askvault.safety.partial import AnswerSoFar

log = logging.getLogger(__name__)


MAX_ANSWER_CHARS = 32_000
"""A backstop behind the model's token cap (`OllamaConfig.answer_tokens`): a server that ignores `num_predict`
and streams on for ever is cut here, and the answer ends as if the cap was hit (`done_reason` "length")."""

LENGTH = "length"
"""Ollama's `done_reason` when the answer stopped at the token cap rather than where the model ended it."""
REPETITION = "repetition"
"""The sidecar's own `done_reason`: the model was writing the same lines over and over, so it was stopped."""
CUT_REASONS = frozenset({LENGTH, REPETITION})
"""Reasons the answer ends where the model did not end it."""
UNEXPECTED_MESSAGE = "Generating the answer failed unexpectedly"
"""An unexpected failure's message; the API passes its own (`api.errors.INTERNAL_MESSAGE`) to `ending_answer`."""
ENDED_EARLY_MESSAGE = "the answer ended early"
"""The message of an answer stream that stopped without its done or error event."""


async def generate_answer(
    chat: ChatModel,
    tracer: Tracer,
    prompt: Prompt,
    started: float,
    timings: AnswerTimings,
    max_chars: int = MAX_ANSWER_CHARS,
) -> AsyncGenerator[AskEvent, None]:
    """Streams the model's answer to `prompt` as TokenEvents, then one DoneEvent (citations checked, text made
    inert) or one ErrorEvent; `started` is when the question arrived and `timings` its search, for the metrics.

    An answer that reaches `max_chars` is cut there, and one that keeps writing the same lines
    (`repetition.repeats_at_end`) is stopped at the fourth copy; either way the model's stream is closed
    (which stops Ollama) and the done event says why.
    """
    so_far = AnswerSoFar()
    first_token_ms: float | None = None
    done: ChatDone | None = None
    generation_started = time.perf_counter()
    stream = chat.stream(prompt.messages)
    try:
        async for event in stream:
            if isinstance(event, ChatDone):
                done = event
                break
            if not event.text:
                continue
            if first_token_ms is None:
                first_token_ms = elapsed_ms(generation_started, METRIC_DIGITS)
            text = event.text[: max_chars - so_far.chars]
            so_far.add(text)
            yield TokenEvent(text)
            if so_far.chars >= max_chars:
                # The model's own counts never arrive for a stream we close; the cut is reported like the cap.
                done = ChatDone(None, None, LENGTH, None)
                break
            if repeats_at_end(so_far.raw):
                # A small model in a loop would otherwise write the same lines until the token cap.
                done = ChatDone(None, None, REPETITION, None)
                break
        if done is None:
            raise ModelStreamBroken("The model's answer ended without its closing message")
    except ModelError as exc:
        safe_record(tracer, "error", {"code": exc.code, "partial_chars": so_far.chars})
        yield cut_short(exc.code, exc.message, so_far)
        return
    except Exception:
        # The stream is already committed; an unexpected failure still ends it with a proper event.
        log.exception("answer generation failed unexpectedly")
        safe_record(tracer, "error", {"code": "internal", "partial_chars": so_far.chars})
        yield cut_short("internal", UNEXPECTED_MESSAGE, so_far)
        return
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()

    generation_ms = elapsed_ms(generation_started, METRIC_DIGITS)
    # Tokens stream as the model wrote them; the final answer is what a client should keep and render.
    safe = so_far.final()
    cited = check_citations(safe.text, len(prompt.sent))
    metrics = Metrics(
        embed_ms=timings.embed_ms,
        retrieval_ms=timings.retrieval_ms,
        first_token_ms=first_token_ms,
        generation_ms=generation_ms,
        total_ms=timings.total_ms(started, generation_ms),
        prompt_tokens=done.prompt_tokens,
        completion_tokens=done.completion_tokens,
    )
    safe_record(
        tracer,
        "generation",
        {
            "first_token_ms": first_token_ms,
            "generation_ms": generation_ms,
            "prompt_tokens": done.prompt_tokens,
            "completion_tokens": done.completion_tokens,
            "done_reason": done.done_reason,
            "citations": len(cited.valid),
            "invalid_citations": len(cited.invalid),
        },
    )
    yield DoneEvent(safe.text, cited.valid, cited.invalid, False, metrics, safe.neutralised, done.done_reason)


def cut_short(code: str, message: str, so_far: AnswerSoFar) -> ErrorEvent:
    """The error event that ends an answer cut short: its partial text by the one rule (`AnswerSoFar.partial`)."""
    return ErrorEvent(code, message, so_far.partial())


async def ending_answer(
    events: AsyncIterator[AskEvent], unexpected: str = UNEXPECTED_MESSAGE
) -> AsyncGenerator[AskEvent, None]:
    """`events` up to their done or error event, and always ending with one: what an answer stream promises.

    A failure after the first event, or an end without a terminal event, becomes the error event an answer cut
    short ends with (`cut_short`: an AskVaultError's code and message, else "internal" and `unexpected`). A failure
    before the first event is raised, so an HTTP layer can still answer with a status. Nothing after the terminal
    event is read (and no event at all ends it with none); closing this closes `events`, which stops the model
    upstream.
    """
    so_far = AnswerSoFar()
    started = False
    try:
        while True:
            try:
                event = await anext(events)
            except StopAsyncIteration:
                if started:
                    log.error("the answer stream ended without a done or error event")
                    yield cut_short("internal", ENDED_EARLY_MESSAGE, so_far)
                return
            except AskVaultError as exc:
                if not started:
                    raise
                yield cut_short(exc.code, exc.message, so_far)
                return
            except Exception:
                if not started:
                    raise
                log.exception("the answer stream failed")
                yield cut_short("internal", unexpected, so_far)
                return
            started = True
            if isinstance(event, TokenEvent):
                so_far.add(event.text)
            yield event
            if isinstance(event, DoneEvent | ErrorEvent):
                return
    finally:
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            await aclose()
