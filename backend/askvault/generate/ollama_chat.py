"""The chat model over Ollama's streamed /api/chat, with timeouts, a stall detector and typed errors."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Sequence

import httpx
from ollama import AsyncClient, ChatResponse

from askvault.config import OllamaConfig
from askvault.errors import ModelError
from askvault.generate.protocol import ChatDone, ChatEvent, ChatToken, JsonSchema
from askvault.model import Message
from askvault.ollama_errors import OllamaCall, broke_off, ollama_error

DEFAULT_TEMPERATURE = 0.1
"""Low: a grounded answer should restate the sources, not improvise."""
DEFAULT_NUM_CTX = 8192
"""Ollama's default context (2,048-4,096 tokens) silently drops the start of a long prompt — the system
message first. 9,000 chars of sources plus history need ≈3,500 tokens; 8,192 leaves room for the answer."""
DEFAULT_COMPLETE_TOKENS = 128
"""`complete` is for short utility answers (a rewritten question); cap it so a rambling model stays cheap."""
DEFAULT_JSON_TOKENS = 256
"""`complete_json` answers a small object (a ranking of ≤ 30 short ids is ≈ 150 tokens)."""


class OllamaChatModel:
    """ChatModel over the official `ollama` AsyncClient. Call `aclose()` when done."""

    def __init__(
        self,
        cfg: OllamaConfig,
        *,
        temperature: float = DEFAULT_TEMPERATURE,
        num_ctx: int = DEFAULT_NUM_CTX,
        complete_tokens: int = DEFAULT_COMPLETE_TOKENS,
    ) -> None:
        self._cfg = cfg
        self._options: dict[str, float | int] = {"temperature": temperature, "num_ctx": num_ctx}
        # The answer's cap: without one a small model that loops runs until the context is full.
        self._stream_options: dict[str, float | int] = {**self._options, "num_predict": cfg.answer_tokens}
        self._complete_options: dict[str, float | int] = {**self._options, "num_predict": complete_tokens}
        # Temperature 0: a ranking should not change between two runs of the same question.
        self._json_options: dict[str, float | int] = {
            **self._options,
            "temperature": 0,
            "num_predict": DEFAULT_JSON_TOKENS,
        }
        # read= bounds each socket read, so it is also the longest wait for the first byte (model load and
        # prompt evaluation). trust_env=False: the prompt carries vault text and never goes via a proxy.
        timeout = httpx.Timeout(cfg.read_timeout_s, connect=cfg.connect_timeout_s)
        self._client = AsyncClient(host=cfg.url, timeout=timeout, trust_env=False)

    @property
    def model(self) -> str:
        return self._cfg.chat_model

    async def aclose(self) -> None:
        await self._client.close()  # type: ignore[no-untyped-call]  # the client leaves close() unannotated

    async def stream(self, messages: Sequence[Message]) -> AsyncGenerator[ChatEvent, None]:
        """Text deltas, then one ChatDone. Closing this iterator closes the HTTP stream, which stops Ollama.

        At most `answer_tokens` tokens (`num_predict`); Ollama then ends with `done_reason: "length"`.
        """
        payload = [{"role": m.role, "content": m.content} for m in messages]
        parts: AsyncIterator[ChatResponse] | None = None
        try:
            try:
                parts = await self._client.chat(
                    model=self.model, messages=payload, stream=True, options=self._stream_options
                )
            except Exception as exc:
                raise self._mapped(exc) from exc
            while True:
                part = await self._next(parts)
                if part.done:
                    yield ChatDone(
                        prompt_tokens=part.prompt_eval_count,
                        completion_tokens=part.eval_count,
                        done_reason=part.done_reason,
                        total_duration_ms=part.total_duration / 1e6 if part.total_duration is not None else None,
                    )
                    return
                if part.message.content:
                    yield ChatToken(part.message.content)
        finally:
            if parts is not None:
                await _aclose(parts)

    async def complete(self, messages: Sequence[Message]) -> str:
        payload = [{"role": m.role, "content": m.content} for m in messages]
        try:
            response = await self._client.chat(
                model=self.model, messages=payload, stream=False, options=self._complete_options
            )
        except Exception as exc:
            raise self._mapped(exc) from exc
        return response.message.content or ""

    async def complete_json(self, messages: Sequence[Message], schema: JsonSchema) -> str:
        """One non-streamed reply constrained by `schema` (Ollama's `format`); the raw text, unchecked."""
        payload = [{"role": m.role, "content": m.content} for m in messages]
        try:
            response = await self._client.chat(
                model=self.model, messages=payload, stream=False, format=schema, options=self._json_options
            )
        except Exception as exc:
            raise self._mapped(exc) from exc
        return response.message.content or ""

    async def _next(self, parts: AsyncIterator[ChatResponse]) -> ChatResponse:
        """The next streamed line; no line within the read timeout is a stall, whatever the socket does."""
        try:
            async with asyncio.timeout(self._cfg.read_timeout_s):
                return await anext(parts)
        except StopAsyncIteration:
            raise broke_off(self._call(), "the stream ended without its closing message") from None
        except Exception as exc:
            raise self._mapped(exc) from exc

    def _mapped(self, exc: Exception) -> ModelError:
        return ollama_error(exc, self._call())

    def _call(self) -> OllamaCall:
        cfg = self._cfg
        return OllamaCall(cfg.url, self.model, "chat", "answering", "/api/chat", cfg.read_timeout_s)


async def _aclose(parts: AsyncIterator[ChatResponse]) -> None:
    aclose = getattr(parts, "aclose", None)
    if aclose is not None:
        await aclose()
