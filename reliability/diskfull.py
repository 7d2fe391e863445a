"""`python -m reliability.diskfull`: a real ENOSPC. The index lives on a tiny tmpfs (needs root to mount one).

For each size: `askvault index` (a child process, so a crash shows as a signal) must exit normally with the
failing notes reported and dense search off with a sentence saying why; after the tmpfs is enlarged, the
next run must finish everything and equal a fresh rebuild.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from reliability.engine_runs import DIM, child_env, fresh_rebuild, make_config
from reliability.fake_ollama import FakeOllamaThread
from reliability.snapshot import divergences, read_index
from reliability.vault import REPO, copy_sample_vault

SIZES_MIB = (1, 8, 66)


def _index(workdir: Path, vault: Path, data_root: Path, url: str) -> tuple[int, dict[str, object] | None, str]:
    command = [sys.executable, "-m", "reliability.child", "index", "--vault", str(vault)]
    command += ["--data-dir", str(data_root), "--ollama-url", url, "--json"]
    done = subprocess.run(command, cwd=REPO, env=child_env(workdir), capture_output=True, text=True, timeout=600)
    text = done.stdout.split("READY", 1)[-1]
    try:
        report = json.loads(text)
    except ValueError:
        report = None
    return done.returncode, report, done.stderr[-500:]


def scenario(workdir: Path, size_mib: int, url: str) -> dict[str, object]:
    vault = copy_sample_vault(workdir / f"vault-{size_mib}")
    mount = workdir / f"tmpfs-{size_mib}"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(mount)], check=True)
    try:
        code, report, stderr = _index(workdir, vault, mount, url)
        full: dict[str, object] = {"exit": code, "stderr_tail": stderr if code else ""}
        if report is not None:
            failed = report.get("failed")
            full |= {
                "failed_notes": len(failed) if isinstance(failed, list) else None,
                "failure_sample": failed[0] if isinstance(failed, list) and failed else None,
                "indexed": report.get("indexed"),
                "dense": report.get("dense"),
                "dense_problem": report.get("dense_problem"),
            }
        subprocess.run(["mount", "-o", "remount,size=512m", str(mount)], check=True)
        code2, report2, stderr2 = _index(workdir, vault, mount, url)
        after: dict[str, object] = {"exit": code2, "stderr_tail": stderr2 if code2 else ""}
        if report2 is not None:
            failed2 = report2.get("failed")
            after |= {
                "failed_notes": len(failed2) if isinstance(failed2, list) else None,
                "dense": report2.get("dense"),
            }
        config = make_config(vault, mount, url)
        fresh_config, _ = asyncio.run(fresh_rebuild(vault, workdir / f"fresh-{size_mib}", url))
        model = config.ollama.embed_model
        found = divergences(
            asyncio.run(read_index(config.store.data_dir, model, DIM)),
            asyncio.run(read_index(fresh_config.store.data_dir, model, DIM)),
        )
        return {"tmpfs_mib": size_mib, "while_full": full, "after_space_freed": after, "divergences": found}
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reliability.diskfull", description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print(json.dumps({"skipped": "mounting a tmpfs needs root; tests/faults/test_disk_full.py still runs"}))
        return
    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="askvault-diskfull-") as tmp, FakeOllamaThread() as ollama:
        for size in SIZES_MIB:
            results.append(scenario(Path(tmp), size, ollama.url))
            print(json.dumps(results[-1], indent=2), flush=True)
    ok = all(
        r["divergences"] == []
        and isinstance(r["while_full"], dict)
        and r["while_full"]["exit"] == 0
        and isinstance(r["after_space_freed"], dict)
        and r["after_space_freed"]["exit"] == 0
        for r in results
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
