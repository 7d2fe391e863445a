"""The thread side of watching: the watchdog handler, the overflow signal, observer start/stop, folder listing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Final

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from askvault.index.changes import RawEvent, is_note_path, is_watched_dir

JOIN_TIMEOUT_S: Final = 10.0

# watchdog rebuilds its inotify watches after a kernel queue overflow but tells handlers nothing;
# its only signal is this warning (inotify_c.InotifyFD.handle_event), so we listen for it.
OVERFLOW_LOGGER: Final = "watchdog.observers.inotify_c"


class Overflow:
    """Queue marker: events were lost, reconcile now."""


OVERFLOW: Final = Overflow()

# Asked of the OS, so reads (ours included: the indexer opens every note) raise no events at all.
WANTED: Final[list[type[FileSystemEvent]]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileClosedEvent,
    FileMovedEvent,
    FileDeletedEvent,
    DirCreatedEvent,
    DirMovedEvent,
    DirDeletedEvent,
]

Item = FileSystemEvent | Overflow
Post = Callable[[Item], None]


class Forwarder(FileSystemEventHandler):
    """Runs on the observer thread: hands each event to the event loop and does nothing else."""

    def __init__(self, post: Post) -> None:
        self._post = post

    def dispatch(self, event: FileSystemEvent) -> None:
        self._post(event)


class OverflowListener(logging.Handler):
    """Turns watchdog's overflow warning (logged on its inotify thread) into an OVERFLOW item."""

    def __init__(self, post: Post) -> None:
        super().__init__(level=logging.WARNING)
        self._post = post

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" in record.getMessage().lower():
            self._post(OVERFLOW)


def threadsafe_poster(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[Item]) -> Post:
    def post(item: Item) -> None:
        # A closed loop means we are shutting down; raising here would kill watchdog's thread.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(queue.put_nowait, item)

    return post


def to_raw_event(event: FileSystemEvent) -> RawEvent:
    return RawEvent(
        kind=event.event_type,
        src_path=os.fsdecode(event.src_path),
        dest_path=os.fsdecode(event.dest_path),
        is_directory=event.is_directory,
    )


def list_notes(root: Path, rel_dir: str) -> list[str]:
    """Vault-relative paths of the notes under folder `rel_dir`, skipping hidden folders; [] if it is gone."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root / rel_dir):
        dirnames[:] = [d for d in dirnames if is_watched_dir(d)]
        base = Path(dirpath).relative_to(root).as_posix()
        found.extend(rel for name in filenames if is_note_path(rel := f"{base}/{name}"))
    return sorted(found)


def listen_for_overflow(post: Post) -> Callable[[], None]:
    """Start posting OVERFLOW when watchdog reports lost events; returns the function that stops it."""
    logger = logging.getLogger(OVERFLOW_LOGGER)
    if not logger.isEnabledFor(logging.WARNING):
        logger.setLevel(logging.WARNING)  # an app quieting logs must not also blind us to lost events
    listener = OverflowListener(post)
    logger.addHandler(listener)
    return lambda: logger.removeHandler(listener)


def root_identity(root: Path) -> tuple[int, int] | None:
    """(device, inode) of the vault folder, or None when it is missing or not a folder."""
    try:
        st = root.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if os.path.isdir(root) else None


def shutdown_observer(observer: BaseObserver) -> None:
    observer.stop()  # also stops watchdog's inotify reader thread, even if the observer never started
    with contextlib.suppress(RuntimeError):  # never started
        observer.join(JOIN_TIMEOUT_S)


def start_observer(root: Path, post: Post) -> tuple[BaseObserver, tuple[int, int]]:
    """Watch `root` recursively; returns the running observer and the folder's identity. Blocking."""
    identity = root_identity(root)
    if identity is None:
        raise FileNotFoundError(f"vault folder {root} is missing")
    observer = Observer()
    try:
        observer.schedule(Forwarder(post), str(root), recursive=True, event_filter=WANTED)
        observer.start()
    except BaseException:
        shutdown_observer(observer)
        raise
    return observer, identity
