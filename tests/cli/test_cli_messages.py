"""What `search`, `ask`, `related` and `index` say: readable scores, the relevance decision, each message once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from askvault.ask.pipeline import NOT_COVERED_ANSWER
from askvault.cli.options import EXIT_DENSE_OFF, EXIT_ERROR
from tests.cli.cli_helpers import common, indexed_vault, invoke, run_process
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

NOTES: dict[str, str | bytes] = {
    ".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Private/"]}),
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC and scans the NAS.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun and a sheltered balcony.\n",
    "Private/Kodo.md": "# Kodo\n\nNot for the index.\n",
}
NONSENSE = "xyzzy plugh frobnicate"
NOT_COVERED = "Your notes do not seem to cover this question"


@pytest.fixture
async def flags(tmp_path: Path, fake_ollama: RunningOllama) -> list[str]:
    return await indexed_vault(tmp_path, fake_ollama.url, NOTES)


async def test_a_nonsense_search_says_the_notes_do_not_cover_it_before_its_results(flags: list[str]) -> None:
    result = await invoke("search", *flags, NONSENSE)

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"relevance: {NOT_COVERED} (relevance ")
    assert lines[0].endswith("; the closest passages:")
    # The normalised fused score (1 for the best of anything) is not shown; each leg's raw score is.
    assert "fused" not in result.stdout
    assert "1.0000" not in result.stdout
    assert "(cosine " in lines[2]


async def test_a_good_search_shows_raw_scores_and_ends_with_the_decision(flags: list[str]) -> None:
    result = await invoke("search", *flags, "which port does the database listen on, 5433")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(" 1. Homelab/Postgres.md › Postgres")
    assert lines[1].startswith("    dense #1 (cosine ")
    assert " · keyword #1 (bm25 " in lines[1]
    assert lines[-2].startswith("relevance: Your notes look relevant to this question (relevance ")


async def test_search_json_adds_the_raw_scores_and_the_decision(flags: list[str]) -> None:
    result = await invoke("search", *flags, NONSENSE, "--json")

    body = json.loads(result.stdout)
    assert body["relevance"]["answer"] is False
    assert body["relevance"]["reason"].startswith(NOT_COVERED)
    top = body["results"][0]
    assert top["fused_score"] == 1.0  # kept for compatibility: the new fields are added beside it
    assert isinstance(top["dense_score"], float)
    assert top["keyword_score"] is None
    assert top["keyword_rank"] is None
    keyword_only = json.loads((await invoke("search", *flags, "port 5433", "--mode", "keyword", "--json")).stdout)
    assert keyword_only["relevance"] is None  # calibrated on hybrid searches only
    assert keyword_only["results"][0]["keyword_score"] > 0


async def test_ask_says_not_covered_once(flags: list[str], fake_ollama: RunningOllama) -> None:
    result = await invoke("ask", *flags, NONSENSE)
    as_json = await invoke("ask", *flags, NONSENSE, "--json")

    assert result.exit_code == 0, result.output
    assert result.stdout.count("cover this") == 1
    assert NOT_COVERED_ANSWER not in result.stdout
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{NOT_COVERED} (relevance ")
    assert lines[1] == "No model was asked. Closest notes:"
    assert "Ask anyway with --force." in lines
    assert json.loads(as_json.stdout)["answer"] == NOT_COVERED_ANSWER  # --json keeps its shape
    assert fake_ollama.fake.calls("/api/chat") == []


@pytest.mark.parametrize(
    ("path", "suggested"),
    [
        pytest.param("Homelab/Kodo.md", "Homelab/Kodi.md", id="typo"),
        pytest.param("kodi", "Homelab/Kodi.md", id="bare-name-any-case"),
        pytest.param("Homelab/Postgress", "Homelab/Postgres.md", id="typo-without-md"),
    ],
)
async def test_related_suggests_the_closest_indexed_paths(flags: list[str], path: str, suggested: str) -> None:
    result = await invoke("related", *flags, path)

    assert result.exit_code == EXIT_ERROR, result.output
    assert result.stderr == f"askvault: no indexed note at {path}; did you mean {suggested}?\n"


async def test_related_never_suggests_an_excluded_note(flags: list[str]) -> None:
    result = await invoke("related", *flags, "Elsewhere/Unknown.md")

    assert result.exit_code == EXIT_ERROR, result.output
    assert "Private/" not in result.stderr
    assert result.stderr == (
        "askvault: no indexed note at Elsewhere/Unknown.md; give its path inside the vault, such as Folder/Note.md "
        "(a new note needs `askvault index` first)\n"
    )


async def test_related_accepts_a_path_without_md(flags: list[str]) -> None:
    result = await invoke("related", *flags, "Homelab/Kodi")

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Related to Homelab/Kodi.md, ")


@pytest.mark.slow
async def test_index_says_each_problem_once(tmp_path: Path, closed_port_url: str) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {**NOTES, "Bad.md": b"# Bad\n\ncaf\xe9\n"})

    # A real process: the log handler is the one the command sets up, as a user sees it.
    result = await asyncio.to_thread(run_process, "index", *common(vault, tmp_path / "data", closed_port_url))

    assert result.returncode == EXIT_DENSE_OFF, result.stderr
    both = result.stdout + result.stderr
    assert both.count("Bad.md") == 1
    assert both.count("Ollama not reachable") == 1
    assert "WARNING" not in result.stderr


@pytest.mark.slow
async def test_ask_verbose_keeps_http_libraries_quiet(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    shared = common(vault, tmp_path / "data", fake_ollama.url)
    assert (await invoke("index", *shared)).exit_code == 0

    result = await asyncio.to_thread(run_process, "ask", "-v", *shared, "Which port does the database use?")

    assert result.returncode == 0, result.stderr
    assert "Homelab/Postgres.md" in result.stdout
    for library in ("httpcore", "httpx", "asyncio", "urllib3", "filelock"):
        assert f" {library}" not in result.stderr, result.stderr
