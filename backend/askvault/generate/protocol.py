"""The chat-model seam: a stream of text deltas, then one closing event with the model's own counts."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from askvault.model import Message


@dataclass(frozen=True, slots=True)
class ChatToken:
    text: str


@dataclass(frozen=True, slots=True)
class ChatDone:
    prompt_tokens: int | None
    completion_tokens: int | None
    done_reason: str | None
    total_duration_ms: float | None


ChatEvent = ChatToken | ChatDone


class ChatModel(Protocol):
    @property
    def model(self) -> str: ...

    def stream(self, messages: Sequence[Message]) -> AsyncIterator[ChatEvent]:
        """Streams the answer. Raises ModelUnreachable, ModelMissing, ModelTimeout or ModelStreamBroken.

        Closing the iterator (the client went away) stops the generation upstream.
        """
        ...

    async def complete(self, messages: Sequence[Message]) -> str:
        """A short non-streamed completion (used to rewrite follow-up questions)."""
        ...


JsonSchema = dict[str, object]
"""A JSON Schema object, as Ollama's `format` takes it."""


class StructuredChat(Protocol):
    """A chat model asked for one JSON reply constrained by a schema (Ollama's structured outputs)."""

    @property
    def model(self) -> str: ...

    async def complete_json(self, messages: Sequence[Message], schema: JsonSchema) -> str:
        """The raw reply text, deterministic (temperature 0); the caller parses and checks it.

        Raises ModelUnreachable, ModelMissing, ModelTimeout or ModelError like `ChatModel`.
        """
        ...
