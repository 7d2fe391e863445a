"""`askvault eval`'s record of a run: the date, the code it ran (version, git commit) and every parameter."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import askvault
from askvault.config import Config
from askvault.evaluate.metrics import JsonValue
from askvault.index.report import IndexReport


def _git_commit() -> tuple[str | None, bool | None]:
    """(HEAD commit, whether tracked files differ from it) of the checkout askvault runs from, if it is one."""
    root = Path(askvault.__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None, None
    return head or None, bool(status)


def run_meta(
    config: Config,
    questions_file: Path,
    report: IndexReport,
    ks: tuple[int, ...],
    modes: tuple[str, ...],
    embed_model: str,
    embedder: str,
) -> dict[str, JsonValue]:
    """What a run's JSON records about itself: when, which code (commit, and whether it had local changes), which
    vault, questions, embedder and parameters, so two runs can be told apart and repeated."""
    commit, dirty = _git_commit()
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "askvault": askvault.__version__,
        "commit": commit,
        "commit_dirty": dirty,
        "vault": str(config.vault.root),
        "questions_file": str(questions_file),
        "embed_model": embed_model,
        "embedder": embedder,
        "ks": list(ks),
        "modes": list(modes),
        "notes": report.notes,
        "chunks": report.chunks,
        "dense_k": config.retrieval.dense_k,
        "keyword_k": config.retrieval.keyword_k,
        "rrf_k": config.retrieval.rrf_k,
        "chunk_params": {f: getattr(config.chunk, f) for f in config.chunk.__dataclass_fields__},
        "retrieval_params": {f: getattr(config.retrieval, f) for f in config.retrieval.__dataclass_fields__},
    }
