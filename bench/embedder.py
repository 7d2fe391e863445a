"""The `embedder` part: the built-in embedder against its ONNX floor and Ollama's HTTP API, on real chunks.

On the sample vault (and the corpus vaults under `--corpora`): first-index time through the real engine, then the
three paths over the same chunks (all, and by length band), a batch-size × threads sweep of the built-in path, the
RSS it adds, and query-embedding latency. The HTTP path runs only when a server answers at `--ollama-url`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from askvault.config import BuiltinEmbedParams
from askvault.embed.builtin_files import ALL_MINILM
from askvault.index.dense_sync import EMBED_BATCH
from bench.embedder_index import BUILTIN, IndexRun, first_index
from bench.embedder_speed import HTTP_MODEL, LONG_ABOVE, SHORT_BELOW, SampleSpec, log, measure, ratio, rotated
from bench.harness import NOWHERE
from bench.harness import in_fresh_process as fresh
from bench.minilm import answers

REPO = Path(__file__).resolve().parents[1]
SAMPLE_VAULT = REPO / "eval" / "sample-vault"
QUESTIONS = REPO / "eval" / "questions.jsonl"
DEFAULTS = BuiltinEmbedParams()


def _corpora_dir() -> Path | None:
    found = os.environ.get("CORPORA_DIR")
    return Path(found) if found else None


@dataclass(frozen=True)
class EmbedderOptions:
    vault: Path = SAMPLE_VAULT
    questions: Path = QUESTIONS
    corpora: Path | None = field(default_factory=_corpora_dir)
    """Folder holding the corpus vaults (eval/corpora/README.md); each of `corpus_vaults` in it is measured too."""
    corpus_vaults: tuple[str, ...] = ("de-wiki",)
    repeats: int = 3
    """Passes over the chunks per variant (the variants take turns)."""
    index_repeats: int = 3
    """First indexes per embedder, each in a fresh process."""
    batches: tuple[int, ...] = (1, 4, 8, 16, 32, 64)
    threads: tuple[int, ...] = (1, 2)
    memory_batches: tuple[int, ...] = (1, 4, 8, 16, 32, 64)
    query_calls: int = 200
    query_warmup: int = 20


def _questions(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [str(json.loads(line)["question"]) for line in lines if line.strip()]


def _first_indexes(vault: Path, work: Path, http_url: str | None, repeats: int) -> tuple[dict[str, object], list[str]]:
    """First indexes with each embedder, taking turns; their medians, the ratio, and the chunks the index holds."""
    models = {"builtin": (BUILTIN, NOWHERE)} | ({"http": (HTTP_MODEL, http_url)} if http_url else {})
    runs: dict[str, list[IndexRun]] = {name: [] for name in models}
    texts: list[str] = []
    for turn in range(repeats):
        for name in rotated(list(models), turn):
            log(f"first index of {vault.name} with {name} ({turn + 1}/{repeats})")
            run, texts = fresh(first_index, vault, work / f"{name}-{turn}", *models[name])
            runs[name].append(run)
    found: dict[str, object] = {name: _index_summary(done) for name, done in runs.items()}
    if "http" in runs:
        found["builtin_vs_http"] = ratio([r.seconds for r in runs["builtin"]], [r.seconds for r in runs["http"]])
    return found, texts


def _index_summary(runs: list[IndexRun]) -> dict[str, object]:
    seconds = statistics.median(r.seconds for r in runs)
    return {
        "notes": runs[0].notes,
        "chunks": runs[0].chunks,
        "seconds": round(seconds, 2),
        "chunks_per_s": round(runs[0].chunks / seconds, 1),
        "load_seconds": round(statistics.median(r.load_seconds for r in runs), 2),
        "embed_seconds": round(statistics.median(r.embed_seconds for r in runs), 2),
        "embed_share": round(statistics.median(r.embed_seconds / r.seconds for r in runs), 4),
        "load_share": round(statistics.median(r.load_seconds / r.seconds for r in runs), 4),
        "runs": [dataclasses.asdict(r) for r in runs],
    }


def _memory(texts: list[str], models_dir: Path, work: Path, batches: tuple[int, ...]) -> list[dict[str, object]]:
    """One fresh interpreter per reading (`bench.embedder_memory`): alone at each batch size; the floor (with and
    without graph optimisations) and the built-in embedder in the engine at the default batch."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    runs = [(batch, "alone") for batch in batches]
    runs += [(DEFAULTS.batch, mode) for mode in ("floor", "floor-noopt", "engine")]
    found: list[dict[str, object]] = []
    for batch, mode in runs:
        log(f"memory, {mode} at batch {batch}")
        spec = {"models_dir": str(models_dir), "texts": str(work / "texts.json"), "batch": batch,
                "threads": DEFAULTS.threads, "mode": mode}  # fmt: skip
        (work / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "bench.embedder_memory", str(work / "spec.json")],
            cwd=REPO, capture_output=True, text=True, check=True,
        )  # fmt: skip
        found.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return found


def _bands(texts: list[str]) -> dict[str, int]:
    short = sum(len(t) < SHORT_BELOW for t in texts)
    long = sum(len(t) > LONG_ABOVE for t in texts)
    return {"short": short, "medium": len(texts) - short - long, "long": long}


def run_embedder(options: EmbedderOptions, ollama_url: str, work: Path) -> dict[str, object]:
    """Every figure of the part; `work` holds copies of the vaults, the model folder and the indexes."""
    o = options
    http_url = ollama_url if answers(ollama_url) else None
    models_dir = work / "models"
    sources = [(o.vault.name, o.vault)]
    if o.corpora is not None:
        sources += [(name, o.corpora / name) for name in o.corpus_vaults if (o.corpora / name).is_dir()]
    result: dict[str, object] = {
        "model": f"{ALL_MINILM.name} int8 ONNX ({ALL_MINILM.key}), {ALL_MINILM.dimension}-d",
        "defaults": {"batch": DEFAULTS.batch, "threads": DEFAULTS.threads},
        "indexer_call": EMBED_BATCH,
        "repeats": o.repeats,
        "index_repeats": o.index_repeats,
        "bands_chars": {"short_below": SHORT_BELOW, "long_above": LONG_ABOVE},
        "http": {"url": ollama_url, "model": HTTP_MODEL, "ran": http_url is not None}
        | ({} if http_url else {"skipped": f"nothing answers at {ollama_url} (set OLLAMA_HOST or --ollama-url)"}),
    }
    vaults: list[dict[str, object]] = []
    for label, source in sources:
        vault = work / "vaults" / label
        shutil.copytree(source, vault)  # a copy: nothing here may write next to a vault it was only lent
        entry: dict[str, object] = {"label": label}
        entry["first_index"], texts = _first_indexes(vault, work / "index", http_url, o.index_repeats)
        entry["chunks"], entry["chars"], entry["band_chunks"] = len(texts), sum(map(len, texts)), _bands(texts)
        # The sweep and query latency on the sample vault only (the first): they say nothing per vault.
        sample = (
            None if vaults else SampleSpec(o.batches, o.threads, _questions(o.questions), o.query_calls, o.query_warmup)
        )
        speeds = fresh(measure, texts, models_dir, http_url, o.repeats, sample)
        if sample is not None:
            result["sweep"] = {"vault": label, **cast(dict[str, object], speeds.pop("sweep"))}
            result["query_ms"], result["query_calls"] = speeds.pop("query_ms"), o.query_calls
            result["memory"] = _memory(texts, models_dir, work / "memory", o.memory_batches)
        vaults.append(entry | speeds)
    result["vaults"] = vaults
    return result
