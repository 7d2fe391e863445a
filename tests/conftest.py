"""Shared fixtures: a real fake-Ollama server on port 0, temp vaults on disk, a closed port."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakes.ollama_server import FakeOllama, serve


@dataclass
class RunningOllama:
    fake: FakeOllama
    url: str


@pytest.fixture
async def fake_ollama() -> AsyncIterator[RunningOllama]:
    fake = FakeOllama()
    async for url in serve(fake):
        yield RunningOllama(fake=fake, url=url)


@pytest.fixture
def closed_port_url() -> str:
    """A loopback URL nothing listens on (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


VaultWriter = Callable[[dict[str, str]], Path]


@pytest.fixture
def make_vault(tmp_path: Path) -> VaultWriter:
    """Writes {relative path: text} under a fresh vault folder (with an `.obsidian` config folder)."""

    def write(files: dict[str, str]) -> Path:
        root = tmp_path / "vault"
        (root / ".obsidian").mkdir(parents=True, exist_ok=True)
        for rel, text in files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return root

    return write
