"""A small load run against the REAL sidecar (`run_sidecar`, sample vault, fake Ollama streaming with delays).

20 concurrent searches and 5 concurrent answer streams, twice: no errors. Of the 5 answers, one runs and two
wait (the generation gate); the others get `429 busy` with `Retry-After` at once, which is the designed
behaviour and counted apart. `python -m reliability.soak` runs this for minutes and reports p95, RSS and fds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from reliability.engine_runs import make_config
from reliability.fake_ollama import slow_answers
from reliability.load import run_load
from reliability.vault import copy_sample_vault
from tests.fakes.ollama_server import FakeOllama, serve
from tests.faults.helpers import live_sidecar

pytestmark = pytest.mark.slow

ASKS = 5
GATE_CAPACITY = 3
"""One answer generating and two waiting (askvault.api.app.ApiSettings)."""


@pytest.fixture
async def streaming_ollama() -> AsyncIterator[str]:
    fake = FakeOllama()
    slow_answers(fake, 0.01)
    async for url in serve(fake):
        yield url


@pytest.mark.timeout(180)
async def test_concurrent_searches_and_answers_on_the_real_sidecar(tmp_path: Path, streaming_ollama: str) -> None:
    vault = copy_sample_vault(tmp_path / "vault")
    async with live_sidecar(make_config(vault, tmp_path / "data", streaming_ollama)) as car:
        result = await run_load(car.url, car.token, seconds=0, searches=20, asks=ASKS, min_waves=2)
    assert result.errors == []
    assert result.searches == 40
    assert len(result.search_ms) == 40
    assert result.answered + result.busy == result.asks == 2 * ASKS
    # The first three of each wave take the gate's places; only the ones beyond can be turned away.
    assert result.answered >= 2 * GATE_CAPACITY
    assert result.busy <= 2 * (ASKS - GATE_CAPACITY)
    summary = result.summary()
    assert summary["search_p95_ms"] is not None
