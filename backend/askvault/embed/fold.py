"""The child process that folds the built-in model's weights: `python -m askvault.embed.fold <model.onnx> <target>`.

ONNX Runtime does the folding itself (basic graph optimisations, which are portable) and saves the resulting graph,
its weights in `<target>.data` beside it. Run apart from the sidecar so that its memory peak is not the sidecar's.
"""

from __future__ import annotations

import sys
from pathlib import Path

_MIN_EXTERNAL_BYTES = 1024
"""Every weight larger than this goes into the `.data` file, which ONNX Runtime maps instead of copying."""


def fold(source: Path, target: Path) -> None:
    import onnxruntime as ort  # type: ignore[import-untyped]  # ships no type stubs

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(target)
    options.add_session_config_entry("session.optimized_model_external_initializers_file_name", target.name + ".data")
    options.add_session_config_entry(
        "session.optimized_model_external_initializers_min_size_in_bytes", str(_MIN_EXTERNAL_BYTES)
    )
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
    if not target.is_file() or not target.with_name(target.name + ".data").is_file():
        raise RuntimeError(f"ONNX Runtime did not write {target} and its weights")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m askvault.embed.fold <model.onnx> <target.onnx>", file=sys.stderr)
        return 2
    try:
        fold(Path(argv[0]), Path(argv[1]))
    except Exception as exc:  # one line for the parent, whatever ONNX Runtime raised
        print(f"{type(exc).__name__}: {exc}".replace("\n", " "), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
