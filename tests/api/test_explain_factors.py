"""POST /api/explain factors on the real sidecar: the date scope, dense search off, and the reranker moving notes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from askvault.config import RetrievalParams
from tests.api.engine_sidecar import Json, engine_sidecar, sidecar_config
from tests.api.explain_vault import BELOW_THE_CUT, EXCLUDE, NOTES, QUESTION
from tests.conftest import RunningOllama
from tests.engine_helpers import set_mtime, write_notes
from tests.fakes.ollama_server import ChatScript


def _map(value: object) -> Json:
    assert isinstance(value, dict)
    return value


async def test_a_date_phrase_that_leaves_the_note_out(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    write_notes(
        vault,
        {
            "Homelab/Kodi.md": "# Kodi\n\nKodi maintenance: clear the thumbnail cache every few months.\n",
            "Journal/2024-03-06.md": "# 2024-03-06\n\nKodi maintenance evening: vacuumed the music database.\n",
        },
    )
    # Midday UTC: the same calendar day in every time zone the test may run in.
    set_mtime(vault / "Homelab" / "Kodi.md", datetime(2025, 6, 1, 12, tzinfo=UTC).timestamp())
    question = "kodi maintenance in March 2024"
    async with engine_sidecar(sidecar_config(vault, tmp_path / "data", fake_ollama.url), {}) as car:
        status, search = await car.post("/api/search", {"query": question})
        kodi = await car.explain(question, "Homelab/Kodi.md")
        journal = await car.explain(question, "Journal/2024-03-06.md")

    assert status == 200
    phrase = _map(search["date_scope"])["phrase"]
    assert _map(search["date_scope"])["applied"] is True
    assert kodi["summary"] == f'Left out by the date phrase "{phrase}" in the question.'
    assert kodi["factors"] == [
        {
            "kind": "date_scope",
            "detail": f'The question\'s date phrase "{phrase}" limited the search to 1 note; this note is dated '
            "2025-06-01.",
        }
    ]
    assert kodi["best"] == {"dense": None, "keyword": None, "fused": None}
    assert journal["summary"] == "Sent as source 1."
    assert journal["factors"] == []


async def test_dense_search_off_leaves_the_keyword_leg(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.embed_models = {}  # the embedding model is missing: keyword search only
    config = sidecar_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url, exclude=EXCLUDE)
    async with engine_sidecar(config, NOTES, dense=False) as car:
        assert car.engine.dense.state == "off"
        sent = await car.explain(QUESTION, "Homelab/Kodi.md")
        soup = await car.explain(QUESTION, "Recipes/Soup.md")

    assert sent["dense_available"] is False
    assert sent["summary"] == "Sent as source 1."
    best = _map(sent["best"])
    assert best["dense"] is None
    assert _map(best["keyword"])["rank"] == 1
    dense_off = {"kind": "dense_off", "detail": "Dense search was not available, so only keyword search ran."}
    assert sent["factors"] == [dense_off]
    assert _map(sent["relevance"])["signals"] == {**_map(_map(sent["relevance"])["signals"]), "dense_available": False}
    assert soup["summary"] == "Not found by keyword search for these words (dense search is off)."
    assert soup["factors"] == [dense_off]


async def test_the_reranker_moving_a_note_is_a_factor(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = sidecar_config(
        tmp_path / "vault",
        tmp_path / "data",
        fake_ollama.url,
        exclude=EXCLUDE,
        retrieval=RetrievalParams(rerank=True),
    )
    # The 9th candidate first, the rest in fused order (a partial ranking is valid): one call per retrieval step.
    # 11 candidates: the relevant ones (the soup, found by a negative cosine alone, is not).
    ranking = ChatScript(tokens=[json.dumps({"ranking": ["c9"]})])
    async with engine_sidecar(config, NOTES) as car:
        fake_ollama.fake.scripts = [ranking, ranking]
        moved_up = await car.explain(QUESTION, BELOW_THE_CUT)
        moved_down = await car.explain(QUESTION, "Homelab/Kodi.md")
        chats = len(fake_ollama.fake.calls("/api/chat"))
        fake_ollama.fake.scripts = [ranking]
        retrieval = (await car.ask(QUESTION))[0]

    assert chats == 2  # the reranker only: explain never asks the answer model
    assert moved_up["sent"] is True
    assert moved_up["summary"] == "Sent as source 1."
    assert moved_up["factors"] == [
        {"kind": "rerank", "detail": "The reranker moved it from 9th to 1st of 11 candidates."}
    ]
    assert _map(_map(moved_up["best"])["fused"])["rank"] == 9
    assert moved_down["summary"] == "Sent as source 2."
    assert moved_down["factors"] == [
        {"kind": "rerank", "detail": "The reranker moved it from 1st to 2nd of 11 candidates."}
    ]
    sources = retrieval["sources"]
    assert isinstance(sources, list)
    assert [s["path"] for s in sources[:2]] == [BELOW_THE_CUT, "Homelab/Kodi.md"]
