"""The `cli` part: how long an `askvault` command takes from the shell, start-up included.

`askvault --version`, `--help`, `token` and `search` through a running sidecar (`askvault serve` on the sample vault
with the built-in embedder, as a user's plugin starts it), each run as a fresh subprocess N times after one warm-up
run; the figures are wall-clock medians (and min / max), beside the floor of starting the interpreter at all.
`python -X importtime` of the same commands says where the rest goes.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from askvault.api.token import load_or_create_token
from askvault.config import load_config
from bench.harness import askvault_command
from bench.sidecar import Api, wait_until_idle

REPO = Path(__file__).resolve().parents[1]
SAMPLE_VAULT = REPO / "eval" / "sample-vault"
READY_WITHIN_S = 600.0
Json = dict[str, object]


@dataclass(frozen=True)
class CliOptions:
    vault: Path = SAMPLE_VAULT
    runs: int = 11
    """Timed runs per command (after one warm-up run); the figure is their median."""
    query: str = "What does the Kodi maintenance workflow do?"


def _env() -> dict[str, str]:
    """The user's shell without settings of ours that would change what is measured."""
    return {k: v for k, v in os.environ.items() if not k.startswith("ASKVAULT_") and k != "OLLAMA_HOST"}


def _time(command: list[str], runs: int) -> Json:
    """Wall-clock ms of `command` as a fresh process, `runs` times after a warm-up; fails on a non-zero exit."""
    samples: list[float] = []
    for turn in range(runs + 1):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=_env(), check=False)
        took = (time.perf_counter() - started) * 1000.0
        if done.returncode != 0 or not done.stdout.strip():
            raise RuntimeError(f"{' '.join(command[-3:])} exited {done.returncode}: {done.stderr.strip()[-300:]}")
        if turn:  # the first run warms the page cache: it is not what a user's second call costs
            samples.append(took)
    return {
        "median_ms": round(statistics.median(samples), 1),
        "min_ms": round(min(samples), 1),
        "max_ms": round(max(samples), 1),
        "runs": len(samples),
    }


def run_cli_startup(options: CliOptions, work: Path) -> Json:
    """Serves a copy of the vault, times the commands against it, stops the sidecar (by its own pid); cleans `work`."""
    work.mkdir(parents=True, exist_ok=True)
    vault, data_root, config_file = work / "vault", work / "data", work / "config.toml"
    shutil.copytree(options.vault, vault)
    config_file.write_text("", encoding="utf-8")
    located = ["--vault", str(vault), "--data-dir", str(data_root), "--config", str(config_file)]
    askvault = askvault_command()
    serve = [*askvault, "serve", *located, "--port", "0", "--ollama-url", "http://127.0.0.1:9"]
    process = subprocess.Popen(
        serve, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=_env() | {"PYTHONUNBUFFERED": "1"}
    )
    try:
        assert process.stdout is not None
        url = next((line.rsplit(" on ", 1)[1].strip() for line in process.stdout if " is serving " in line), "")
        if not url:
            raise RuntimeError(f"askvault serve did not start (exit code {process.wait()})")
        data_dir = load_config({"vault": vault, "data_dir": data_root}, {}).store.data_dir
        status = wait_until_idle(Api(url, load_or_create_token(data_dir, vault.resolve())), process, READY_WITHIN_S)
        commands = {
            "python -c print(0) (floor)": [sys.executable, "-c", "print(0)"],
            "--version": [*askvault, "--version"],
            "--help": [*askvault, "--help"],
            "token": [*askvault, "token", *located],
            "search (through the sidecar)": [*askvault, "search", *located, options.query],
            "search --json (through the sidecar)": [*askvault, "search", *located, options.query, "--json"],
        }
        timings = {name: _time(command, options.runs) for name, command in commands.items()}
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        shutil.rmtree(work, ignore_errors=True)
    vault_status, embedder = cast(Json, status["vault"]), cast(Json, status.get("embedder") or {})
    return {
        "vault": options.vault.name,
        "notes": vault_status["notes"],
        "chunks": vault_status["chunks"],
        "embedder": embedder.get("label"),
        "query": options.query,
        "commands": timings,
    }


def cli_section(cli: Json) -> list[str]:
    """The part as Markdown: one row per command."""
    lines = [
        "",
        f"## Command-line start-up (`askvault …` as a fresh process; {cli['vault']}, {cli['chunks']} chunks, "
        f"{cli['embedder']})",
        "",
        "| command | median ms | min | max | runs |",
        "|---|---|---|---|---|",
    ]
    for name, row in cast(dict[str, Json], cli["commands"]).items():
        lines.append(f"| {name} | {row['median_ms']} | {row['min_ms']} | {row['max_ms']} | {row['runs']} |")
    return lines


if __name__ == "__main__":  # `python -m bench.cli_startup`: this part alone, printed as JSON
    with tempfile.TemporaryDirectory(prefix="askvault-bench-cli-") as tmp:
        print(json.dumps(run_cli_startup(CliOptions(), Path(tmp) / "cli"), indent=2))
