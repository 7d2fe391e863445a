"""`python -m reliability.soak`: the real `askvault serve` in a child process under load, then a soak with churn.

Load: waves of 20 concurrent searches and 5 concurrent answer streams for `--load-seconds`: errors (must be
0), `429 busy` answers (expected: one answer runs, two wait, the rest are turned away) and p50/p95.
Soak: the same waves for `--soak-seconds` while the vault keeps changing (the watcher reindexes), with the
sidecar's RSS and open file descriptors sampled from /proc; after a warm-up both must stay flat.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from reliability.engine_runs import child_env, make_config
from reliability.fake_ollama import FakeOllamaThread, slow_answers
from reliability.load import LoadResult, run_load
from reliability.vault import REPO, Mutator, copy_sample_vault
from tests.fakes.ollama_server import FakeOllama

SAMPLE_EVERY_S = 5.0
START_TIMEOUT_S = 120.0


@dataclass
class Samples:
    seconds: list[float] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)
    fds: list[int] = field(default_factory=list)

    def take(self, pid: int, started: float) -> None:
        status = Path(f"/proc/{pid}/status").read_text()
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        self.seconds.append(round(time.perf_counter() - started, 1))
        self.rss_mib.append(round(int(match.group(1)) / 1024, 1) if match else 0.0)
        self.fds.append(len(os.listdir(f"/proc/{pid}/fd")))

    def summary(self) -> dict[str, object]:
        # The first quarter is warm-up (caches, lazily loaded modules); flat means the last quarter's mean is
        # close to the second quarter's.
        n = len(self.rss_mib)
        quarter = max(1, n // 4)
        early, late = slice(quarter, 2 * quarter), slice(n - quarter, n)
        rss_early, rss_late = statistics.mean(self.rss_mib[early]), statistics.mean(self.rss_mib[late])
        fd_early, fd_late = statistics.mean(self.fds[early]), statistics.mean(self.fds[late])
        return {
            "samples": n,
            "rss_mib": {"first": self.rss_mib[0], "after_warmup": round(rss_early, 1), "end": round(rss_late, 1)},
            "rss_growth_after_warmup_pct": round(100 * (rss_late - rss_early) / rss_early, 1),
            "rss_max_mib": max(self.rss_mib),
            "fds": {"first": self.fds[0], "after_warmup": round(fd_early, 1), "end": round(fd_late, 1)},
            "fds_max": max(self.fds),
        }


async def _start_sidecar(
    workdir: Path, vault: Path, data_root: Path, url: str
) -> tuple[asyncio.subprocess.Process, str]:
    command = [sys.executable, "-m", "reliability.child", "serve", "--vault", str(vault), "--data-dir", str(data_root)]
    command += ["--ollama-url", url, "--port", "0"]
    child = await asyncio.create_subprocess_exec(
        *command, cwd=REPO, env=child_env(workdir), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    assert child.stdout is not None
    async with asyncio.timeout(START_TIMEOUT_S):
        while True:
            line = (await child.stdout.readline()).decode()
            if not line:
                raise RuntimeError("the sidecar exited before it listened")
            found = re.search(r"on (http://\S+)", line)
            if found:
                return child, found.group(1)


async def _wait_indexed(url: str, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as session, asyncio.timeout(START_TIMEOUT_S):
        while True:
            async with session.get(f"{url}/api/status", headers=headers) as resp:
                body = await resp.json()
            if body["index"]["state"] == "idle" and body["index"]["last_run"] and body["index"]["dense"] == "ready":
                return
            await asyncio.sleep(0.2)


async def soak(workdir: Path, load_s: float, soak_s: float, seed: int, churn: bool = True) -> dict[str, object]:
    fake = FakeOllama()
    slow_answers(fake, 0.01)
    with FakeOllamaThread(fake) as ollama:
        vault = copy_sample_vault(workdir / "vault")
        config = make_config(vault, workdir / "data", ollama.url)
        child, url = await _start_sidecar(workdir, vault, workdir / "data", ollama.url)
        try:
            token = (config.store.data_dir / "token").read_text().strip()
            await _wait_indexed(url, token)
            load = await run_load(url, token, seconds=load_s, seed=seed)
            samples = Samples()
            started = time.perf_counter()
            mutator = Mutator(vault, random.Random(seed))

            async def sample_and_churn() -> None:
                while True:
                    samples.take(child.pid, started)
                    for _ in range(3 if churn else 0):
                        mutator.step()
                    await asyncio.sleep(SAMPLE_EVERY_S)

            sampler = asyncio.create_task(sample_and_churn())
            try:
                soaked: LoadResult = await run_load(url, token, seconds=soak_s, seed=seed + 1)
            finally:
                sampler.cancel()
            samples.take(child.pid, started)
        finally:
            if child.returncode is None:
                child.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(child.wait(), 60)
    return {
        "load": load.summary(),
        "soak": {**soaked.summary(), "vault_edits": sum(mutator.ops.values()), **samples.summary()},
        "sidecar_exit_code_after_sigterm": code,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reliability.soak", description=__doc__.split("\n")[0])
    parser.add_argument("--load-seconds", type=float, default=60.0)
    parser.add_argument("--soak-seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-churn", action="store_true", help="keep the vault unchanged during the soak")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="askvault-soak-") as tmp:
        result = asyncio.run(soak(Path(tmp), args.load_seconds, args.soak_seconds, args.seed, not args.no_churn))
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    load, soaked = result["load"], result["soak"]
    errors = [part.get("errors") for part in (load, soaked) if isinstance(part, dict)]
    sys.exit(1 if any(errors) else 0)


if __name__ == "__main__":
    main()
