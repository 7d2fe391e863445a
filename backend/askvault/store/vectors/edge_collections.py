"""The embedded store's collection folders: which are stored, which this process holds open, and dropping one."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from askvault.errors import StoreError
from askvault.store.vectors.payload import collection_of, storage_name

CONFIG_FILE = "edge_config.json"
"""The engine's file in every shard folder: a folder holding it is a stored collection."""

# Folders opened by this process: a second open would fail on the engine's lock, and dropping an open
# collection would pull the files from under it.
_open_paths: set[Path] = set()
_open_paths_lock = threading.Lock()


def claim(path: Path, collection: str) -> None:
    """Marks the shard folder `path` open in this process; refuses one already open."""
    with _open_paths_lock:
        if path in _open_paths:
            raise StoreError(f"vector collection {collection!r} at {path} is already open in this process")
        _open_paths.add(path)


def release(path: Path) -> None:
    """The shard folder `path` is closed (or failed to open): it may be opened or dropped again."""
    with _open_paths_lock:
        _open_paths.discard(path)


def list_collections(dir: Path) -> list[str]:
    """Names of the collections stored under `dir` (one per embedder fingerprint), sorted."""
    if not dir.is_dir():
        return []
    return sorted(collection_of(p.name) for p in dir.iterdir() if (p / CONFIG_FILE).is_file())


def drop_collection(dir: Path, name: str) -> bool:
    """Deletes a closed collection's folder; False when there was none. Refuses one open in this process."""
    path = (dir / storage_name(name)).resolve()
    with _open_paths_lock:
        if path in _open_paths:
            raise StoreError(f"vector collection {name!r} is open; close it before dropping it")
        if not path.exists():
            return False
        try:
            shutil.rmtree(path)
        except OSError as exc:
            raise StoreError(f"cannot delete vector collection {name!r} at {path}: {exc}") from exc
    return True
