"""Answer overhead before the first token, against the fake Ollama on loopback with zero delay.

For each question: the time from `pipeline.run()` to its first TokenEvent, minus the query's embedding time,
minus the model's own time-to-first-token, measured right after with the same messages sent straight through
the `ollama` client. What is left is ours: retrieval, prompt building, our chat wrapper and the event plumbing.
"""

from __future__ import annotations

import asyncio
import shutil
import time
from contextlib import aclosing
from pathlib import Path

from ollama import AsyncClient

from askvault.ask.events import RetrievalEvent, TokenEvent
from askvault.config import DEFAULT_CHAT_MODEL
from askvault.generate.ollama_chat import DEFAULT_NUM_CTX, DEFAULT_TEMPERATURE
from askvault.model import Message
from bench import synth
from bench.fake_embed import HashEmbedder, TimedEmbedder
from bench.harness import bench_engine, percentiles
from bench.retrieval import WARMUP


async def _model_ttft_ms(client: AsyncClient, messages: tuple[Message, ...]) -> float:
    payload = [{"role": m.role, "content": m.content} for m in messages]
    options = {"temperature": DEFAULT_TEMPERATURE, "num_ctx": DEFAULT_NUM_CTX}
    started = time.perf_counter()
    first: float | None = None
    async for part in await client.chat(model=DEFAULT_CHAT_MODEL, messages=payload, stream=True, options=options):
        if part.message.content and first is None:
            first = (time.perf_counter() - started) * 1000.0
    if first is None:
        raise RuntimeError("the fake model sent no text")
    return first


async def _measure(chunks: int, dim: int, seed: int, n_questions: int, work: Path, url: str) -> dict[str, object]:
    vault = synth.write_vault(work / "vault", synth.notes_for_chunks(chunks, seed), seed)
    embedder = TimedEmbedder(HashEmbedder(dim))
    overhead: list[float] = []
    to_first: list[float] = []
    ttft: list[float] = []
    retrieval: list[float] = []
    embed: list[float] = []
    unanswered = 0
    async with bench_engine(vault, work / "data", embedder, ollama_url=url) as engine:
        report = await engine.indexer.run()
        client = AsyncClient(host=url)
        try:
            for number, question in enumerate(synth.queries(n_questions + WARMUP, seed + 1)):
                event: RetrievalEvent | None = None
                first_ms: float | None = None
                started = time.perf_counter()
                async with aclosing(engine.pipeline.run(question)) as events:
                    # Read on to the end: a stream closed early makes the fake log a reset connection.
                    async for item in events:
                        if isinstance(item, RetrievalEvent):
                            event = item
                        elif isinstance(item, TokenEvent) and first_ms is None:
                            first_ms = (time.perf_counter() - started) * 1000.0
                if event is None or first_ms is None or not event.prompt:
                    unanswered += 1  # nothing relevant found: the fixed reply, no model call to compare with
                    continue
                model_ms = await _model_ttft_ms(client, event.prompt)
                if number < WARMUP:
                    continue
                to_first.append(first_ms)
                ttft.append(model_ms)
                embed.append(event.embed_ms)
                retrieval.append(event.retrieval_ms)
                overhead.append(first_ms - event.embed_ms - model_ms)
        finally:
            await client.close()  # type: ignore[no-untyped-call]  # ollama leaves close() unannotated
    return {
        "chunks": report.chunks,
        "overhead_ms": percentiles(overhead),
        "run_to_first_token_ms": percentiles(to_first),
        "model_ttft_ms": percentiles(ttft),
        "embed_ms": percentiles(embed),
        "retrieval_ms": percentiles(retrieval),
        "questions_without_model_call": unanswered,
    }


def run_answer(chunks: int, dim: int, seed: int, n_questions: int, work: Path) -> dict[str, object]:
    """Starts the fake Ollama, measures, stops it. Run it in a fresh process; `work` is emptied afterwards."""
    from bench.fake_ollama import fake_ollama

    work.mkdir(parents=True, exist_ok=True)
    try:
        with fake_ollama(dim) as url:
            return asyncio.run(_measure(chunks, dim, seed, n_questions, work, url))
    finally:
        shutil.rmtree(work, ignore_errors=True)
