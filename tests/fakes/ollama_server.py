"""A fake Ollama server speaking Ollama's exact HTTP wire protocol, for driving the real `ollama` client in tests.

Embeddings are deterministic hashed bags of words (so texts sharing words are close); chat answers are
scripted per test; failures (missing model, stall, mid-stream disconnect, HTTP errors) are on demand.
Every request is logged so tests can assert, for example, that no chat call was made.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

_WORD = re.compile(r"\w+", re.UNICODE)


def fake_embedding(text: str, dim: int) -> list[float]:
    """Hashed bag of lowercased words, L2-normalised: shared words mean high cosine similarity."""
    vec = [0.0] * dim
    for word in _WORD.findall(text.lower()):
        digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
        slot = int.from_bytes(digest[:4], "little") % dim
        sign = 1.0 if digest[4] & 1 else -1.0
        vec[slot] += sign
    norm = math.sqrt(sum(v * v for v in vec))
    if norm == 0.0:
        vec[0] = 1.0
        return vec
    return [v / norm for v in vec]


@dataclass
class ChatScript:
    """What the next /api/chat call answers."""

    tokens: list[str]
    delay_s: float = 0.0
    """Pause before each token (lets tests see streaming and cancel mid-way)."""
    disconnect_after: int | None = None
    """Drop the connection after this many tokens, without the closing `done` line."""
    stall_after: int | None = None
    """Stop sending (but keep the connection open) after this many tokens."""
    status: int | None = None
    """Answer with this HTTP status and an Ollama error body instead of a stream."""
    error: str = "internal error"
    reply_delay_s: float = 0.0
    """Pause before a non-streamed reply (`"stream": false`), e.g. longer than a caller's timeout."""
    raw_lines: list[bytes] | None = None
    """Send exactly these NDJSON lines (a recorded transcript of a real model server) instead of `tokens`, then
    end the response; nothing is added, so a transcript without its `done` line ends like a cut stream."""
    ignore_num_predict: bool = False
    """Stream every token whatever `options.num_predict` says (a server that ignores the cap)."""


