"""Golden bodies: what the real app sends, pinned in tests/fixtures/api/ for the plugin's tests to read.

A differing body fails the test. After an intended change to the contract, regenerate with
`ASKVAULT_UPDATE_GOLDEN=1 pytest tests/api/test_golden.py` and review the diff (the plugin reads these files).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.api import explain_vault
from tests.api.conftest import Sidecar
from tests.api.engine_sidecar import engine_sidecar, sidecar_config
from tests.api.golden import GOLDEN, check_golden, pretty
from tests.api.samples import KODI
from tests.conftest import RunningOllama


async def test_status_golden(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/status"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        check_golden("status.json", pretty(await resp.json()))


async def test_search_golden(sidecar: Sidecar) -> None:
    body = {"query": "kodi maintenance", "k": 8}
    async with sidecar.session.post(sidecar.url("/api/search"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        check_golden("search.json", pretty(await resp.json()))


async def test_error_golden(sidecar: Sidecar) -> None:
    body = {"query": "kodi maintenance", "k": 0}
    async with sidecar.session.post(sidecar.url("/api/search"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 400
        check_golden("error.json", pretty(await resp.json()))


async def test_chunk_golden(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url(f"/api/chunks/{KODI.id}"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        check_golden("chunk.json", pretty(await resp.json()))


async def test_related_golden(sidecar: Sidecar) -> None:
    body = {"path": "Homelab/Kodi.md", "k": 10}
    async with sidecar.session.post(sidecar.url("/api/related"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        check_golden("related.json", pretty(await resp.json()))


async def test_explain_golden(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    """From the real sidecar over a real index (the fake Ollama embeds): a note ranked inside k but not sent."""
    config = sidecar_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url, exclude=explain_vault.EXCLUDE)
    body = {"question": explain_vault.QUESTION, "note": explain_vault.OVER_BUDGET}
    async with engine_sidecar(config, explain_vault.NOTES) as car:
        status, explained = await car.post("/api/explain", body)
    assert status == 200
    note = explained["note"]
    assert isinstance(note, dict)
    # The one value that depends on when the test ran: checked, then pinned.
    assert datetime.fromisoformat(str(note["indexed_at"])).utcoffset() == timedelta(0)
    note["indexed_at"] = "2026-12-01T10:00:00+00:00"
    check_golden("explain.json", pretty(explained))


@pytest.mark.parametrize(
    "name",
    [
        "status.json",
        "search.json",
        "ask.ndjson",
        "ask_abstain.ndjson",
        "ask_error.ndjson",
        "error.json",
        "chunk.json",
        "related.json",
        "explain.json",
    ],
)
def test_golden_files_are_committed(name: str) -> None:
    assert (GOLDEN / name).is_file()
