"""POST /api/explain on the real sidecar: sent, below the cut, over the prompt's budget, not found, and proof
that it reads the same search and the same answer step as /api/search and /api/ask."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from askvault.config import RetrievalParams
from tests.api.engine_sidecar import EngineSidecar, Json, engine_sidecar, sidecar_config
from tests.api.explain_vault import (
    BELOW_THE_CUT,
    EXCLUDE,
    NOTES,
    OVER_BUDGET,
    PRIVATE_WORDS,
    QUESTION,
    SEARCHABLE,
)
from tests.conftest import RunningOllama

BODY_KEYS = {
    "question", "note", "sent", "summary", "best", "terms", "cut", "dense_available", "factors", "relevance",
}  # fmt: skip
NOTE_KEYS = {"path", "title", "status", "indexed_at", "chunks", "reason"}
ENTRY_KEYS = {"chunk_id", "heading_path", "start_line", "end_line", "rank", "score"}
TERMS = ["kodi", "mainten"]
"""QUESTION's terms as the keyword index analyses them (stemmed)."""


@pytest.fixture
async def car(tmp_path: Path, fake_ollama: RunningOllama) -> AsyncIterator[EngineSidecar]:
    config = sidecar_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url, exclude=EXCLUDE)
    async with engine_sidecar(config, NOTES) as running:
        yield running


def _mapping(value: object) -> Json:
    assert isinstance(value, dict)
    return value


def check_shape(body: Json) -> None:
    assert set(body) == BODY_KEYS
    assert set(_mapping(body["note"])) == NOTE_KEYS
    for leg in ("dense", "keyword", "fused"):
        entry = _mapping(body["best"])[leg]
        # A leg that missed the note is null as a whole, never an entry with a null rank.
        assert entry is None or (set(_mapping(entry)) == ENTRY_KEYS and _mapping(entry)["rank"] is not None)
    assert set(_mapping(body["cut"])) == {"k", "sent", "last_score"}
    assert isinstance(body["summary"], str)
    assert body["summary"].endswith(".")


async def _search(car: EngineSidecar, query: str, **extra: object) -> list[Json]:
    status, body = await car.post("/api/search", {"query": query, "k": 50, **extra})
    assert status == 200, body
    results = body["results"]
    assert isinstance(results, list)
    return results


async def test_a_sent_note_names_its_source(car: EngineSidecar) -> None:
    body = await car.explain(QUESTION, "Homelab/Kodi.md")

    check_shape(body)
    assert body["sent"] is True
    assert body["summary"] == "Sent as source 1."
    note = _mapping(body["note"])
    assert (note["status"], note["title"], note["chunks"], note["reason"]) == ("indexed", "Kodi", 1, None)
    assert isinstance(note["indexed_at"], str)
    assert note["indexed_at"].endswith("+00:00")
    best = _mapping(body["best"])
    assert _mapping(best["dense"])["rank"] == _mapping(best["keyword"])["rank"] == _mapping(best["fused"])["rank"] == 1
    assert body["terms"] == {"matched": TERMS, "missing": []}
    assert body["factors"] == []
    assert body["dense_available"] is True


async def test_a_note_below_the_cut(car: EngineSidecar) -> None:
    results = await _search(car, QUESTION)
    body = await car.explain(QUESTION, BELOW_THE_CUT)

    check_shape(body)
    assert body["sent"] is False
    assert body["summary"] == "Ranked 9th after fusion; only the top 6 were sent."
    # The cut line: 8 sources asked for (the answer's top_k), 6 sent (the prompt's max_sources), and the fused
    # score of the 8th, exactly as /api/search scores it.
    assert body["cut"] == {"k": 8, "sent": 6, "last_score": round(float(str(results[7]["fused_score"])), 4)}
    assert body["factors"] == []
    assert body["terms"] == {"matched": ["mainten"], "missing": ["kodi"]}


async def test_a_note_inside_k_but_over_the_prompts_budget(car: EngineSidecar) -> None:
    body = await car.explain(QUESTION, OVER_BUDGET)

    assert body["sent"] is False
    assert body["summary"] == "Ranked 8th after fusion; only the top 6 were sent."
    assert body["factors"] == [
        {"kind": "prompt_budget", "detail": "It ranked 8th of the 8 sources asked for, but the prompt holds at most 6."}
    ]


async def test_the_fused_ranking_is_the_one_search_returns(car: EngineSidecar) -> None:
    results = await _search(car, QUESTION)
    first: dict[object, tuple[int, Json]] = {}
    for place, result in enumerate(results, start=1):
        first.setdefault(result["path"], (place, result))
    assert set(first) == set(SEARCHABLE)

    for path in SEARCHABLE:
        best = _mapping((await car.explain(QUESTION, path))["best"])
        place, result = first[path]
        fused = _mapping(best["fused"])
        assert (fused["rank"], fused["chunk_id"]) == (place, result["id"])
        assert fused["score"] == round(float(str(result["fused_score"])), 4)
        # Each leg's best entry is that leg's own rank of the note's best chunk there.
        for leg in ("dense", "keyword"):
            ranks = [r[f"{leg}_rank"] for r in results if r["path"] == path and r[f"{leg}_rank"] is not None]
            entry = best[leg]
            assert (entry is None) == (not ranks)
            if entry is not None:
                assert _mapping(entry)["rank"] == min(int(str(rank)) for rank in ranks)


