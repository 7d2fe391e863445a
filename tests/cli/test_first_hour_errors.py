"""A data folder that cannot be created or written: one sentence naming the path and the fix, a non-zero exit, for
every command (issue #33)."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path

import pytest

from askvault.cli.fs_errors import DATA_ROOT, os_error
from askvault.cli.options import EXIT_CONFIG
from askvault.errors import AskVaultError, DataDirUnusable
from tests.cli.cli_helpers import config_of
from tests.cli.first_hour_helpers import assert_one_sentence, invoke_with_env, location_flags, write_vault

# Every command that opens the vault's data folder, with the arguments it needs besides the location flags.
COMMANDS = {
    "serve": ["serve", "--port", "0"],
    "index": ["index"],
    "search": ["search", "port"],
    "ask": ["ask", "Which port?"],
    "explain": ["explain", "Which port?", "--note", "Homelab/Postgres.md"],
    "related": ["related", "Homelab/Postgres.md"],
    "token": ["token"],
    "mcp": ["mcp"],
    "eval": ["eval", "--questions", "QUESTIONS"],
}
UNWRITABLE = Path("/sys/askvault-test-data")
"""Refused even to root (tests run as root here, so chmod proves nothing): sysfs allows no new folder."""


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path)


def _command(name: str, tmp_path: Path, vault: Path, data_root: Path) -> list[str]:
    return [*_args(name, tmp_path), *location_flags(vault, data_root)]


def _args(name: str, tmp_path: Path) -> list[str]:
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "Which port?", "type": "exact_value", "expected_paths": ["Homelab/Postgres.md"], '
        '"evidence": ["5433"]}\n',
        encoding="utf-8",
    )
    return [str(questions) if arg == "QUESTIONS" else arg for arg in COMMANDS[name]]


@pytest.mark.parametrize("name", COMMANDS, ids=COMMANDS)
async def test_a_data_dir_under_a_file_is_one_sentence(
    name: str, vault: Path, tmp_path: Path, closed_port_url: str
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should go\n", encoding="utf-8")

    result = await invoke_with_env(*_command(name, tmp_path, vault, blocker / "data"), ollama_url=closed_port_url)

    assert result.exit_code == EXIT_CONFIG, result.output
    assert_one_sentence(result.stderr, f"{blocker} is a file, not a folder", "pass --data-dir a folder")
    assert blocker.read_text(encoding="utf-8").startswith("a file")


@pytest.mark.parametrize("name", COMMANDS, ids=COMMANDS)
async def test_a_file_in_place_of_the_vaults_folder_is_one_sentence(
    name: str, vault: Path, tmp_path: Path, closed_port_url: str
) -> None:
    data_root = tmp_path / "data"
    vault_folder = config_of(vault, data_root).store.data_dir
    vault_folder.parent.mkdir(parents=True)
    vault_folder.write_text("", encoding="utf-8")

    result = await invoke_with_env(*_command(name, tmp_path, vault, data_root), ollama_url=closed_port_url)

    assert result.exit_code == EXIT_CONFIG, result.output
    assert_one_sentence(result.stderr, f"{vault_folder} is a file, not a folder", "pass --data-dir a folder")


READERS_AND_WRITERS = ["serve", "index", "search", "mcp"]


@pytest.mark.parametrize("name", READERS_AND_WRITERS, ids=READERS_AND_WRITERS)
async def test_a_data_dir_nobody_may_create_is_one_sentence(
    name: str, vault: Path, tmp_path: Path, closed_port_url: str
) -> None:
    result = await invoke_with_env(*_command(name, tmp_path, vault, UNWRITABLE), ollama_url=closed_port_url)

    assert result.exit_code == EXIT_CONFIG, result.output
    assert_one_sentence(
        result.stderr, f"cannot write {UNWRITABLE} in the data folder", "pass --data-dir a folder you can write"
    )
    assert not await asyncio.to_thread(UNWRITABLE.exists)


def _real_error(path: Path) -> OSError:
    try:
        path.mkdir(parents=True)
    except OSError as exc:
        return exc
    raise AssertionError(f"{path} could be created")


def _worded(exc: OSError, data_root: Path | None) -> str | None:
    marker = DATA_ROOT.set(data_root)
    try:
        error = os_error(exc)
    finally:
        DATA_ROOT.reset(marker)
    if error is None:
        return None
    assert isinstance(error, AskVaultError)
    return error.message


def test_a_real_permission_error_in_the_data_folder_names_the_path_and_the_fix() -> None:
    exc = _real_error(UNWRITABLE / "vaults" / "notes-0123456789ab")
    assert exc.errno in (errno.EPERM, errno.EACCES, errno.EROFS)

    marker = DATA_ROOT.set(UNWRITABLE)
    try:
        error = os_error(exc)
    finally:
        DATA_ROOT.reset(marker)

    assert isinstance(error, DataDirUnusable)
    message = error.message
    assert message.startswith(f"cannot write {UNWRITABLE} in the data folder (")
    assert message.endswith(
        "); give your user write access to /sys (and the files in it) or pass --data-dir a folder you can write"
    )


def test_a_read_only_lock_file_names_its_folder(tmp_path: Path) -> None:
    # filelock raises exactly this for a lock file the user may not write (root may write any: chmod proves
    # nothing here, so the exception is built the way filelock builds it).
    root = tmp_path / "data"
    lock = root / "vaults" / "notes-0123456789ab" / "index.lock"
    lock.parent.mkdir(parents=True)
    lock.write_text("", encoding="utf-8")

    message = _worded(PermissionError(errno.EACCES, "Permission denied", str(lock)), root)

    assert message == (
        f"cannot write {lock} in the data folder (permission denied); give your user write access to {lock.parent} "
        "(and the files in it) or pass --data-dir a folder you can write"
    )


OPENERS = [name for name in COMMANDS if name != "token"]


@pytest.mark.parametrize("name", OPENERS, ids=OPENERS)
async def test_a_folder_in_place_of_the_lock_file_is_one_sentence(
    name: str, vault: Path, tmp_path: Path, closed_port_url: str
) -> None:
    # A real failure even for root: filelock refuses a lock path that is a folder (IsADirectoryError).
    data_root = tmp_path / "data"
    lock = config_of(vault, data_root).store.data_dir / "index.lock"
    lock.mkdir(parents=True)
    (lock.parent / "manifest.sqlite").write_bytes(b"")  # so `token` and the readers see an index folder

    result = await invoke_with_env(*_command(name, tmp_path, vault, data_root), ollama_url=closed_port_url)

    assert result.exit_code == EXIT_CONFIG, result.output
    assert_one_sentence(
        result.stderr,
        f"cannot write {lock} in the data folder: it is a folder where Ask Vault keeps a file; remove that folder",
    )


def test_a_real_file_in_the_way_names_the_file(tmp_path: Path) -> None:
    root = tmp_path / "data"
    (root / "vaults").mkdir(parents=True)
    (root / "vaults" / "notes-0123456789ab").write_text("", encoding="utf-8")

    below = _worded(_real_error(root / "vaults" / "notes-0123456789ab" / "vectors"), root)
    itself = _worded(_real_error(root / "vaults" / "notes-0123456789ab"), root)

    expected = (
        f"cannot create the data folder in {root}: {root / 'vaults' / 'notes-0123456789ab'} is a file, not a folder; "
        "pass --data-dir a folder you can write (or move that file away)"
    )
    assert below == itself == expected


def test_an_error_outside_the_data_folder_is_still_a_sentence(tmp_path: Path) -> None:
    missing = tmp_path / "elsewhere.md"
    with pytest.raises(OSError, match="No such file") as caught:
        missing.read_text(encoding="utf-8")

    assert _worded(caught.value, tmp_path / "data") == (
        f"cannot use {missing} (no such file or directory); check that it exists and that your user may read and "
        "write it"
    )
    assert _worded(OSError(errno.EADDRINUSE, "address in use"), tmp_path / "data") is None
