"""The built-in model's prepared folder: folded in a child process once, checked on every load, mended or bypassed."""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import pytest

from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.builtin_files import ALL_MINILM, model_folder, sha256_of
from askvault.embed.builtin_prepared import DATA_SUFFIX, prepared_folder

TEXTS = ["Recurring tasks repeat on the schedule in their recurrence rule.", "short", "a data lake stores raw files"]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


async def vectors_from(folder: Path, models_dir: Path) -> list[list[float]]:
    embedder = BuiltinEmbedder(models_dir)
    model = embedder._open(folder)  # the folder as given, prepared or not
    return embedder._embed_sorted(model, TEXTS)


def test_made_once_with_folded_weights_beside_the_graph(tmp_path: Path) -> None:
    verified = model_folder(ALL_MINILM, tmp_path)
    prepared = prepared_folder(ALL_MINILM, verified)
    assert prepared is not None
    assert prepared.parent == verified
    graph, weights = prepared / ALL_MINILM.onnx_file, prepared / (ALL_MINILM.onnx_file + DATA_SUFFIX)
    # The weights are float now (about 4× the int8 file) and live apart from the graph, so they can be mapped.
    assert weights.stat().st_size > 3 * (verified / ALL_MINILM.onnx_file).stat().st_size
    assert graph.stat().st_size < 1_000_000
    for file in ALL_MINILM.files[1:]:
        assert sha256_of(prepared / file.name) == file.sha256
    made = weights.stat().st_mtime_ns
    assert prepared_folder(ALL_MINILM, verified) == prepared
    assert weights.stat().st_mtime_ns == made, "an intact prepared folder is used as it is"


async def test_the_same_vectors_as_the_shipped_model(tmp_path: Path) -> None:
    verified = model_folder(ALL_MINILM, tmp_path)
    prepared = prepared_folder(ALL_MINILM, verified)
    assert prepared is not None
    for a, b in zip(await vectors_from(prepared, tmp_path), await vectors_from(verified, tmp_path), strict=True):
        assert cosine(a, b) > 0.99999


async def test_damaged_weights_are_made_again(tmp_path: Path) -> None:
    verified = model_folder(ALL_MINILM, tmp_path)
    prepared = prepared_folder(ALL_MINILM, verified)
    assert prepared is not None
    weights = prepared / (ALL_MINILM.onnx_file + DATA_SUFFIX)
    good = sha256_of(weights)
    with weights.open("r+b") as handle:  # flipped bytes that would load and give wrong vectors
        handle.seek(4096)
        handle.write(b"\xff" * 64)
    assert prepared_folder(ALL_MINILM, verified) == prepared
    assert sha256_of(weights) == good
    embedder = BuiltinEmbedder(tmp_path)
    assert len(await embedder.embed_query("still works")) == 384


async def test_a_folder_that_cannot_be_made_falls_back_to_the_shipped_model(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    verified = model_folder(ALL_MINILM, tmp_path)
    prepared = prepared_folder(ALL_MINILM, verified)
    assert prepared is not None
    for path in prepared.iterdir():
        path.unlink()
    prepared.rmdir()
    prepared.write_text("a file where the prepared folder goes", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="askvault.embed.builtin_prepared"):
        assert prepared_folder(ALL_MINILM, verified) is None
        vectors = await BuiltinEmbedder(tmp_path).embed_documents(TEXTS)
    assert [len(v) for v in vectors] == [384, 384, 384]
    assert any("loads its model unprepared" in r.getMessage() for r in caplog.records)
    assert not [p for p in verified.iterdir() if p.name.endswith(".partial")], "no half-made folder is left behind"


async def test_a_prepared_model_that_will_not_load_is_discarded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    verified = model_folder(ALL_MINILM, tmp_path)
    prepared = prepared_folder(ALL_MINILM, verified)
    assert prepared is not None
    # A graph that matches its manifest but is not ONNX (a runtime that wrote something it cannot read back).
    (prepared / ALL_MINILM.onnx_file).write_bytes(b"not a graph" * 50)
    manifest_path = prepared / "prepared.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["files"][ALL_MINILM.onnx_file] = sha256_of(prepared / ALL_MINILM.onnx_file)
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="askvault.embed.builtin"):
        vector = await BuiltinEmbedder(tmp_path).embed_query("falls back")
    assert len(vector) == 384
    assert any("prepared model did not load" in r.getMessage() for r in caplog.records)
    assert not prepared.exists(), "made again on the next load"
