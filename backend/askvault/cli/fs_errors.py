"""File-system failures (a data folder that cannot be created, a read-only index folder…) as one sentence each."""

from __future__ import annotations

import contextvars
import errno
import os
from pathlib import Path

from askvault.config.data_dir import blocking_file
from askvault.errors import AskVaultError, DataDirUnusable

DATA_ROOT: contextvars.ContextVar[Path | None] = contextvars.ContextVar("askvault_data_root", default=None)
"""The data root of the command running in this context, set once its configuration is built: a failure under it
is the data folder's, and its fix is write access or another --data-dir."""

_NO_WRITE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})


def _nearest_existing(path: Path) -> Path:
    return next((p for p in (path, *path.parents) if p.exists()), path)


def _related(path: Path, root: Path) -> bool:
    return path == root or root in path.parents or path in root.parents


def os_error(exc: OSError) -> AskVaultError | None:
    """The sentence for an OSError that names a file; None for one that names none (a socket, a pipe)."""
    if exc.filename is None:
        return None
    path = Path(os.fsdecode(exc.filename))
    reason = os.strerror(exc.errno).lower() if exc.errno else str(exc)
    root = DATA_ROOT.get()
    if root is None or not _related(path, root):
        return AskVaultError(
            f"cannot use {path} ({reason}); check that it exists and that your user may read and write it"
        )
    blocker = blocking_file(path)
    # A read-only file is the path itself; a file in the way is a parent, or the path when a folder was wanted.
    if blocker is not None and (blocker != path or isinstance(exc, NotADirectoryError | FileExistsError)):
        return DataDirUnusable(
            f"cannot create the data folder in {root}: {blocker} is a file, not a folder; "
            "pass --data-dir a folder you can write (or move that file away)"
        )
    if exc.errno == errno.EISDIR:
        return DataDirUnusable(
            f"cannot write {path} in the data folder: it is a folder where Ask Vault keeps a file; remove that "
            "folder or pass --data-dir a folder you can write"
        )
    if exc.errno in _NO_WRITE:
        # A read-only index folder fails on its first file (the lock); the fix is the folder, not that one file.
        folder = path.parent if path.is_file() else _nearest_existing(path)
        return DataDirUnusable(
            f"cannot write {path} in the data folder ({reason}); give your user write access to {folder} (and the "
            "files in it) or pass --data-dir a folder you can write"
        )
    fix = "free some space there" if exc.errno in _FULL else "check that disk"
    return DataDirUnusable(
        f"cannot write {path} in the data folder ({reason}); {fix} or pass --data-dir a folder you can write"
    )
