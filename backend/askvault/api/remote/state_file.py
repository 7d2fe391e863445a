"""The remote folder's small JSON files: bounded reads with a change stamp, atomic 0600 writes, a shared lock."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock, Timeout

from askvault.api.private_files import NotPrivate, ensure_private_dir, read_private_file, write_private
from askvault.errors import ConfigError

Stamp = tuple[int, int, int]
"""(st_mtime_ns, st_size, st_ino): a replaced file gets a new inode, so even a same-size write within the
filesystem's time granularity is seen."""

MAX_BYTES = 1 << 20
LOCK_TIMEOUT_S = 10.0


class Unreadable(Exception):
    """The file exists but is not something we wrote: unreadable, too big, not ours or readable by others, or not
    JSON."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def parse_iso(text: object) -> datetime:
    """An ISO-8601 time with an offset, as UTC; ValueError for anything else (a naive time is ambiguous)."""
    if not isinstance(text, str):
        raise ValueError("not a string")
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError("no offset")
    return moment.astimezone(UTC)


def stamp_of(path: Path) -> Stamp | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Unreadable(str(exc)) from exc
    return (info.st_mtime_ns, info.st_size, info.st_ino)


def read_json(path: Path) -> tuple[object | None, Stamp | None]:
    """The parsed file and the stamp of exactly the bytes parsed; (None, None) when there is no file."""
    try:
        found = read_private_file(path, MAX_BYTES)
    except NotPrivate as exc:
        raise Unreadable(str(exc)) from exc
    if found is None:
        return None, None
    raw, info = found
    try:
        data: object = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise Unreadable(str(exc)) from exc
    return data, (info.st_mtime_ns, info.st_size, info.st_ino)


def write_json(path: Path, data: object) -> Stamp | None:
    """Replaces the file atomically (0600); returns its new stamp so the writer need not read it back."""
    ensure_private_dir(path.parent)
    write_private(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return stamp_of(path)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Held around every read-modify-write of `path`, so the CLI and the running sidecar never lose each other's
    changes (an OS lock: a crashed holder releases it)."""
    ensure_private_dir(path.parent)
    lock = FileLock(str(path.with_name(path.name + ".lock")), timeout=LOCK_TIMEOUT_S, mode=0o600)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigError(
            f"another Ask Vault process has held {path.name}'s lock for over {LOCK_TIMEOUT_S:.0f} s; try again"
        ) from None
    try:
        yield
    finally:
        lock.release()
