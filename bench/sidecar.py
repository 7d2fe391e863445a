"""Peak memory of the real sidecar: `askvault serve` as a subprocess over a generated, already indexed vault.

The index is built beforehand with the hash embedder under the default model's name and dimension, and the
fake Ollama serves that same name and size, so the sidecar finds its collection complete (as after any normal
restart) and embeds nothing but queries. It then answers searches and questions over HTTP; VmHWM of its
process (from /proc) is the peak it reached on the way: start-up, the background reconcile, queries.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import cast

from askvault.api.token import load_or_create_token
from askvault.embed.ollama import DEFAULT_OLLAMA_EMBED_MODEL as DEFAULT_EMBED_MODEL
from bench import synth
from bench.fake_embed import HashEmbedder
from bench.fake_ollama import fake_ollama
from bench.harness import askvault_command, bench_engine, config_for, percentiles, proc_status

READY_WITHIN_S = 300.0
Json = dict[str, object]


async def _prebuild(vault: Path, data_root: Path, dim: int) -> int:
    async with bench_engine(vault, data_root, HashEmbedder(dim, model=DEFAULT_EMBED_MODEL)) as engine:
        return (await engine.indexer.run()).chunks


class Api:
    """Just enough of the sidecar's HTTP API, with its token."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token

    def call(self, path: str, body: Json | None = None) -> bytes:
        request = urllib.request.Request(
            self.url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
            method="GET" if body is None else "POST",
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            data: bytes = response.read()
            return data

    def status(self) -> Json:
        return cast(Json, json.loads(self.call("/api/status")))


def wait_until_idle(api: Api, process: subprocess.Popen[str], within_s: float = READY_WITHIN_S) -> Json:
    """The start-up reconcile has finished and dense search is on."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"askvault serve exited with {process.returncode}")
        status = api.status()
        index = cast(Json, status["index"])
        if index["state"] == "idle" and index.get("last_run") and index["dense"] == "ready":
            return status
        time.sleep(0.2)
    raise TimeoutError("the sidecar did not finish its start-up reconcile")


def run_sidecar_rss(chunks: int, dim: int, seed: int, n_queries: int, work: Path, runs: int = 3) -> dict[str, object]:
    """Prebuilds the index, then `runs` times: serves it with `askvault serve`, queries it, reads its peak RSS.

    Peak RSS varies from run to run (allocator arenas of worker threads, what the kernel keeps mapped), so the
    figure is the highest of the runs, with every run's kept. Cleans `work`."""
    work.mkdir(parents=True, exist_ok=True)
    try:
        vault = synth.write_vault(work / "vault", synth.notes_for_chunks(chunks, seed), seed)
        data_root = work / "data"
        indexed = asyncio.run(_prebuild(vault, data_root, dim))
        data_dir = config_for(vault, data_root, DEFAULT_EMBED_MODEL).store.data_dir
        empty_config = work / "config.toml"
        empty_config.write_text("", encoding="utf-8")
        with fake_ollama(dim) as ollama_url:
            measured = [
                _serve_and_measure(vault, data_root, data_dir, empty_config, ollama_url, indexed, seed, n_queries)
                for _ in range(runs)
            ]
        peaks = [cast(float, run["peak_rss_mb"]) for run in measured]
        worst = measured[peaks.index(max(peaks))]
        return {"dim": dim, **worst, "peak_rss_mb_runs": peaks, "runs": len(measured)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _serve_and_measure(
    vault: Path, data_root: Path, data_dir: Path, config: Path, ollama_url: str, indexed: int, seed: int, n: int
) -> dict[str, object]:
    command = [*askvault_command(), "serve", "--vault", str(vault), "--data-dir", str(data_root)]
    command += ["--config", str(config), "--port", "0", "--ollama-url", ollama_url]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKVAULT_") and k != "OLLAMA_HOST"}
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env | {"PYTHONUNBUFFERED": "1"}
    )
    try:
        assert process.stdout is not None
        url = ""
        for line in process.stdout:
            if line.startswith("Ask Vault is serving"):
                url = line.rsplit(" on ", 1)[1].strip()
                break
        if not url:
            raise RuntimeError(f"askvault serve did not start (exit code {process.wait()})")
        serving_s = time.perf_counter() - started
        at_start = proc_status(process.pid)
        api = Api(url, load_or_create_token(data_dir, vault.resolve()))
        status = wait_until_idle(api, process)
        idle_s = time.perf_counter() - started
        after_reconcile = proc_status(process.pid)
        search_ms: list[float] = []
        for question in synth.queries(n, seed + 2):
            began = time.perf_counter()
            api.call("/api/search", {"query": question, "k": 8})
            search_ms.append((time.perf_counter() - began) * 1000.0)
        for question in synth.queries(max(1, n // 5), seed + 3):
            api.call("/api/ask", {"question": question})  # reads the whole NDJSON stream
        final = proc_status(process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
    vault_status = cast(Json, status["vault"])
    return {
        "chunks": vault_status["chunks"],
        "notes": vault_status["notes"],
        "chunks_indexed_beforehand": indexed,
        "serving_after_s": round(serving_s, 2),
        "reconciled_after_s": round(idle_s, 2),
        "rss_mb_serving": at_start.get("VmRSS"),
        "rss_mb_after_reconcile": after_reconcile.get("VmRSS"),
        "rss_mb_after_queries": final.get("VmRSS"),
        "peak_rss_mb": final.get("VmHWM"),
        "api_search_ms": percentiles(search_ms),
    }
