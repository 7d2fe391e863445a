"""Whether the data folder can exist where it is configured, said before anything tries to create it."""

from __future__ import annotations

from pathlib import Path

from askvault.errors import DataDirUnusable


def blocking_file(path: Path) -> Path | None:
    """The file (not a folder) that `path` or one of its parents is, which no mkdir can get past; None if none."""
    for candidate in (path, *path.parents):
        # exists() is False below a file (ENOTDIR), so the first existing one decides.
        if candidate.exists():
            return None if candidate.is_dir() else candidate
    return None


def check_data_dir(data_dir: Path, source: str) -> None:
    """Refuses a vault's data folder that is, or lies under, a file: every command would fail creating it."""
    blocker = blocking_file(data_dir)
    if blocker is not None:
        raise DataDirUnusable(
            f"{source}: {blocker} is a file, not a folder, so the index cannot live in {data_dir}; "
            "pass --data-dir a folder you can write (or move that file away)"
        )
