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
