"""One run with a real embedding model (all-MiniLM-L6-v2, Ollama's `all-minilm`, at OLLAMA_HOST or a local server).

It shows what the hash embedder hides: the embedding cost of indexing and of each query, and our share of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from askvault.config import DEFAULT_OLLAMA_URL
from askvault.wiring import open_engine
from bench import synth
from bench.fake_embed import TimedEmbedder
from bench.harness import config_for, percentiles

MODEL = "all-minilm"
START_WITHIN_S = 300.0
"""A local stand-in server may install things on its first start."""


def default_url() -> str:
    """OLLAMA_HOST (what Ollama and `askvault` read; a bare host:port gets http://), else Ollama's own default.

    OLLAMA_URL, the variable the bench read before, still works for now, with a notice on stderr."""
    url = os.environ.get("OLLAMA_HOST", "")
    if not url and os.environ.get("OLLAMA_URL"):
        print("bench: OLLAMA_URL is deprecated; set OLLAMA_HOST instead.", file=sys.stderr)
        url = os.environ["OLLAMA_URL"]
    url = url.strip().rstrip("/") or DEFAULT_OLLAMA_URL
    return url if "://" in url else "http://" + url


def answers(url: str) -> bool:
    """True when an Ollama-compatible server answers at `url`."""
    try:
        with urllib.request.urlopen(url + "/api/version", timeout=5):
            return True
    except (urllib.error.URLError, OSError):
        return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def local_server(command: str) -> Iterator[str]:
    """Starts `command --port N` on a free loopback port; yields its URL; stops it by its pid."""
    port = _free_port()
    script = shlex.split(command)[0]
    process = subprocess.Popen(
        [*shlex.split(command), "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_WITHIN_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{script} exited with {process.returncode}")
            try:
                with urllib.request.urlopen(url + "/api/version", timeout=2):
                    break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{script} did not answer within {START_WITHIN_S:g} s") from None
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _measure(chunks: int, seed: int, n_queries: int, work: Path, url: str) -> dict[str, object]:
    vault = synth.write_vault(work / "vault", synth.notes_for_chunks(chunks, seed), seed)
    async with open_engine(config_for(vault, work / "data", MODEL, url), sync_vectors=False) as engine:
        embedder = TimedEmbedder(engine.dense.embedder)
        engine.dense.embedder = embedder
        started = time.perf_counter()
        report = await engine.indexer.run()
        index_s = time.perf_counter() - started
        embed_s = embedder.seconds
        embed_ms: list[float] = []
        search_ms: list[float] = []
        for question in synth.queries(n_queries, seed):
            timings = (await engine.searcher.search(question, 8)).timings
            embed_ms.append(timings.embed or 0.0)
            search_ms.append(timings.total - (timings.embed or 0.0))  # `total` includes the embedding
    return {
        "model": MODEL,
        "dim": 384,
        "notes": report.notes,
        "chunks": report.chunks,
        "dense": report.dense,
        "index_seconds": round(index_s, 2),
        "notes_per_s": round(report.notes / index_s, 1),
        "chunks_per_s": round(report.chunks / index_s, 1),
        "embed_seconds": round(embed_s, 2),
        "share_outside_embedding": round(1 - embed_s / index_s, 4),
        "query_embed_ms": percentiles(embed_ms),
        "hybrid_excluding_embed_ms": percentiles(search_ms),
    }


def run_minilm(chunks: int, seed: int, n_queries: int, work: Path, url: str, server_cmd: str = "") -> dict[str, object]:
    """Measures at `url`, or at a server started from `server_cmd` when one is given."""
    work.mkdir(parents=True, exist_ok=True)
    try:
        if not server_cmd:
            return asyncio.run(_measure(chunks, seed, n_queries, work, url))
        with local_server(server_cmd) as started:
            return asyncio.run(_measure(chunks, seed, n_queries, work, started))
    finally:
        shutil.rmtree(work, ignore_errors=True)