@dataclass
class FakeOllama:
    """State of one fake server: models it has, scripted answers, and the request log."""

    embed_models: dict[str, int] = field(default_factory=lambda: {"nomic-embed-text": 64, "all-minilm": 64})
    chat_models: set[str] = field(default_factory=lambda: {"llama3.2:3b"})
    scripts: list[ChatScript] = field(default_factory=list)
    default_answer: list[str] = field(default_factory=lambda: ["The notes say so ", "[1]", "."])
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    embed_delay_s: float = 0.0
    embed_status: int | None = None
    cancelled_streams: int = 0

    def calls(self, path: str) -> list[dict[str, Any]]:
        return [body for p, body in self.requests if p == path]

    def _missing(self, model: str) -> web.Response:
        return web.json_response({"error": f'model "{model}" not found, try pulling it first'}, status=404)

    def _bad_format(self, body: dict[str, Any]) -> web.Response | None:
        """Ollama's check of `format`: absent, null or "" = none, "json", or a JSON Schema object; else 500
        with Ollama's own message (it fails the completion, which the chat handler answers with 500)."""
        fmt = body.get("format")
        if fmt is None or fmt in ("", "json") or isinstance(fmt, dict):
            return None
        message = f'invalid format: {json.dumps(json.dumps(fmt))}; expected "json" or a valid JSON Schema object'
        return web.json_response({"error": message}, status=500)

    def _known(self, model: str) -> bool:
        names = set(self.embed_models) | self.chat_models
        return model in names or model.removesuffix(":latest") in names

    async def _body(self, request: web.Request) -> dict[str, Any]:
        body: dict[str, Any] = await request.json() if request.can_read_body else {}
        self.requests.append((request.path, body))
        return body

    async def root(self, request: web.Request) -> web.Response:
        return web.Response(text="Ollama is running")

    async def version(self, request: web.Request) -> web.Response:
        self.requests.append((request.path, {}))
        return web.json_response({"version": "0.12.0"})

    async def tags(self, request: web.Request) -> web.Response:
        self.requests.append((request.path, {}))
        models = [
            {"name": n, "model": n, "modified_at": "2026-01-01T00:00:00Z", "size": 1, "digest": "0" * 64}
            for n in sorted(set(self.embed_models) | self.chat_models)
        ]
        return web.json_response({"models": models})

    async def show(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        model = str(body.get("model", ""))
        if not self._known(model):
            return self._missing(model)
        return web.json_response({"modelfile": "", "parameters": "", "template": "", "details": {}})

    async def embed(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        model = str(body.get("model", ""))
        dim = self.embed_models.get(model) or self.embed_models.get(model.removesuffix(":latest"))
        if self.embed_status is not None:
            return web.json_response({"error": "embedding failed"}, status=self.embed_status)
        if dim is None:
            if model in self.chat_models:
                return web.json_response({"error": "this model does not support embeddings"}, status=400)
            return self._missing(model)
        if self.embed_delay_s:
            await asyncio.sleep(self.embed_delay_s)
        raw = body.get("input", [])
        texts = [raw] if isinstance(raw, str) else list(raw)
        return web.json_response(
            {
                "model": model,
                "embeddings": [fake_embedding(str(t), dim) for t in texts],
                "total_duration": 1000,
                "load_duration": 0,
                "prompt_eval_count": sum(len(str(t).split()) for t in texts),
            }
        )

    def _line(self, model: str, content: str, done: bool) -> bytes:
        obj: dict[str, Any] = {
            "model": model,
            "created_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "message": {"role": "assistant", "content": content},
            "done": done,
        }
        return (json.dumps(obj) + "\n").encode("utf-8")

    def _done_line(self, model: str, prompt_chars: int, tokens: int, reason: str = "stop") -> bytes:
        obj: dict[str, Any] = {
            "model": model,
            "created_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": reason,
            "total_duration": 5_000_000,
            "load_duration": 1_000_000,
            "prompt_eval_count": max(1, prompt_chars // 4),
            "prompt_eval_duration": 1_000_000,
            "eval_count": tokens,
            "eval_duration": 3_000_000,
        }
        return (json.dumps(obj) + "\n").encode("utf-8")

    async def chat(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request)
        model = str(body.get("model", ""))
        if model not in self.chat_models and model.removesuffix(":latest") not in self.chat_models:
            return self._missing(model)
        bad_format = self._bad_format(body)
        if bad_format is not None:
            return bad_format
        script = self.scripts.pop(0) if self.scripts else ChatScript(tokens=list(self.default_answer))
        if script.status is not None:
            return web.json_response({"error": script.error}, status=script.status)
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
        if body.get("stream", True) is False:
            if script.reply_delay_s:
                try:
                    await asyncio.sleep(script.reply_delay_s)
                except asyncio.CancelledError:
                    self.cancelled_streams += 1
                    raise
            text = "".join(script.tokens)
            obj = json.loads(self._done_line(model, prompt_chars, len(script.tokens)))
            obj["message"]["content"] = text
            return web.json_response(obj)
        response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        if script.raw_lines is not None:
            for line in script.raw_lines:
                await response.write(line if line.endswith(b"\n") else line + b"\n")
            await response.write_eof()
            return response
        # Like Ollama: one token per streamed line, and at `num_predict` the answer stops with "length".
        cap = (body.get("options") or {}).get("num_predict")
        tokens, reason = script.tokens, "stop"
        if isinstance(cap, int) and cap >= 0 and len(tokens) > cap and not script.ignore_num_predict:
            tokens, reason = tokens[:cap], "length"
        try:
            for sent, token in enumerate(tokens):
                if script.disconnect_after is not None and sent >= script.disconnect_after:
                    assert request.transport is not None
                    request.transport.close()
                    return response
                if script.stall_after is not None and sent >= script.stall_after:
                    await asyncio.sleep(3600)
                if script.delay_s:
                    await asyncio.sleep(script.delay_s)
                await response.write(self._line(model, token, False))
            await response.write(self._done_line(model, prompt_chars, len(tokens), reason))
            await response.write_eof()
        except (asyncio.CancelledError, ConnectionResetError):
            self.cancelled_streams += 1
            raise
        return response

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.root)
        app.router.add_get("/api/version", self.version)
        app.router.add_get("/api/tags", self.tags)
        app.router.add_post("/api/show", self.show)
        app.router.add_post("/api/embed", self.embed)
        app.router.add_post("/api/chat", self.chat)
        return app


async def serve(fake: FakeOllama, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[str]:
    """Runs the fake on a real port; yields its base URL."""
    runner = web.AppRunner(fake.app(), handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = site._server
    assert server is not None
    sockets = getattr(server, "sockets", None)
    assert sockets
    bound = sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{bound}"
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> None:
    """`python -m tests.fakes.ollama_server --port N`: run the fake for end-to-end tests (plugin E2E, manual runs).

    Prints `READY <url>` on stdout once listening, so a parent process can wait for it.
    """
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token-delay", type=float, default=0.05, help="seconds before each streamed token")
    parser.add_argument(
        "--answer",
        default="Postgres listens on port 5433 [1]. Backups run nightly at 02:00 [2].",
        help="the scripted answer, streamed word by word",
    )
    args = parser.parse_args(argv)
    words = args.answer.split(" ")
    tokens = [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]

    async def run() -> None:
        fake = FakeOllama(default_answer=tokens)
        fake.scripts.clear()
        original = fake.chat

        async def chat(request: web.Request) -> web.StreamResponse:
            if not fake.scripts:
                fake.scripts.append(ChatScript(tokens=list(tokens), delay_s=args.token_delay))
            return await original(request)

        fake.chat = chat  # type: ignore[method-assign]
        async for url in serve(fake, port=args.port):
            print(f"READY {url}", flush=True)
            await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()
