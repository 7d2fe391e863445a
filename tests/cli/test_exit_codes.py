"""Exit codes a script can trust: a partial `index` run is not a success, and a vault never indexed is said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.cli.options import EXIT_DENSE_OFF, EXIT_NOT_INDEXED, EXIT_NOTES_FAILED
from tests.cli.cli_helpers import common, invoke
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

GOOD: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC.\n",
}
BAD: dict[str, str | bytes] = {"Bad.md": b"# Bad\n\ncaf\xe9 au lait\n"}


def vault_with(tmp_path: Path, notes: dict[str, str | bytes]) -> Path:
    vault = tmp_path / "vault"
    write_notes(vault, notes)
    return vault


async def test_a_whole_run_exits_0(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = vault_with(tmp_path, GOOD)

    result = await invoke("index", *common(vault, tmp_path / "data", fake_ollama.url))

    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("as_json", [False, True], ids=["summary", "json"])
async def test_failed_notes_exit_5_after_the_summary(tmp_path: Path, fake_ollama: RunningOllama, as_json: bool) -> None:
    vault = vault_with(tmp_path, {**GOOD, **BAD})

    result = await invoke("index", *common(vault, tmp_path / "data", fake_ollama.url), *(["--json"] if as_json else []))

    assert result.exit_code == EXIT_NOTES_FAILED, result.output
    if as_json:
        assert [p["path"] for p in json.loads(result.stdout)["failed"]] == ["Bad.md"]
    else:
        assert "  failed  Bad.md: not valid UTF-8" in result.stdout
    assert result.stderr == ""


async def test_dense_search_off_exits_6_even_when_notes_failed(tmp_path: Path, closed_port_url: str) -> None:
    vault = vault_with(tmp_path, {**GOOD, **BAD})

    result = await invoke("index", *common(vault, tmp_path / "data", closed_port_url))

    assert result.exit_code == EXIT_DENSE_OFF, result.output
    assert result.stdout.splitlines()[1].startswith("Dense search with Ollama: nomic-embed-text: off — ")
    assert "  failed  Bad.md" in result.stdout


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["search", "port 5433"], id="search"),
        pytest.param(["search", "port 5433", "--json"], id="search-json"),
        pytest.param(["related", "Homelab/Kodi.md"], id="related"),
        pytest.param(["ask", "Which port does the database use?"], id="ask"),
    ],
)
async def test_a_vault_never_indexed_says_how_to_index_it(
    tmp_path: Path, fake_ollama: RunningOllama, command: list[str]
) -> None:
    vault = vault_with(tmp_path, GOOD)
    data_root = tmp_path / "data"

    result = await invoke(*command[:1], *common(vault, data_root, fake_ollama.url), *command[1:])

    assert result.exit_code == EXIT_NOT_INDEXED, result.output
    assert result.stdout == ""
    assert result.stderr == (
        f"askvault: nothing is indexed for the vault {vault} yet; "
        f"run `askvault index --vault {vault} --data-dir {data_root}` first\n"
    )
    assert "No results." not in result.output
    assert fake_ollama.fake.calls("/api/chat") == []  # no model asked about an empty index


async def test_a_vault_without_notes_asks_whether_it_is_the_right_folder(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    shared = common(vault, tmp_path / "data", fake_ollama.url)
    assert (await invoke("index", *shared)).exit_code == 0

    result = await invoke("search", *shared, "anything")

    assert result.exit_code == EXIT_NOT_INDEXED, result.output
    # Running `index` again would not help, so the sentence does not send the user there.
    assert (
        result.stderr == f"askvault: the vault {vault} holds no notes (.md files) yet; is --vault the right folder?\n"
    )
