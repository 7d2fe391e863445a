"""The built-in model prepared once for loading: its int8 weights folded to float in a child process, kept on disk.

Why: the shipped model stores its weights as int8 and casts them to float inside the graph. ONNX Runtime folds
those casts while it loads, and for a moment holds the int8 graph, the folded float weights and the session's copy
of them at once (about 215 MB added RSS for a 23 MB file). Folding once in a child process and saving the result
with its weights in a separate file lets every later load map that file instead: about 130 MB added at the peak,
the same vectors (largest difference 7e-6), the same speed (bench/README.md, "The built-in embedder").
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

from askvault.embed.builtin_files import BuiltinModel, sha256_of

log = logging.getLogger(__name__)

DATA_SUFFIX = ".data"
"""The folded weights live in `<onnx file>.data`, named inside the graph, so the folder can be loaded as is."""
_MANIFEST = "prepared.json"
_TIMEOUT_S = 300.0


def _runtime_version() -> str:
    try:
        return importlib.metadata.version("onnxruntime")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _manifest(folder: Path, model: BuiltinModel) -> dict[str, str]:
    """What a complete prepared folder holds: every file's SHA-256, the source model's and the runtime's version."""
    names = [file.name for file in model.files] + [model.onnx_file + DATA_SUFFIX]
    return {name: sha256_of(folder / name) for name in names}


def _intact(folder: Path, model: BuiltinModel, source_sha: str) -> bool:
    try:
        recorded = json.loads((folder / _MANIFEST).read_text(encoding="utf-8"))
        return bool(recorded.get("source") == source_sha and recorded.get("files") == _manifest(folder, model))
    except (OSError, ValueError, AttributeError):
        return False


def _fold(source: Path, target: Path) -> None:
    """Runs `python -m askvault.embed.fold` so that the folding's memory peak is the child's, never the caller's."""
    done = subprocess.run(  # our own interpreter and module, on paths we made
        [sys.executable, "-m", "askvault.embed.fold", str(source), str(target)],
        capture_output=True,
        text=True,
        timeout=_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        lines = (done.stderr or done.stdout or f"exit status {done.returncode}").strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"exit status {done.returncode}")


def prepared_folder(model: BuiltinModel, verified: Path) -> Path | None:
    """The folder to load: `verified`'s model with its weights folded, made on first use and checked on every use.

    `verified` is model_folder's result (every file matches its pin). Returns None when the folder cannot be made
    here (no writable disk, the child failed); the caller then loads `verified` itself, which works and only costs
    memory, so a warning is logged and nothing is raised.
    """
    source_sha = model.files[0].sha256
    folder = verified / f"prepared-onnxruntime-{_runtime_version()}"
    if _intact(folder, model, source_sha):
        return folder
    partial = verified / f".prepared.{os.getpid()}.partial"
    try:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(mode=0o700)
        _fold(verified / model.onnx_file, partial / model.onnx_file)
        for file in model.files[1:]:
            shutil.copyfile(verified / file.name, partial / file.name)
        manifest = {"source": source_sha, "onnxruntime": _runtime_version(), "files": _manifest(partial, model)}
        (partial / _MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if not _intact(folder, model, source_sha):  # another process (the CLI beside the sidecar) may have won
            shutil.rmtree(folder, ignore_errors=True)
            os.replace(partial, folder)
    except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
        if _intact(folder, model, source_sha):
            shutil.rmtree(partial, ignore_errors=True)
            return folder
        log.warning(
            "The built-in embedder loads its model unprepared, which takes about 90 MB more memory: %s could not "
            "be made (%s)",
            folder,
            exc,
        )
        shutil.rmtree(partial, ignore_errors=True)
        return None
    shutil.rmtree(partial, ignore_errors=True)
    return folder


def discard(folder: Path) -> None:
    """Removes a prepared folder that failed to load, so the next start makes it again."""
    shutil.rmtree(folder, ignore_errors=True)
