"""`askvault index` from the command line: summary, `--json`, Ollama down, mass-delete refusal, the writer lock."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from askvault.cli.index_cmd import format_summary
from askvault.cli.options import EXIT_DENSE_OFF, EXIT_LOCKED, EXIT_NOTES_FAILED, EXIT_VAULT_EMPTY
from askvault.index.lock import IndexLock
from askvault.index.report import IndexReport, Problem
from tests.cli.cli_helpers import common, config_of, invoke, run_process
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

NOTES: dict[str, str | bytes] = {
    ".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Private/"]}),
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC.\n",
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun.\n",
    "Private/Diary.md": "# Diary\n\nNot for the index.\n",
    "Drafts/wip.md": "# WIP\n\nNot yet.\n",
    "Secret.md": "---\naskvault: false\n---\n# Secret\n",
    "Big.md": "# Big\n\n" + "x" * (4 * 1024 * 1024 + 1),
    "Bad.md": b"# Bad\n\ncaf\xe9 au lait\n",
}
REPORT_KEYS = {
    "indexed", "unchanged", "removed", "skipped", "failed", "chunks", "notes", "embedded", "dense",
    "dense_problem", "dense_graph", "seconds", "finished_at",
}  # fmt: skip


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    return root


def index_args(vault: Path, ollama_url: str, *extra: str) -> list[str]:
    return ["index", *common(vault, vault.parent / "data", ollama_url), "--exclude", "Drafts/", *extra]


async def test_index_prints_a_summary(vault: Path, fake_ollama: RunningOllama) -> None:
    result = await invoke(*index_args(vault, fake_ollama.url))

    assert result.exit_code == EXIT_NOTES_FAILED, result.output  # Bad.md
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "Indexed vault: 3 indexed, 0 unchanged, 0 removed, 4 skipped, 1 failed — 3 notes, 3 chunks"
    )
    assert lines[1] == "Dense search: ready with Ollama: nomic-embed-text (3 chunks embedded this run)."
    assert lines[2].startswith("  failed  Bad.md: not valid UTF-8 at byte")
    assert sorted(lines[3:]) == [
        "  skipped Big.md: too large (4.1 MiB; the limit is 4 MiB); split it into smaller files to index it",
        "  skipped Drafts/wip.md: exclude glob 'Drafts/'",
        "  skipped Private/: Obsidian Excluded files: 'Private/'",
        "  skipped Secret.md: opted out (askvault: false)",
    ]


async def test_index_json_summary_and_a_second_run(vault: Path, fake_ollama: RunningOllama) -> None:
    first = await invoke(*index_args(vault, fake_ollama.url, "--json"))
    (vault / "Ideas/Gardening.md").write_text("# Gardening\n\nChillies like heat.\n", encoding="utf-8")
    second = await invoke(*index_args(vault, fake_ollama.url, "--json"))

    assert first.exit_code == EXIT_NOTES_FAILED, first.output  # Bad.md, read again (and failing) on every run
    assert second.exit_code == EXIT_NOTES_FAILED, second.output
    body = json.loads(first.stdout)
    assert set(body) >= REPORT_KEYS
    assert (body["indexed"], body["unchanged"], body["notes"], body["chunks"], body["embedded"]) == (3, 0, 3, 3, 3)
    assert (body["dense"], body["dense_problem"]) == ("ready", None)
    assert {p["path"] for p in body["skipped"]} == {"Private/", "Drafts/wip.md", "Secret.md", "Big.md"}
    assert [p["path"] for p in body["failed"]] == ["Bad.md"]
    assert all(set(p) == {"path", "reason"} for p in body["skipped"] + body["failed"])
    assert isinstance(body["seconds"], float)
    assert body["finished_at"].endswith("Z")
    again = json.loads(second.stdout)
    assert (again["indexed"], again["unchanged"], again["embedded"]) == (1, 2, 1)


async def test_index_with_ollama_down_says_how_to_fix_it(vault: Path, closed_port_url: str) -> None:
    result = await invoke(*index_args(vault, closed_port_url))

    assert result.exit_code == EXIT_DENSE_OFF, result.output
    assert result.stdout.splitlines()[1] == (
        "Dense search with Ollama: nomic-embed-text: off — "
        f"Ollama not reachable at {closed_port_url} — start it with `ollama serve`, or set "
        "--ollama-url / OLLAMA_HOST. Keyword search works."
    )


async def test_a_vault_that_looks_unmounted_exits_4_until_allowed(tmp_path: Path, closed_port_url: str) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {f"Notes/n{i:02}.md": f"# Note {i}\n\nText {i}.\n" for i in range(20)})
    args = ["index", *common(vault, tmp_path / "data", closed_port_url), "--json"]
    assert (await invoke(*args)).exit_code == EXIT_DENSE_OFF  # no Ollama: keyword search only
    shutil.move(vault / "Notes", tmp_path / "moved-away")

    refused = await invoke(*args)
    allowed = await invoke(*args, "--allow-mass-delete")

    assert refused.exit_code == EXIT_VAULT_EMPTY
    assert refused.stdout == ""
    assert refused.stderr.startswith("askvault: the vault now shows 0 notes but 20 are indexed (20 would be deleted)")
    assert "--allow-mass-delete" in refused.stderr
    assert allowed.exit_code == EXIT_DENSE_OFF, allowed.output
    assert (json.loads(allowed.stdout)["removed"], json.loads(allowed.stdout)["notes"]) == (20, 0)


@pytest.mark.slow
def test_a_second_writer_exits_3_naming_the_other_pid(tmp_path: Path, closed_port_url: str) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {"a.md": "# A\n"})
    data_root = tmp_path / "data"

    with IndexLock(config_of(vault, data_root).store.data_dir):
        busy = run_process("index", *common(vault, data_root, closed_port_url))
    free = run_process("index", *common(vault, data_root, closed_port_url), "--json")

    assert busy.returncode == EXIT_LOCKED, busy.stderr
    assert busy.stdout == ""
    assert busy.stderr.strip() == (
        f"askvault: another Ask Vault process (pid {os.getpid()}) is writing this vault's index and no sidecar "
        "answers for it; wait until it finishes (an `askvault index` run?) or stop it, then run this again"
    )
    assert free.returncode == EXIT_DENSE_OFF, free.stderr  # no Ollama behind closed_port_url
    assert json.loads(free.stdout)["indexed"] == 1


def test_summary_names_notes_read_as_plain_text(tmp_path: Path) -> None:
    notice = "parsed as plain text (250000 lines): too long to read as Markdown in time"
    report = IndexReport(notices=[Problem("Logs/huge.md", notice)])

    lines = format_summary(report, tmp_path / "vault").splitlines()

    assert lines[-1] == f"  notice  Logs/huge.md: {notice}"
