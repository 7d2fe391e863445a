"""Generation, the pipeline's last stage: stream the model's answer, make it inert, check its citations."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncGenerator

from askvault.ask.events import AskEvent, DoneEvent, ErrorEvent, Metrics, TokenEvent
from askvault.ask.tracing import Tracer, safe_record
from askvault.errors import ModelError, ModelStreamBroken
from askvault.generate.answer_safety import neutralise_answer
from askvault.generate.citations import check_citations
from askvault.generate.prompt import Prompt
from askvault.generate.protocol import ChatDone, ChatModel
from askvault.generate.repetition import repeats_at_end
from askvault.retrieve.timing import METRIC_DIGITS, AnswerTimings, elapsed_ms

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
    parts: list[str] = []
    length = 0
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
            text = event.text[: max_chars - length]
            parts.append(text)
            length += len(text)
            yield TokenEvent(text)
            if length >= max_chars:
                # The model's own counts never arrive for a stream we close; the cut is reported like the cap.
                done = ChatDone(None, None, LENGTH, None)
                break
            if repeats_at_end("".join(parts)):
                # A small model in a loop would otherwise write the same lines until the token cap.
                done = ChatDone(None, None, REPETITION, None)
                break
        if done is None:
            raise ModelStreamBroken("The model's answer ended without its closing message")
    except ModelError as exc:
        safe_record(tracer, "error", {"code": exc.code, "partial_chars": len("".join(parts))})
        yield ErrorEvent(exc.code, exc.message, neutralise_answer("".join(parts)).text)
        return
    except Exception:
        # The stream is already committed; an unexpected failure still ends it with a proper event.
        log.exception("answer generation failed unexpectedly")
        safe_record(tracer, "error", {"code": "internal", "partial_chars": len("".join(parts))})
        partial = neutralise_answer("".join(parts)).text
        yield ErrorEvent("internal", "Generating the answer failed unexpectedly", partial)
        return
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()

    generation_ms = elapsed_ms(generation_started, METRIC_DIGITS)
    answer = "".join(parts)
    # Tokens stream as the model wrote them; the final answer is what a client should keep and render.
    safe = neutralise_answer(answer)
    answer = safe.text
    cited = check_citations(answer, len(prompt.sent))
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
    yield DoneEvent(answer, cited.valid, cited.invalid, False, metrics, safe.neutralised, done.done_reason)