async def test_sent_agrees_with_the_answers_own_sources(car: EngineSidecar) -> None:
    retrieval = (await car.ask(QUESTION))[0]
    sources = [s for s in retrieval["sources"] if s["sent"]]  # type: ignore[attr-defined]
    number: dict[object, object] = {}
    for source in sources:
        number.setdefault(source["path"], source["n"])
    assert len(sources) == 6

    for path in SEARCHABLE:
        body = await car.explain(QUESTION, path)
        assert body["sent"] is (path in number), path
        if path in number:
            assert body["summary"] == f"Sent as source {number[path]}."
        assert body["relevance"] == retrieval["relevance"]
        assert _mapping(body["cut"])["sent"] == len(retrieval["sent"])  # type: ignore[arg-type]


async def test_an_excluded_note_is_named_by_its_rule_and_never_shown(car: EngineSidecar) -> None:
    body = await car.explain(QUESTION, "Private/Diary.md")

    check_shape(body)
    assert body["note"] == {
        "path": "Private/Diary.md",
        "title": None,
        "status": "excluded",
        "indexed_at": None,
        "chunks": 0,
        "reason": {"rule": "exclude-glob", "detail": "Excluded from the index by the pattern `Private/**`."},
    }
    assert body["summary"] == "Excluded from the index by the pattern `Private/**`."
    assert body["best"] == {"dense": None, "keyword": None, "fused": None}
    assert body["terms"] == {"matched": [], "missing": TERMS}
    assert body["sent"] is False
    raw = json.dumps(body)
    assert not [word for word in PRIVATE_WORDS if word.lower() in raw.lower()]


async def test_a_missing_note(car: EngineSidecar) -> None:
    body = await car.explain(QUESTION, "Homelab/Nope.md")

    check_shape(body)
    assert _mapping(body["note"])["status"] == "missing"
    assert _mapping(body["note"])["reason"] == {
        "rule": "no-such-note",
        "detail": "There is no note at this path in the vault.",
    }
    assert body["summary"] == "There is no note at this path in the vault."


async def test_filters_that_leave_the_note_out(car: EngineSidecar) -> None:
    body = await car.explain(QUESTION, "Homelab/Kodi.md", filters={"folder": "Journal/"})

    assert body["summary"] == "Left out by the request's filters."
    assert body["best"] == {"dense": None, "keyword": None, "fused": None}
    assert body["factors"] == [
        {
            "kind": "filter",
            "detail": "The request's filters left this note out: the folder filter `Journal/` (it is not in that "
            "folder).",
        }
    ]
    # The words are the note's own, filters or not.
    assert body["terms"] == {"matched": TERMS, "missing": []}


async def test_the_k_of_the_request_sets_the_cut(car: EngineSidecar) -> None:
    body = await car.explain(QUESTION, "Homelab/Jellyfin.md", k=3)

    assert _mapping(body["cut"])["k"] == 3
    assert _mapping(body["cut"])["sent"] == 3
    assert body["summary"] == "Ranked 6th after fusion; only the top 3 were sent."


async def test_an_abstention_sends_nothing_and_says_so(car: EngineSidecar) -> None:
    question = "harbour sailing regatta schedule"
    retrieval = (await car.ask(question))[0]
    relevance = _mapping(retrieval["relevance"])
    assert relevance["answer"] is False

    body = await car.explain(question, "Homelab/Kodi.md")
    assert body["sent"] is False
    assert body["summary"] == "Nothing was sent: your notes don't seem to cover this question."
    assert body["relevance"] == relevance
    assert _mapping(body["cut"])["sent"] == 0
    factors = body["factors"]
    assert isinstance(factors, list)
    assert [f["kind"] for f in factors] == ["abstention"]
    assert f"relevance {float(str(relevance['score'])):.2f}" in factors[0]["detail"]


async def test_a_note_neither_leg_found(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    # Three candidates per leg: the soup shares no word with the question and is not among the three closest.
    config = sidecar_config(
        tmp_path / "vault",
        tmp_path / "data",
        fake_ollama.url,
        exclude=EXCLUDE,
        retrieval=RetrievalParams(dense_k=3, keyword_k=3),
    )
    async with engine_sidecar(config, NOTES) as car:
        body = await car.explain(QUESTION, "Recipes/Soup.md")

    check_shape(body)
    assert _mapping(body["note"])["status"] == "indexed"
    assert body["summary"] == "Not found by either search for these words."
    assert body["best"] == {"dense": None, "keyword": None, "fused": None}
    assert body["terms"] == {"matched": [], "missing": TERMS}
    assert body["factors"] == []
