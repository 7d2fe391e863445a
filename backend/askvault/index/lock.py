"""One writer per vault across processes: an OS file lock in the data dir."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from filelock import FileLock, Timeout

from askvault.errors import IndexLocked

LOCK_NAME = "index.lock"
OWNER_NAME = "index.owner"


class IndexLock:
    """Held for as long as a process may write the index (all of `serve`, or one `index` run).

    The OS drops the lock when the process dies, so a crash never leaves the vault locked.
    """

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._dir = data_dir
        self._lock = FileLock(str(data_dir / LOCK_NAME), timeout=0)

    def acquire(self) -> None:
        try:
            self._lock.acquire()
        except Timeout:
            owner = self._owner()
            raise IndexLocked(
                "another Ask Vault process is using this vault's index"
                + (f" (pid {owner})" if owner else "")
                + "; stop it or talk to the running sidecar instead"
            ) from None
        (self._dir / OWNER_NAME).write_text(str(os.getpid()), encoding="utf-8")

    def release(self) -> None:
        if self._lock.is_locked:
            (self._dir / OWNER_NAME).unlink(missing_ok=True)
            self._lock.release()

    def _owner(self) -> str | None:
        try:
            return (self._dir / OWNER_NAME).read_text(encoding="utf-8").strip() or None
        except OSError:
            return None

    def __enter__(self) -> IndexLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
