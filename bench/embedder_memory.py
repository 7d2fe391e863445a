"""RSS added by the built-in embedder, read in a fresh interpreter: `python -m bench.embedder_memory SPEC.json`.

Run as a subprocess of its own (not a spawned pool worker, which re-imports the whole suite) so that the first
reading is taken before fastembed and ONNX Runtime are imported. Modes: `alone` (the built-in embedder in a bare
interpreter), `engine` (`askvault.wiring` imported first: the sidecar has then already loaded fastembed and ONNX
Runtime, which qdrant-client imports, and what is left to add is the model itself), `floor` (the ONNX floor,
bench/embedder_floor.py, in a bare interpreter: what the model costs with nothing around it), `floor-noopt` (the
same without graph optimisations).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path

from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.builtin_files import ALL_MINILM, model_folder
from askvault.index.dense_sync import EMBED_BATCH

_FIELDS = ("VmRSS", "VmHWM", "RssAnon", "RssFile")


def status() -> dict[str, float]:
    """VmRSS, VmHWM, RssAnon and RssFile in MB (bench.harness has the same, but importing it loads the engine)."""
    found: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as lines:
        for line in lines:
            key, _, value = line.partition(":")
            if key in _FIELDS:
                found[key] = round(int(value.split()[0]) / 1024, 1)
    return found


def _floor(
    models_dir: Path, texts: list[str], batch: int, threads: int, optimise: bool
) -> tuple[dict[str, float], dict[str, float]]:
    floor_module = importlib.import_module("bench.embedder_floor")  # not at the top: it imports ONNX Runtime
    folder = model_folder(ALL_MINILM, models_dir)
    floor = floor_module.OnnxFloor(folder, ALL_MINILM.onnx_file, threads, optimise=optimise)
    loaded = status()
    for start in range(0, len(texts), EMBED_BATCH):
        floor.embed(texts[start : start + EMBED_BATCH], batch)
    return loaded, status()


async def _load_and_embed(
    models_dir: Path, texts: list[str], batch: int, threads: int
) -> tuple[dict[str, float], dict[str, float]]:
    embedder = BuiltinEmbedder(models_dir, threads=threads, batch=batch)
    try:
        await embedder.dimension()
        loaded = status()
        for start in range(0, len(texts), EMBED_BATCH):  # as the indexer calls it
            await embedder.embed_documents(texts[start : start + EMBED_BATCH])
        return loaded, status()
    finally:
        await embedder.aclose()


def measure(models_dir: Path, texts: list[str], batch: int, threads: int, mode: str) -> dict[str, object]:
    steps: dict[str, dict[str, float]] = {}
    if mode == "engine":
        importlib.import_module("askvault.wiring")
    loaded_before = sorted(m for m in ("fastembed", "onnxruntime") if m in sys.modules)
    steps["before"] = status()
    # What the first use imports: fastembed (which imports ONNX Runtime), or ONNX Runtime and tokenizers alone.
    floor = mode.startswith("floor")
    for module in ("onnxruntime", "tokenizers") if floor else ("fastembed",):
        importlib.import_module(module)
    steps["imported"] = status()
    if floor:
        steps["loaded"], steps["embedded"] = _floor(models_dir, texts, batch, threads, mode != "floor-noopt")
    else:
        steps["loaded"], steps["embedded"] = asyncio.run(_load_and_embed(models_dir, texts, batch, threads))
    base = steps["before"]["VmRSS"]
    return {
        "label": f"{mode}-b{batch}",
        "mode": mode,
        "loaded_before_first_reading": loaded_before,
        "batch": batch,
        "threads": threads,
        "chunks": len(texts),
        "steps_mb": steps,
        "added_by_import_mb": round(steps["imported"]["VmRSS"] - base, 1),
        "added_after_load_mb": round(steps["loaded"]["VmRSS"] - base, 1),
        "added_after_embedding_mb": round(steps["embedded"]["VmRSS"] - base, 1),
        "added_peak_mb": round(steps["embedded"]["VmHWM"] - base, 1),
    }


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    texts = json.loads(Path(spec["texts"]).read_text(encoding="utf-8"))
    result = measure(Path(spec["models_dir"]), texts, int(spec["batch"]), int(spec["threads"]), str(spec["mode"]))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
