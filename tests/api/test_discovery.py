"""`sidecar.json`: written atomically and privately, read back, stale or malformed files ignored."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from askvault import API_VERSION
from askvault.api.discovery import (
    DISCOVERY_FILE,
    Discovery,
    pid_alive,
    read_discovery,
    remove_discovery,
    write_discovery,
)


def _dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    return int(child.stdout)


def test_written_and_read_back(tmp_path: Path) -> None:
    path = write_discovery(tmp_path / "data", "127.0.0.1", 27582, os.getpid(), "0.1.0")
    assert path == tmp_path / "data" / DISCOVERY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {
        "host": "127.0.0.1",
        "port": 27582,
        "pid": os.getpid(),
        "version": "0.1.0",
        "api_version": API_VERSION,
    }
    assert read_discovery(tmp_path / "data") == Discovery("127.0.0.1", 27582, os.getpid(), "0.1.0", API_VERSION)
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [DISCOVERY_FILE]


def test_rewrite_replaces(tmp_path: Path) -> None:
    write_discovery(tmp_path, "127.0.0.1", 1000, os.getpid(), "0.1.0")
    write_discovery(tmp_path, "127.0.0.1", 2000, os.getpid(), "0.1.0")
    found = read_discovery(tmp_path)
    assert found is not None
    assert found.port == 2000


def test_a_dead_pid_is_stale(tmp_path: Path) -> None:
    write_discovery(tmp_path, "127.0.0.1", 27582, _dead_pid(), "0.1.0")
    assert read_discovery(tmp_path) is None


def test_missing_is_none(tmp_path: Path) -> None:
    assert read_discovery(tmp_path) is None


def test_the_good_row_is_found(tmp_path: Path) -> None:
    path = tmp_path / DISCOVERY_FILE
    path.write_text(json.dumps(GOOD))
    path.chmod(0o600)
    assert read_discovery(tmp_path) == Discovery("127.0.0.1", 27582, os.getpid(), "0.1.0", 1)


GOOD = {"host": "127.0.0.1", "port": 27582, "pid": os.getpid(), "version": "0.1.0", "api_version": 1}


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[]",
        json.dumps({**GOOD, "pid": 0}),
        json.dumps({**GOOD, "pid": -1}),
        json.dumps({**GOOD, "pid": "PID"}),
        json.dumps({**GOOD, "pid": True}),
        json.dumps({**GOOD, "port": 0}),
        json.dumps({**GOOD, "port": 70000}),
        json.dumps({**GOOD, "host": ""}),
        json.dumps({k: v for k, v in GOOD.items() if k != "version"}),
    ],
    ids=[
        "text",
        "array",
        "pid-0",
        "pid-negative",
        "pid-string",
        "pid-bool",
        "port-0",
        "port-big",
        "host",
        "no-version",
    ],
)
def test_malformed_is_ignored(tmp_path: Path, content: str) -> None:
    # (GOOD itself, written by this live process, would be found: each row breaks exactly one thing.)
    path = tmp_path / DISCOVERY_FILE
    path.write_text(content)
    path.chmod(0o600)
    assert read_discovery(tmp_path) is None


def test_a_readable_file_is_ignored(tmp_path: Path) -> None:
    path = write_discovery(tmp_path, "127.0.0.1", 27582, os.getpid(), "0.1.0")
    path.chmod(0o644)
    assert read_discovery(tmp_path) is None


def test_remove_only_our_own(tmp_path: Path) -> None:
    write_discovery(tmp_path, "127.0.0.1", 27582, os.getpid(), "0.1.0")
    remove_discovery(tmp_path, pid=os.getpid() + 1)
    assert read_discovery(tmp_path) is not None
    remove_discovery(tmp_path, pid=os.getpid())
    assert not (tmp_path / DISCOVERY_FILE).exists()
    remove_discovery(tmp_path)  # already gone: fine


# "self" is read when the test runs, so the ids are the same in every collecting process (pytest-xdist).
@pytest.mark.parametrize(("pid", "alive"), [(0, False), (-1, False), ("self", True), (1, True)])
def test_pid_alive(pid: int | str, alive: bool) -> None:
    assert pid_alive(os.getpid() if pid == "self" else int(pid)) is alive
