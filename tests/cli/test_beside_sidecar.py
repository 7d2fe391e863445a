"""search, ask, explain, related and index while a real sidecar holds the vault: answered through its API."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from askvault.api.discovery import write_discovery
from askvault.cli.options import EXIT_CONFIG, EXIT_LOCKED, EXIT_NOT_INDEXED, EXIT_NOTES_FAILED, EXIT_VAULT_EMPTY
from askvault.index.lock import IndexLock
from askvault.index.report import IndexReport
from tests.cli.cli_helpers import common, config_of, invoke
from tests.cli.sidecar_helpers import RunningSidecar, beside, running_sidecar
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC and scans the NAS.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun and a port-side balcony.\n",
}
QUESTION = "Which port does Postgres listen on?"


@dataclass
class Beside:
    car: RunningSidecar
    flags: list[str]
    """What a user types beside the sidecar: --vault, --data-dir (and an empty --config)."""
    local: list[str]
    """The flags that open the index here, once the sidecar has stopped (the fake Ollama's embedder)."""
    vault: Path


@pytest.fixture
async def served(tmp_path: Path, fake_ollama: RunningOllama) -> AsyncIterator[Beside]:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, NOTES)
    async with running_sidecar(vault, data, fake_ollama.url) as car:
        yield Beside(car, beside(vault, data), common(vault, data, fake_ollama.url), vault)


def without_timings(value: object) -> object:
    """Bodies of two runs differ only in how long each step took."""
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key != "timings_ms"}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


async def test_search_answers_through_the_sidecar_with_its_search_body(served: Beside) -> None:
    query = "which port does the database use, 5433"
    as_json = await invoke("search", *served.flags, query, "-k", "3", "--json")
    as_text = await invoke("search", *served.flags, query, "-k", "3")

    assert as_json.exit_code == 0, as_json.output
    status, api = await served.car.call("POST", "/api/search", {"query": query, "k": 3, "mode": "hybrid"})
    assert status == 200
    assert without_timings(json.loads(as_json.stdout)) == without_timings(api)
    assert as_text.exit_code == 0, as_text.output
    assert as_text.stdout.startswith(" 1. Homelab/Postgres.md › Postgres  (lines 1–3)\n")


async def test_search_filters_and_modes_reach_the_sidecar(served: Beside) -> None:
    keyword = await invoke("search", *served.flags, "port", "--mode", "keyword", "--folder", "Ideas/", "--json")

    assert keyword.exit_code == 0, keyword.output
    assert [r["path"] for r in json.loads(keyword.stdout)["results"]] == ["Ideas/Gardening.md"]
    assert set(json.loads(keyword.stdout)["timings_ms"]) == {"keyword", "fusion", "total"}


async def test_ask_streams_the_sidecars_answer_then_its_sources(served: Beside, fake_ollama: RunningOllama) -> None:
    streamed = await invoke("ask", *served.flags, QUESTION)
    as_json = await invoke("ask", *served.flags, QUESTION, "--json")

    assert streamed.exit_code == 0, streamed.output
    lines = streamed.stdout.splitlines()
    assert lines[0] == "The notes say so [1]."
    assert lines[lines.index("Sources:") + 1] == "  [1] Homelab/Postgres.md › Postgres (lines 1–3)"
    assert lines[-1].startswith("— embed_ms ")
    assert as_json.exit_code == 0, as_json.output
    body = json.loads(as_json.stdout)
    assert set(body) == {"answer", "citations", "sources", "sent", "metrics", "relevance", "closest"}
    assert (body["answer"], body["citations"]) == ("The notes say so [1].", [1])
    assert body["sent"] == [source["id"] for source in body["sources"]]
    assert len(fake_ollama.fake.calls("/api/chat")) == 2  # both answers came from the sidecar's model calls


