"""Owner-only files in the per-vault data folder: created at mode 0600 from the first byte, replaced atomically."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from askvault.errors import ConfigError

POSIX = os.name == "posix"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def ensure_private_dir(path: Path) -> None:
    """Creates the folder (0700) or tightens it; refuses one owned by someone else."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not POSIX:
        return
    info = path.stat()
    if info.st_uid != os.getuid():
        raise ConfigError("--data-dir: the data folder belongs to another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        path.chmod(0o700)


def write_private(path: Path, data: bytes, *, replace: bool = True) -> bool:
    """Writes `data` to `path` (mode 0600) so readers see the old file or the whole new one, never a part.

    The temporary file is created 0600 with O_EXCL, so no moment exists with wider permissions. With
    `replace=False` an existing file wins: returns False and leaves it alone.
    """
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    try:
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


class NotPrivate(Exception):
    """The file is there but is not a regular file of ours that only we can read, within the size given."""


def read_private_file(path: Path, max_bytes: int) -> tuple[bytes, os.stat_result] | None:
    """The file's bytes and the `fstat` of exactly the file they were read from; None when there is no file.

    NotPrivate when it cannot be read, is too big, is not a regular file (a symlink included), is someone else's,
    or others may read it."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise NotPrivate(str(exc)) from exc
    try:
        # fstat of the open file, not stat of the path: a writer may replace the path between the two.
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            raise NotPrivate("not a regular file within the size limit")
        if POSIX and (info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) & 0o077):
            raise NotPrivate("not ours, or readable by others")
        return os.read(fd, max_bytes + 1)[:max_bytes], info
    except OSError as exc:
        raise NotPrivate(str(exc)) from exc
    finally:
        os.close(fd)


def read_private(path: Path, max_bytes: int) -> bytes | None:
    """The file's bytes if it is a regular file of ours that nobody else can read; None otherwise."""
    try:
        found = read_private_file(path, max_bytes)
    except NotPrivate:
        return None
    return None if found is None else found[0]
