"""The tests' fake Ollama (tests/fakes/ollama_server.py) in a separate process, with embeddings of a chosen size.

`python -m bench.fake_ollama --dim 768` prints `READY <url>` once listening; `fake_ollama(dim)` starts one and
stops it. Chat streams a short scripted answer with no delay, so what is timed around it is ours.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from askvault.embed.ollama import DEFAULT_OLLAMA_EMBED_MODEL as DEFAULT_EMBED_MODEL

REPO = Path(__file__).resolve().parents[1]
ANSWER = ["The notes say ", "the setting ", "changed ", "[1]", "."]


async def _serve(dim: int) -> None:
    from tests.fakes.ollama_server import FakeOllama, serve

    fake = FakeOllama(embed_models={DEFAULT_EMBED_MODEL: dim, "all-minilm": 384}, default_answer=list(ANSWER))
    async for url in serve(fake):
        print(f"READY {url}", flush=True)
        await asyncio.Event().wait()


@contextlib.contextmanager
def fake_ollama(dim: int = 768) -> Iterator[str]:
    """Starts the fake in a child process; yields its base URL; stops it (by its own pid) on exit."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.fake_ollama", "--dim", str(dim)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError(f"the fake Ollama did not start: {line!r}")
        yield line.split()[1]
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--dim", type=int, default=768)
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.dim))


if __name__ == "__main__":
    main()
