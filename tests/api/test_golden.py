"""Golden bodies: what the real app sends, pinned in tests/fixtures/api/ for the plugin's tests to read.

A differing body fails the test. After an intended change to the contract, regenerate with
`ASKVAULT_UPDATE_GOLDEN=1 pytest tests/api/test_golden.py` and review the diff (the plugin reads these files).
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.api import explain_vault
from tests.api.conftest import Sidecar
from tests.api.engine_sidecar import engine_sidecar, sidecar_config
from tests.api.samples import ABSTAIN_QUESTION, ABSTAIN_SCRIPT, KODI, QUESTION
from tests.conftest import RunningOllama

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "api"
UPDATE = os.environ.get("ASKVAULT_UPDATE_GOLDEN") == "1"


def _check(name: str, produced: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(produced, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"{path.name} is missing: run with ASKVAULT_UPDATE_GOLDEN=1"
    committed = path.read_text(encoding="utf-8")
    assert produced == committed, f"{name} differs from the committed golden body (ASKVAULT_UPDATE_GOLDEN=1 updates)"


def _pretty(body: object) -> str:
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


async def test_status_golden(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url("/api/status"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        _check("status.json", _pretty(await resp.json()))


async def test_search_golden(sidecar: Sidecar) -> None:
    body = {"query": "kodi maintenance", "k": 8}
    async with sidecar.session.post(sidecar.url("/api/search"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        _check("search.json", _pretty(await resp.json()))


async def test_ask_golden(sidecar: Sidecar) -> None:
    body = {
        "question": QUESTION,
        "history": [
            {"role": "user", "content": "Where does the Postgres container run?"},
            {"role": "assistant", "content": "On the NAS, as a Docker container [1]."},
        ],
    }
    async with sidecar.session.post(sidecar.url("/api/ask"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        raw = (await resp.read()).decode("utf-8")
    # Exactly as sent: one compact JSON object per line, each line ending in \n.
    assert raw.endswith("\n")
    assert all(json.loads(line) for line in raw.splitlines())
    _check("ask.ndjson", raw)


async def test_ask_abstain_golden(sidecar: Sidecar) -> None:
    sidecar.answerer.script = list(ABSTAIN_SCRIPT)
    body = {"question": ABSTAIN_QUESTION}
    async with sidecar.session.post(sidecar.url("/api/ask"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        raw = (await resp.read()).decode("utf-8")
    events = [json.loads(line) for line in raw.splitlines()]
    assert events[0]["relevance"]["answer"] is False
    assert events[0]["closest"]
    assert events[-1]["no_results"] is True
    _check("ask_abstain.ndjson", raw)


async def test_error_golden(sidecar: Sidecar) -> None:
    body = {"query": "kodi maintenance", "k": 0}
    async with sidecar.session.post(sidecar.url("/api/search"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 400
        _check("error.json", _pretty(await resp.json()))


async def test_chunk_golden(sidecar: Sidecar) -> None:
    async with sidecar.session.get(sidecar.url(f"/api/chunks/{KODI.id}"), headers=sidecar.auth()) as resp:
        assert resp.status == 200
        _check("chunk.json", _pretty(await resp.json()))


async def test_related_golden(sidecar: Sidecar) -> None:
    body = {"path": "Homelab/Kodi.md", "k": 10}
    async with sidecar.session.post(sidecar.url("/api/related"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        _check("related.json", _pretty(await resp.json()))


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
    _check("explain.json", _pretty(explained))


@pytest.mark.parametrize(
    "name",
    [
        "status.json",
        "search.json",
        "ask.ndjson",
        "ask_abstain.ndjson",
        "error.json",
        "chunk.json",
        "related.json",
        "explain.json",
    ],
)
def test_golden_files_are_committed(name: str) -> None:
    assert (GOLDEN / name).is_file()
