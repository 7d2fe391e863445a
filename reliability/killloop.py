"""`python -m reliability.killloop --kills 200`: SIGKILL the indexer at random points over a changing vault.

Each round edits the vault, starts the real `askvault index` (or `askvault serve`, whose watcher then
applies the edits made while it runs) in a child process, kills it with SIGKILL at a random moment of its
work, and then checks, in this order:
1. the manifest exactly as the dead process left it: `PRAGMA quick_check`, no chunk without its note, no
   note without chunks, no vector row without its chunk, every content hash matching its text;
2. a restart (a normal incremental run) finishes with nothing failed and dense search ready;
3. the restarted index equals a fresh rebuild of the same vault: the same notes, the same chunk set (ids,
   paths, content hashes), a vector for every chunk and for nothing else, no duplicate points, every
   vector the embedding of its chunk's current text; and neither run wrote to the vault.
Every tenth round starts from an empty index so that first builds get killed too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from reliability.engine_runs import DIM, child_env, fresh_rebuild, index_once, make_config, report_problems
from reliability.fake_ollama import FakeOllamaThread
from reliability.snapshot import divergences, manifest_problems, read_index
from reliability.vault import REPO, Mutator, copy_sample_vault, note_paths, vault_digest
from tests.fakes.ollama_server import FakeOllama

READY_TIMEOUT_S = 60.0
RUN_TIMEOUT_S = 120.0
WIPE_EVERY = 10


@dataclass
class KillLoopResult:
    seed: int
    kills: int = 0
    kills_by_kind: dict[str, int] = field(default_factory=dict)
    """first build (empty index), full (`--full`), incremental, serve (the sidecar, its watcher applying edits)."""
    finished_before_kill: int = 0
    finished_by_kind: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    divergences: list[str] = field(default_factory=list)
    seconds: float = 0.0
    notes_at_end: int = 0
    edits: dict[str, int] = field(default_factory=dict)
    kill_delays_s: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        delays = sorted(self.kill_delays_s)
        data["kill_delays_s"] = {
            "min": round(delays[0], 3) if delays else None,
            "median": round(delays[len(delays) // 2], 3) if delays else None,
            "max": round(delays[-1], 3) if delays else None,
        }
        return data


class KillLoop:
    def __init__(self, workdir: Path, seed: int, ollama_url: str, log: Callable[[str], None]) -> None:
        self.workdir = workdir
        self.rng = random.Random(seed)
        self.url = ollama_url
        self.log = log
        self.vault = copy_sample_vault(workdir / "vault")
        self.data_root = workdir / "data"
        self.fresh_root = workdir / "fresh"
        self.config = make_config(self.vault, self.data_root, ollama_url)
        self.mutator = Mutator(self.vault, self.rng, floor=120, ceiling=240)
        self.env = child_env(workdir)
        # Per kind of run, how long after READY to aim (uniformly) for the kill: it follows the runs that
        # finish (x1.15) and creeps up while every run is killed, so kills cover each run from start to end
        # (opening the stores, scanning, writing notes, embedding, writing vectors, rebuilding, closing).
        self.windows_s = {"first build": 4.0, "full": 3.0, "incremental": 1.5, "serve": 3.0}
        self.result = KillLoopResult(seed=seed)

    def _command(self, mode: str, full: bool) -> list[str]:
        common = ["--vault", str(self.vault), "--data-dir", str(self.data_root), "--ollama-url", self.url]
        if mode == "serve":
            return [sys.executable, "-m", "reliability.child", "serve", *common, "--port", "0"]
        return [sys.executable, "-m", "reliability.child", "index", *common, "--json", *(["--full"] if full else [])]

    async def _edit_while(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            self.mutator.step()
            await asyncio.sleep(min(0.15, max(0.0, until - loop.time())))

    async def round(self, number: int) -> None:
        wiped = number % WIPE_EVERY == 0
        if wiped:
            shutil.rmtree(self.config.store.data_dir, ignore_errors=True)
        for _ in range(self.rng.randint(1, 4)):
            self.mutator.step()
        mode = "serve" if self.rng.random() < 0.25 else "index"
        full = self.rng.random() < 0.3
        kind = "serve" if mode == "serve" else "first build" if wiped else "full" if full else "incremental"
        stderr_path = self.workdir / "child.stderr"
        with open(stderr_path, "wb") as stderr:  # noqa: ASYNC230  (opening a local file does not block)
            child = await asyncio.create_subprocess_exec(
                *self._command(mode, full),
                cwd=REPO,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
            )
            try:
                await self._kill_at_random(child, kind, number)
            finally:
                if child.returncode is None:
                    child.kill()
                    await child.wait()
        await self._verify(number, kind)

    async def _kill_at_random(self, child: asyncio.subprocess.Process, kind: str, number: int) -> None:
        assert child.stdout is not None
        line = await asyncio.wait_for(child.stdout.readline(), READY_TIMEOUT_S)
        if line.strip() != b"READY":
            raise RuntimeError(f"round {number}: the child did not start: {line!r}")
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = self.rng.uniform(0.0, self.windows_s[kind])
        edits = self.rng.random() < 0.5 or kind == "serve"
        waiter = asyncio.ensure_future(child.wait())
        if edits:
            await self._edit_while(started + delay * self.rng.random())
        done, _ = await asyncio.wait({waiter}, timeout=max(0.0, started + delay - loop.time()))
        if done:
            code = waiter.result()
            self.result.finished_before_kill += 1
            self.result.finished_by_kind[kind] = self.result.finished_by_kind.get(kind, 0) + 1
            elapsed = loop.time() - started
            self.windows_s[kind] = min(10.0, max(0.3, 0.7 * self.windows_s[kind] + 0.3 * 1.15 * elapsed))
            if code != 0:
                stderr = (self.workdir / "child.stderr").read_text(errors="replace")[-2000:]
                self.result.divergences.append(f"round {number}: {kind} exited with {code}: {stderr}")
            return
        self.windows_s[kind] = min(10.0, self.windows_s[kind] * 1.03)
        with contextlib.suppress(ProcessLookupError):
            # The child may have exited (and been reaped) after the check above: then there is nothing to kill.
            child.send_signal(signal.SIGKILL)
        code = await asyncio.wait_for(waiter, RUN_TIMEOUT_S)
        if code == -signal.SIGKILL:
            self.result.kills += 1
            self.result.kills_by_kind[kind] = self.result.kills_by_kind.get(kind, 0) + 1
            self.result.kill_delays_s.append(loop.time() - started)
        else:  # it finished in the instant between the check and the signal
            self.result.finished_before_kill += 1

    async def _verify(self, number: int, kind: str) -> None:
        found = [f"unhealed manifest: {p}" for p in manifest_problems(self.config.store.data_dir)]
        before = vault_digest(self.vault)
        recovered_report = await index_once(self.config)
        found += report_problems(recovered_report, "restart")
        fresh_config, fresh_report = await fresh_rebuild(self.vault, self.fresh_root, self.url)
        found += report_problems(fresh_report, "fresh rebuild")
        recovered = await read_index(self.config.store.data_dir, self.config.ollama.embed_model, DIM)
        fresh = await read_index(fresh_config.store.data_dir, fresh_config.ollama.embed_model, DIM)
        found += divergences(recovered, fresh)
        if vault_digest(self.vault) != before:
            found.append("the vault changed during the restart or the rebuild")
        self.result.divergences.extend(f"round {number} ({kind}): {problem}" for problem in found)
        if found:
            self.log(f"round {number}: DIVERGED: {found}")


async def run_kill_loop(
    kills: int, seed: int, workdir: Path, log: Callable[[str], None] = print, max_rounds: int | None = None
) -> KillLoopResult:
    """Kills until `kills` SIGKILLs landed (or `max_rounds` rounds ran); returns the counts and divergences."""
    started = time.perf_counter()
    with FakeOllamaThread(FakeOllama(embed_delay_s=0.01)) as ollama:
        loop = KillLoop(workdir, seed, ollama.url, log)
        limit = max_rounds if max_rounds is not None else kills * 4
        while loop.result.kills < kills and loop.result.rounds < limit:
            await loop.round(loop.result.rounds)
            loop.result.rounds += 1
            if loop.result.rounds % 10 == 0:
                log(
                    f"round {loop.result.rounds}: {loop.result.kills} kills, "
                    f"{len(loop.result.divergences)} divergences, {time.perf_counter() - started:.0f} s"
                )
        loop.result.notes_at_end = len(note_paths(loop.vault))
        loop.result.edits = dict(loop.mutator.ops)
    loop.result.seconds = round(time.perf_counter() - started, 1)
    return loop.result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reliability.killloop", description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--workdir", type=Path, help="keep the vault and indexes here (default: a temp folder)")
    parser.add_argument("--json", type=Path, help="also write the result to this file")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        workdir = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="askvault-kill-")))
        workdir.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(run_kill_loop(args.kills, args.seed, workdir, log=lambda s: print(s, flush=True)))
    text = json.dumps(result.to_json(), indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    sys.exit(1 if result.divergences or result.kills < args.kills else 0)


if __name__ == "__main__":
    main()