async def test_explain_and_related_print_what_the_index_here_prints(served: Beside) -> None:
    explain_args = ["explain", QUESTION, "--note", "Homelab/Kodi.md", "--json"]
    related_args = ["related", "Homelab/Postgres.md", "--json"]
    explained = await invoke(explain_args[0], *served.flags, *explain_args[1:])
    related = await invoke(related_args[0], *served.flags, *related_args[1:])
    explained_text = await invoke(explain_args[0], *served.flags, *explain_args[1:-1])
    await served.car.shutdown()
    explained_here = await invoke(explain_args[0], *served.local, *explain_args[1:])
    related_here = await invoke(related_args[0], *served.local, *related_args[1:])
    explained_text_here = await invoke(explain_args[0], *served.local, *explain_args[1:-1])

    for there, here in ((explained, explained_here), (related, related_here), (explained_text, explained_text_here)):
        assert there.exit_code == 0, there.output
        assert here.exit_code == 0, here.output
    assert without_timings(json.loads(explained.stdout)) == without_timings(json.loads(explained_here.stdout))
    assert without_timings(json.loads(related.stdout)) == without_timings(json.loads(related_here.stdout))
    assert explained_text.stdout == explained_text_here.stdout


async def test_index_asks_the_sidecar_to_reindex_and_reports_its_run(served: Beside) -> None:
    (served.vault / "Homelab" / "Grafana.md").write_text("# Grafana\n\nDashboards live on port 3917.\n", "utf-8")
    text = await invoke("index", *served.flags)
    as_json = await invoke("index", *served.flags, "--full", "--json")

    assert text.exit_code == 0, text.output
    first, dense = text.stdout.splitlines()[:2]
    assert first.startswith(f"Indexed vault through the running sidecar (pid {os.getpid()}): ")
    assert first.endswith("— 4 notes, 4 chunks in " + first.rsplit(" in ", 1)[1])
    assert dense == "Dense search: ready with Ollama: nomic-embed-text."
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert set(report) == set(IndexReport().to_json()) | {"sidecar"}
    assert (report["notes"], report["chunks"], report["failed"], report["dense"]) == (4, 4, [], "ready")
    assert report["sidecar"]["pid"] == os.getpid()
    _, found = await served.car.call("POST", "/api/search", {"query": "3917", "mode": "keyword"})
    results = found["results"]
    assert isinstance(results, list)
    assert [result["path"] for result in results] == ["Homelab/Grafana.md"]


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (
            ["search", "port", "--embed-model", "builtin"],
            "--embed-model builtin differs from the running sidecar's embedder (Ollama: nomic-embed-text, pid {pid}); "
            "leave it out, or stop the sidecar to use it",
        ),
        (
            ["ask", QUESTION, "--exclude", "Ideas/**", "--chat-model", "llama3.2:3b"],
            "--exclude cannot be applied by the running sidecar (pid {pid}), which keeps the settings it started "
            "with; leave them out, or stop the sidecar to run with them",
        ),
        (
            ["index", "--allow-mass-delete"],
            "--allow-mass-delete cannot go through the running sidecar (pid {pid}), which never deletes most of an "
            "index; stop the sidecar (or Obsidian), then run this again",
        ),
    ],
    ids=["other-embedder", "fixed-setting", "mass-delete"],
)
async def test_what_the_sidecar_cannot_honour_is_refused_in_one_sentence(
    served: Beside, args: list[str], sentence: str
) -> None:
    result = await invoke(args[0], *served.flags, *args[1:])

    assert result.exit_code == EXIT_CONFIG, result.output
    assert result.stdout == ""
    assert result.stderr.strip() == "askvault: " + sentence.format(pid=os.getpid())


async def test_settings_equal_to_the_sidecars_are_accepted(served: Beside) -> None:
    result = await invoke("search", *served.flags, "5433", "--embed-model", "nomic-embed-text", "--json")

    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["path"] == "Homelab/Postgres.md"


