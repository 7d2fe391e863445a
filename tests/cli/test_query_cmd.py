"""`askvault search` and `askvault ask` from the command line, on an indexed temp vault and the fake Ollama."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from askvault.ask.pipeline import NOT_COVERED_ANSWER
from askvault.cli.options import EXIT_ERROR
from tests.cli.cli_helpers import indexed_vault, invoke
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "---\ntags: [db]\n---\n# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC and scans the NAS.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun and a port-side balcony.\n",
}
SEARCH_KEYS = {"query", "terms", "counts", "results", "timings_ms", "date_scope", "relevance"}
RESULT_KEYS = {
    "id", "path", "title", "heading_path", "start_line", "end_line", "text",
    "dense_rank", "keyword_rank", "fused_score", "dense_score", "keyword_score",
}  # fmt: skip
TIMINGS = {
    "keyword": {"keyword", "fusion", "total"},
    "dense": {"embed", "dense", "fusion", "total"},
    "hybrid": {"embed", "dense", "keyword", "fusion", "total"},
}
METRICS = {
    "embed_ms",
    "retrieval_ms",
    "first_token_ms",
    "generation_ms",
    "total_ms",
    "prompt_tokens",
    "completion_tokens",
}


@pytest.fixture
async def flags(tmp_path: Path, fake_ollama: RunningOllama) -> list[str]:
    return await indexed_vault(tmp_path, fake_ollama.url, NOTES)


def check_rank(value: object) -> None:
    assert value is None or (isinstance(value, int) and value >= 1)


@pytest.mark.parametrize("mode", ["hybrid", "dense", "keyword"])
async def test_search_json_has_the_documented_shape(flags: list[str], mode: str) -> None:
    result = await invoke("search", *flags, "which port does the database use, 5433", "--mode", mode, "--json")

    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert set(body) == SEARCH_KEYS
    assert body["query"] == "which port does the database use, 5433"
    assert set(body["counts"]) == {"dense", "keyword"}
    assert set(body["timings_ms"]) == TIMINGS[mode]
    assert all(isinstance(v, float) for v in body["timings_ms"].values())
    assert body["results"]
    assert body["results"][0]["path"] == "Homelab/Postgres.md"
    for item in body["results"]:
        # `boosts` appears only when a query-side boost moved the result (docs/api.md): "5433" is an identifier.
        assert RESULT_KEYS <= set(item) <= RESULT_KEYS | {"boosts"}
        check_rank(item["dense_rank"])
        check_rank(item["keyword_rank"])
        assert isinstance(item["fused_score"], float)
        # Hybrid fuses min-max scores (0 for a leg's last candidate, 1 at most); one leg alone is 1/(60 + rank).
        assert 0 <= item["fused_score"] <= 1 if mode == "hybrid" else item["fused_score"] > 0
        assert isinstance(item["heading_path"], list)
        assert 1 <= item["start_line"] <= item["end_line"]
    if mode == "keyword":
        assert body["counts"]["dense"] == 0
        assert all(item["dense_rank"] is None for item in body["results"])
    else:
        assert body["counts"]["dense"] == 3
    if mode == "dense":
        assert body["terms"] == []
        assert body["counts"]["keyword"] == 0
        assert all(item["keyword_rank"] is None for item in body["results"])
    else:
        terms = {t["term"]: t for t in body["terms"]}
        assert set(terms["5433"]) == {"term", "df", "idf"}
        assert terms["5433"]["df"] == 1
        assert terms["5433"]["idf"] > 0
        assert body["results"][0]["keyword_rank"] == 1


async def test_search_prints_ranked_results_with_both_ranks(flags: list[str]) -> None:
    result = await invoke("search", *flags, "port 5433", "-k", "2")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == " 1. Homelab/Postgres.md › Postgres  (lines 4–6)"
    # Each leg's rank and raw score (cosine, BM25), not the fused score normalised per query.
    assert re.fullmatch(
        r"    dense #1 \(cosine -?\d\.\d\d\) · keyword #1 \(bm25 \d+\.\d\d\) · identifier:5433", lines[1]
    )
    assert lines[-2].startswith("relevance: Your notes look relevant to this question (relevance ")
    assert lines[-1] == "matched: dense 3, keyword 2"


async def test_search_filters_by_folder_and_tag(flags: list[str]) -> None:
    folder = await invoke("search", *flags, "port", "--folder", "Ideas", "--json")
    tag = await invoke("search", *flags, "port", "--tag", "db", "--json")

    assert {r["path"] for r in json.loads(folder.stdout)["results"]} == {"Ideas/Gardening.md"}
    assert {r["path"] for r in json.loads(tag.stdout)["results"]} == {"Homelab/Postgres.md"}


async def test_a_filter_that_leaves_nothing_is_named_with_what_to_do(flags: list[str]) -> None:
    folder = await invoke("search", *flags, "port", "--folder", "Idaes")
    both = await invoke("search", *flags, "port", "--tag", "#dbs", "--modified-before", "2001-01-01")
    unfiltered = await invoke("search", *flags, "zzzqqq", "--mode", "keyword")

    assert folder.exit_code == 0, folder.output
    assert folder.stdout == (
        "No results among the notes in the folder 'Idaes'; check that filter, or leave it out to search every note.\n"
    )
    assert both.stdout == (
        "No results among the notes tagged #dbs and modified before 2001-01-01; check those filters, or leave them "
        "out to search every note.\n"
    )
    assert unfiltered.stdout == "No results.\n"


async def test_search_filters_by_modified_date(flags: list[str], tmp_path: Path) -> None:
    old = tmp_path / "vault" / "Ideas" / "Gardening.md"
    os.utime(old, (1_600_000_000, 1_600_000_000))  # 2020-09-13
    reindexed = await invoke("index", *flags)
    assert reindexed.exit_code == 0, reindexed.output

    since = await invoke("search", *flags, "port", "--mode", "keyword", "--modified-after", "2021-01-01", "--json")
    assert since.exit_code == 0, since.output
    until = await invoke("search", *flags, "port", "--mode", "keyword", "--modified-before", "2021-01-01", "--json")
    bad = await invoke("search", *flags, "port", "--modified-after", "last tuesday")

    assert {r["path"] for r in json.loads(since.stdout)["results"]} == {"Homelab/Postgres.md"}
    assert {r["path"] for r in json.loads(until.stdout)["results"]} == {"Ideas/Gardening.md"}
    assert bad.exit_code != 0
    assert "--modified-after" in bad.output


async def test_ask_json_answers_with_citations_sources_and_metrics(flags: list[str]) -> None:
    result = await invoke("ask", *flags, "Which port does Postgres listen on?", "--json")

    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert set(body) == {"answer", "citations", "sources", "sent", "metrics", "relevance", "closest"}
    assert (body["relevance"]["answer"], body["relevance"]["forced"], body["closest"]) == (True, False, [])
    assert body["answer"] == "The notes say so [1]."
    assert body["citations"] == [1]
    assert body["sources"][0]["path"] == "Homelab/Postgres.md"
    assert [s["n"] for s in body["sources"]] == list(range(1, len(body["sources"]) + 1))
    assert body["sent"] == [s["id"] for s in body["sources"]]
    assert set(body["sources"][0]) == {"n"} | RESULT_KEYS - {"title", "dense_score", "keyword_score"}
    assert set(body["metrics"]) == METRICS
    assert body["metrics"]["completion_tokens"] == 3
    assert body["metrics"]["total_ms"] >= body["metrics"]["embed_ms"] + body["metrics"]["retrieval_ms"]


async def test_ask_streams_the_answer_then_its_sources(flags: list[str]) -> None:
    result = await invoke("ask", *flags, "Which port does Postgres listen on?")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "The notes say so [1]."
    sources = lines.index("Sources:")
    assert lines[sources + 1] == "  [1] Homelab/Postgres.md › Postgres (lines 4–6)"
    assert lines[-1].startswith("— embed_ms ")
    assert "retrieval_ms" in lines[-1]
    assert "completion_tokens 3" in lines[-1]


async def test_ask_with_rerank_reports_it_and_falls_back_on_prose(flags: list[str], fake_ollama: RunningOllama) -> None:
    # The reranking call gets prose instead of JSON: the answer comes from the fused order, and says so.
    fake_ollama.fake.scripts.append(ChatScript(tokens=["I would pick the first one."]))
    fake_ollama.fake.scripts.append(ChatScript(tokens=["5433 [1]."]))
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ["c2", "c1"]}']))
    fake_ollama.fake.scripts.append(ChatScript(tokens=["5433 [1]."]))
    plain = await invoke("ask", *flags, "--rerank", "Which port does Postgres listen on?")
    as_json = await invoke("ask", *flags, "--rerank", "Which port does Postgres listen on?", "--json")

    assert plain.exit_code == 0, plain.output
    assert "rerank: fell back to the fused order: malformed — the reply is not JSON" in plain.stdout
    assert as_json.exit_code == 0, as_json.output
    body = json.loads(as_json.stdout)
    assert set(body) == {"answer", "citations", "sources", "sent", "metrics", "relevance", "closest", "rerank"}
    assert (body["rerank"]["applied"], body["rerank"]["model"]) == (True, "llama3.2:3b")
    assert "format" in fake_ollama.fake.calls("/api/chat")[0]


async def test_ask_with_a_missing_chat_model_says_how_to_fix_it(flags: list[str]) -> None:
    plain = await invoke("ask", *flags, "--chat-model", "qwen9:1b", "Which port does Postgres listen on?")
    as_json = await invoke("ask", *flags, "--chat-model", "qwen9:1b", "Which port?", "--json")

    assert plain.exit_code == EXIT_ERROR
    assert "error (model_missing):" in plain.stdout
    assert "ollama pull qwen9:1b" in plain.stdout
    assert as_json.exit_code == EXIT_ERROR
    assert json.loads(as_json.stdout)["error"]["code"] == "model_missing"


UNCOVERED = "Which regatta did the yacht Zephyrine win?"


async def test_ask_abstains_and_lists_the_closest_notes(flags: list[str], fake_ollama: RunningOllama) -> None:
    plain = await invoke("ask", *flags, UNCOVERED)
    as_json = await invoke("ask", *flags, UNCOVERED, "--json")

    assert plain.exit_code == 0, plain.output
    lines = plain.stdout.splitlines()
    # Said once, with its figures: the stand-in answer is not printed as well (it stays in --json).
    assert lines[0].startswith("Your notes do not seem to cover this question (relevance ")
    assert NOT_COVERED_ANSWER not in plain.stdout
    listed = lines.index("No model was asked. Closest notes:")
    assert re.fullmatch(r"  Homelab/\S+\.md › \w+ \(lines \d+–\d+\)  dense 0\.\d{4} · bm25 –", lines[listed + 1])
    assert "Ask anyway with --force." in lines
    assert "Sources:" not in lines
    body = json.loads(as_json.stdout)
    assert (body["relevance"]["answer"], body["sources"], body["sent"]) == (False, [], [])
    assert body["answer"] == NOT_COVERED_ANSWER
    assert {c["path"] for c in body["closest"]} == set(NOTES)
    assert set(body["closest"][0]) == {"id", "path", "heading_path", "start_line", "end_line", "dense_score",
                                       "keyword_score"}  # fmt: skip
    assert fake_ollama.fake.calls("/api/chat") == []


async def test_ask_force_sends_the_closest_notes_anyway(flags: list[str], fake_ollama: RunningOllama) -> None:
    result = await invoke("ask", *flags, UNCOVERED, "--force")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "The notes say so [1]."
    assert "Sources:" in lines
    assert any(line.startswith("Sent anyway as you asked") for line in lines)
    assert "Ask anyway with --force." not in lines
    assert len(fake_ollama.fake.calls("/api/chat")) == 1


async def test_ask_whose_filters_leave_nothing_names_them_and_asks_no_model(
    flags: list[str], fake_ollama: RunningOllama
) -> None:
    result = await invoke("ask", *flags, "Which port does Postgres listen on?", "--folder", "Homelba")

    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        "Nothing matched among the notes in the folder 'Homelba'; check that filter, or leave it out to search every "
        "note."
    )
    assert fake_ollama.fake.calls("/api/chat") == []
