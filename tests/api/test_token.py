"""The token file: 256 random bits, 0600 in a 0700 folder, outside the vault, replaced when exposed, never logged."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from askvault.api.token import TOKEN_FILE, load_or_create_token
from askvault.errors import ConfigError


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / ".obsidian").mkdir(parents=True)
    return root


def test_creates_a_private_token(tmp_path: Path, vault: Path, caplog: pytest.LogCaptureFixture) -> None:
    data = tmp_path / "data" / "vaults" / "vault-0123456789ab"
    with caplog.at_level(logging.DEBUG):
        token = load_or_create_token(data, vault)
    assert len(token) >= 43  # token_urlsafe(32): 256 bits
    assert _mode(data) == 0o700
    assert _mode(data / TOKEN_FILE) == 0o600
    assert (data / TOKEN_FILE).read_text() == token
    assert token not in caplog.text
    assert [p.name for p in data.iterdir()] == [TOKEN_FILE]  # no temporary file left behind


def test_reuses_the_token(tmp_path: Path, vault: Path) -> None:
    first = load_or_create_token(tmp_path / "data", vault)
    assert load_or_create_token(tmp_path / "data", vault) == first


def test_tokens_differ_between_folders(tmp_path: Path, vault: Path) -> None:
    assert load_or_create_token(tmp_path / "a", vault) != load_or_create_token(tmp_path / "b", vault)


@pytest.mark.parametrize("inside", [".", ".askvault", ".obsidian/plugins/ask-vault"])
def test_refuses_a_data_folder_inside_the_vault(vault: Path, inside: str) -> None:
    with pytest.raises(ConfigError, match="outside the vault"):
        load_or_create_token(vault / inside, vault)
    assert not (vault / inside / TOKEN_FILE).exists()


def test_tightens_a_loose_folder(tmp_path: Path, vault: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    load_or_create_token(data, vault)
    assert _mode(data) == 0o700


def test_a_readable_token_is_treated_as_leaked(tmp_path: Path, vault: Path, caplog: pytest.LogCaptureFixture) -> None:
    data = tmp_path / "data"
    old = load_or_create_token(data, vault)
    (data / TOKEN_FILE).chmod(0o644)
    with caplog.at_level(logging.WARNING):
        new = load_or_create_token(data, vault)
    assert new != old
    assert _mode(data / TOKEN_FILE) == 0o600
    assert "new token" in caplog.text
    assert new not in caplog.text
    assert old not in caplog.text


@pytest.mark.parametrize(
    "content", ["", "short", "x" * 200, "ü" * 50, "a b c d e f g h i j k l m n o p q r s t u v w x"]
)
def test_a_malformed_token_is_replaced(tmp_path: Path, vault: Path, content: str) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    fd = os.open(data / TOKEN_FILE, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, content.encode())
    os.close(fd)
    token = load_or_create_token(data, vault)
    assert token != content
    assert (data / TOKEN_FILE).read_text() == token


def test_a_symlinked_token_is_not_followed(tmp_path: Path, vault: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("A" * 43)
    elsewhere.chmod(0o600)
    (data / TOKEN_FILE).symlink_to(elsewhere)
    token = load_or_create_token(data, vault)
    assert token != "A" * 43
    assert not (data / TOKEN_FILE).is_symlink()
    assert elsewhere.read_text() == "A" * 43


def test_reading_tolerates_a_trailing_newline(tmp_path: Path, vault: Path) -> None:
    data = tmp_path / "data"
    token = load_or_create_token(data, vault)
    (data / TOKEN_FILE).write_text(token + "\n")
    assert load_or_create_token(data, vault) == token