@pytest.mark.parametrize("stale", [False, True], ids=["no-discovery-file", "discovery-file-nobody-answers"])
@pytest.mark.parametrize("command", [["search", "port"], ["index"]], ids=["search", "index"])
async def test_a_lock_held_without_a_sidecar_is_refused_with_exit_3(
    tmp_path: Path, closed_port_url: str, command: list[str], stale: bool
) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, NOTES)
    data_dir = config_of(vault, data).store.data_dir
    with IndexLock(data_dir):
        if stale:
            # Alive (this process) but listening nowhere: what a sidecar that hung, or a reused pid, looks like.
            write_discovery(data_dir, "127.0.0.1", int(closed_port_url.rsplit(":", 1)[1]), os.getpid(), "0.1.0")
        result = await invoke(command[0], *beside(vault, data), *command[1:])

    assert result.exit_code == EXIT_LOCKED, result.output
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"askvault: another Ask Vault process (pid {os.getpid()}) is writing this vault's index and no sidecar "
        "answers for it; wait until it finishes (an `askvault index` run?) or stop it, then run this again"
    )


async def test_a_vault_that_looks_unmounted_exits_4_through_the_sidecar_too(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, {f"Notes/Note {i:02d}.md": f"# Note {i}\n\nlantern{i:04d}\n" for i in range(20)})
    async with running_sidecar(vault, data, fake_ollama.url) as car:
        shutil.move(vault / "Notes", tmp_path / "moved-away")
        refused = await invoke("index", *beside(vault, data))
        _, found = await car.call("POST", "/api/search", {"query": "lantern0007", "mode": "keyword"})

    assert refused.exit_code == EXIT_VAULT_EMPTY, refused.output
    assert refused.stdout == ""
    assert refused.stderr.startswith("askvault: the vault now shows 0 notes but 20 are indexed (20 would be deleted)")
    results = found["results"]
    assert isinstance(results, list)
    assert [result["path"] for result in results] == ["Notes/Note 07.md"]  # the index was kept


async def test_a_note_that_fails_is_named_and_the_run_exits_as_it_would_here(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, {**NOTES, "Bad.md": b"# Bad\n\n\xe9 au revoir\n"})
    async with running_sidecar(vault, data, fake_ollama.url):
        text = await invoke("index", *beside(vault, data))
        as_json = await invoke("index", *beside(vault, data), "--json")
    here = await invoke("index", *common(vault, data, fake_ollama.url), "--json")

    assert text.exit_code == as_json.exit_code == here.exit_code == EXIT_NOTES_FAILED, text.output
    failed = [line for line in text.stdout.splitlines() if line.startswith("  failed  ")]
    assert [line.split(":")[0] for line in failed] == ["  failed  Bad.md"]
    assert json.loads(as_json.stdout)["failed"] == json.loads(here.stdout)["failed"]


async def test_related_through_the_sidecar_completes_md_and_suggests_close_paths(served: Beside) -> None:
    without_md = await invoke("related", *served.flags, "Homelab/Postgres", "--json")
    typo = await invoke("related", *served.flags, "Homelab/Kodo.md")

    assert without_md.exit_code == 0, without_md.output
    assert json.loads(without_md.stdout)["path"] == "Homelab/Postgres.md"
    assert typo.exit_code == 1
    assert "no indexed note at Homelab/Kodo.md; did you mean Homelab/Kodi.md?" in typo.stderr


async def test_a_sidecar_with_no_notes_says_so_not_no_results(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault, data = tmp_path / "empty vault", tmp_path / "data"
    vault.mkdir()
    async with running_sidecar(vault, data, fake_ollama.url):
        searched = await invoke("search", *beside(vault, data), "anything")
        related = await invoke("related", *beside(vault, data), "Some/Note.md")
    for result in (searched, related):
        assert result.exit_code == EXIT_NOT_INDEXED, result.output
        assert "the running sidecar (pid" in result.stderr
        assert f"found no notes (.md files) in {vault}; is --vault the right folder?" in result.stderr
