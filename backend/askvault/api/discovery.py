"""`sidecar.json`: where a running sidecar listens, for the plugin and the CLI; stale files are ignored."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from askvault import API_VERSION
from askvault.api.private_files import ensure_private_dir, read_private, write_private
from askvault.errors import ConfigError

DISCOVERY_FILE = "sidecar.json"


@dataclass(frozen=True, slots=True)
class Discovery:
    host: str
    port: int
    pid: int
    version: str
    api_version: int


def write_discovery(data_dir: Path, host: str, port: int, pid: int, version: str) -> Path:
    """Writes the file atomically (mode 0600): a reader sees the previous file or this one, never a part."""
    ensure_private_dir(data_dir)
    path = data_dir / DISCOVERY_FILE
    record = Discovery(host=host, port=port, pid=pid, version=version, api_version=API_VERSION)
    write_private(path, (json.dumps(asdict(record)) + "\n").encode("utf-8"))
    return path


def remove_discovery(data_dir: Path, pid: int | None = None) -> None:
    """Removes the file; with `pid`, only when that process wrote it (never another sidecar's)."""
    path = data_dir / DISCOVERY_FILE
    if pid is not None:
        current = _parse(path)
        if current is None or current.pid != pid:
            return
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def read_discovery(data_dir: Path) -> Discovery | None:
    """The running sidecar's record; None when missing, malformed, or its process is gone."""
    found = _parse(data_dir / DISCOVERY_FILE)
    return found if found is not None and pid_alive(found.pid) else None


def find_compatible(data_dir: Path) -> Discovery | None:
    """The running sidecar's record for a client of this version: its host one a client can dial (loopback for a
    wildcard bind, no IPv6 brackets); None when none runs; ConfigError when it speaks another API version."""
    found = read_discovery(data_dir)
    if found is None:
        return None
    if found.api_version != API_VERSION:
        raise ConfigError(
            f"the running sidecar (pid {found.pid}) speaks API version {found.api_version}, this askvault speaks "
            f"{API_VERSION}; run the same askvault version for both"
        )
    host = found.host.strip("[]")
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"  # bound to every address: talk to it on loopback
    return replace(found, host=host)


def _parse(path: Path) -> Discovery | None:
    raw = read_private(path, 4096)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    host, version = data.get("host"), data.get("version")
    port, pid, api_version = _int(data.get("port")), _int(data.get("pid")), _int(data.get("api_version"))
    if not (isinstance(host, str) and host and isinstance(version, str) and api_version is not None):
        return None
    if port is None or not 0 < port < 65536 or pid is None or pid <= 0:
        return None
    return Discovery(host=host, port=port, pid=pid, version=version, api_version=api_version)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists. Never signals anything (pid ≤ 0 would address groups)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        synchronize, still_active = 0x00100000, 0x102
        handle = ctypes.windll.kernel32.OpenProcess(synchronize, False, pid)
        if not handle:
            return False
        try:
            return bool(ctypes.windll.kernel32.WaitForSingleObject(handle, 0) == still_active)
        finally:
            ctypes.windll.kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
