"""`askvault explain` from the command line, on an indexed temp vault and the fake Ollama."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.cli.options import EXIT_CONFIG
from tests.api.explain_vault import BELOW_THE_CUT, NOTES, OVER_BUDGET, PRIVATE_WORDS, QUESTION
from tests.cli.cli_helpers import indexed_vault, invoke
from tests.conftest import RunningOllama


@pytest.fixture
async def flags(tmp_path: Path, fake_ollama: RunningOllama) -> list[str]:
    return await indexed_vault(tmp_path, fake_ollama.url, NOTES, "--exclude", "Private/**")


async def test_json_is_the_api_body(flags: list[str], fake_ollama: RunningOllama) -> None:
    result = await invoke("explain", *flags, QUESTION, "--note", OVER_BUDGET, "--json")

    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    golden = json.loads((Path(__file__).parents[1] / "fixtures" / "api" / "explain.json").read_text("utf-8"))
    # The same vault and question as the golden body: everything but when it was indexed is the same.
    body["note"]["indexed_at"] = golden["note"]["indexed_at"]
    assert body == golden
    assert fake_ollama.fake.calls("/api/chat") == []  # no answer model


async def test_text_starts_with_the_summary(flags: list[str]) -> None:
    result = await invoke("explain", *flags, QUESTION, "--note", BELOW_THE_CUT, "-k", "8")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Ranked 9th after fusion; only the top 6 were sent."
    assert lines[2].startswith(f"{BELOW_THE_CUT}: indexed, 1 chunk, indexed ")
    assert lines[3].startswith("dense    rank 7 · cosine 0.1231 · Postgres (lines 4–6)")
    assert lines[4].startswith("keyword  rank 9 · bm25 ")
    assert lines[5].startswith("fused    rank 9 · score ")
    assert lines[6] == "terms    matched: mainten · missing: kodi"
    assert lines[7].startswith("cut      8 asked for, 6 sent, last score 0.3320 · this note not sent")
    assert lines[8] == "relevance Your notes look relevant to this question (relevance 1.00, needs 0.50)."


async def test_an_excluded_note_in_text(flags: list[str]) -> None:
    result = await invoke("explain", *flags, QUESTION, "--note", "Private/Diary.md")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Excluded from the index by the pattern `Private/**`."
    assert lines[2] == "Private/Diary.md: excluded"
    assert lines[3] == "  exclude-glob: Excluded from the index by the pattern `Private/**`."
    assert lines[4:7] == ["dense    –", "keyword  –", "fused    –"]
    assert not [word for word in PRIVATE_WORDS if word.lower() in result.stdout.lower()]


async def test_a_bad_note_path_is_a_usage_error(flags: list[str]) -> None:
    result = await invoke("explain", *flags, QUESTION, "--note", "../outside.md")

    assert result.exit_code == EXIT_CONFIG
    assert "--note must not contain '..'" in result.stderr
