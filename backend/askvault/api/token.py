"""The bearer token: 256 random bits in `<data dir>/token` (0600 in a 0700 folder), never inside the vault."""

from __future__ import annotations

import logging
import re
import secrets
from pathlib import Path

from askvault.api.private_files import ensure_private_dir, read_private, write_private
from askvault.errors import ConfigError
from askvault.store.manifest.manifest import MANIFEST_FILE

log = logging.getLogger("askvault.api")

TOKEN_FILE = "token"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43,128}")
"""`secrets.token_urlsafe(32)` is 43 characters; shorter would be under 256 bits."""


def check_outside_vault(data_dir: Path, vault_root: Path) -> None:
    """The token (and index) must not live where sync tools, git or other plugins can see them."""
    data, vault = data_dir.resolve(), vault_root.resolve()
    if data == vault or vault in data.parents:
        raise ConfigError("--data-dir: the data folder must be outside the vault (the token would sync with it)")


def served_or_indexed(data_dir: Path) -> bool:
    """Whether `serve` (which writes the token before anything else) or `index` (the manifest) ever ran with this
    data folder; looks only, creates nothing."""
    return (data_dir / TOKEN_FILE).is_file() or (data_dir / MANIFEST_FILE).is_file()


def load_or_create_token(data_dir: Path, vault_root: Path) -> str:
    """The token in `data_dir/token`, created on first use.

    A token file that others could read, that is not ours, or that does not look like our token is treated
    as leaked and replaced by a fresh one. The token itself is never logged.
    """
    check_outside_vault(data_dir, vault_root)
    ensure_private_dir(data_dir)
    path = data_dir / TOKEN_FILE
    existing = _read(path)
    if existing is not None:
        return existing
    token = secrets.token_urlsafe(32)
    if path.exists() or path.is_symlink():
        log.warning("the token file was unreadable or readable by others; a new token replaces it")
        write_private(path, token.encode("ascii"))
        return token
    if write_private(path, token.encode("ascii"), replace=False):
        return token
    # Another process created it first: use theirs, so both agree.
    existing = _read(path)
    if existing is None:
        write_private(path, token.encode("ascii"))
        return token
    return existing


def _read(path: Path) -> str | None:
    raw = read_private(path, 256)
    if raw is None:
        return None
    try:
        text = raw.decode("ascii").strip()
    except UnicodeDecodeError:
        return None
    return text if _TOKEN.fullmatch(text) else None
