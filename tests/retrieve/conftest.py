"""Module-wide fixtures for read-only search tests: one fake Ollama and one indexed engine per module."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.conftest import RunningOllama
from tests.fakes.ollama_server import FakeOllama, serve


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_ollama() -> AsyncIterator[RunningOllama]:
    fake = FakeOllama()
    async for url in serve(fake):
        yield RunningOllama(fake=fake, url=url)
