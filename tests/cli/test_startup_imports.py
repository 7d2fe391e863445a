"""What `askvault` imports to start: the command group, --version, --help and token import none of the engine, and a
search through a running sidecar none of it either (checked in sys.modules of a fresh interpreter, not by timing)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from askvault.cli import COMMANDS, cli
from tests.cli.cli_helpers import CLEAN_ENV
from tests.cli.sidecar_helpers import beside, running_sidecar
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

HEAVY = (
    "aiohttp",
    "bm25s",
    "fastembed",
    "httpx",
    "matplotlib",
    "mcp",
    "numpy",
    "ollama",
    "onnxruntime",
    "qdrant_client",
    "qdrant_edge",
    "rank_bm25",
    "tokenizers",
    "watchdog",
    "askvault.api.app",
    "askvault.ask",
    "askvault.embed",
    "askvault.evaluate",
    "askvault.index.indexer",
    "askvault.retrieve",
    "askvault.wiring",
)
"""The engine and the libraries behind it: 1.7-2.1 s of imports before, on every call."""

PROBE = """
import json, sys
args, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])
from askvault.cli import main
sys.argv = ["askvault", *args]
try:
    main()
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))
print("\\nIMPORTED " + json.dumps(loaded))
"""


async def imported_by(*args: str) -> tuple[list[str], str]:
    """The heavy modules a fresh interpreter has imported after running `askvault ARGS`, and what it printed."""
    env = {key: value for key, value in os.environ.items() if key not in CLEAN_ENV}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PROBE, json.dumps(list(args)), json.dumps(HEAVY), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(child.communicate(), 60)
    text, _, loaded = out.decode().rpartition("\nIMPORTED ")
    assert loaded, err.decode()
    return json.loads(loaded), text + err.decode()


@pytest.mark.slow
async def test_the_command_group_imports_none_of_the_engine() -> None:
    loaded, _ = await imported_by()  # no command: the group's usage, as `import askvault.cli` leaves it
    assert loaded == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "args", [["--version"], ["--help"], ["search", "--help"]], ids=["version", "help", "search-help"]
)
async def test_version_and_help_import_none_of_the_engine(args: list[str]) -> None:
    loaded, printed = await imported_by(*args)
    assert loaded == []
    assert printed.startswith("askvault 0.1.0" if args == ["--version"] else "Usage: ")


@pytest.mark.slow
async def test_token_imports_none_of_the_engine(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, {"a.md": "# A\n\nalpha\n"})
    async with running_sidecar(vault, data, fake_ollama.url) as car:
        loaded, printed = await imported_by("token", *beside(vault, data))
    assert loaded == []
    assert printed.strip() == car.token


@pytest.mark.slow
async def test_a_search_through_a_running_sidecar_imports_none_of_the_engine(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, {"Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433.\n"})
    async with running_sidecar(vault, data, fake_ollama.url):
        loaded, printed = await imported_by("search", *beside(vault, data), "5433", "--json")
    assert loaded == []
    assert json.loads(printed)["results"][0]["path"] == "Homelab/Postgres.md"


def test_help_lists_each_command_as_its_own_help_shortens_it() -> None:
    """The listing reads docstrings from the source (no imports); it must say what each command would."""
    listing = CliRunner().invoke(cli, ["--help"], terminal_width=200).output
    context = click.Context(cli)
    limit = 110 - 6 - max(len(name) for name in COMMANDS)
    for name in COMMANDS:
        command = cli.get_command(context, name)
        assert command is not None
        assert f"  {name.ljust(max(len(n) for n in COMMANDS))}  {command.get_short_help_str(limit)}\n" in listing
