"""The eval extra: matplotlib and rank-bm25 are not runtime dependencies; `eval` and `calibrate` without them say in
one line how to add them, and every other command runs without them."""

from __future__ import annotations

import asyncio
import json
import os
import pkgutil
import re
import shlex
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import askvault
import askvault.cli
from askvault.cli import cli
from askvault.cli.extras import EXTRAS, install_hint, missing_extra, missing_extra_message
from askvault.cli.options import EXIT_ERROR
from tests.cli.cli_helpers import CLEAN_ENV, common
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

ROOT = Path(__file__).resolve().parents[2]
EVAL_COMMAND_MODULES = (
    "askvault.cli.eval_cmd",
    "askvault.cli.eval_meta",
    "askvault.cli.eval_answers",
    "askvault.cli.calibrate_cmd",
)
EVAL_MODULES = EXTRAS["eval"].modules


def message(command: str) -> str:
    """What `askvault COMMAND` prints without the extra, in this (pip-installed, not pipx) test environment."""
    return (
        f"askvault: askvault {command} needs the evaluation extra askvault[eval] (matplotlib, rank-bm25), which this "
        f"install lacks; add it with: {shlex.quote(sys.executable)} -m pip install 'askvault[eval]'\n"
    )


def requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return match.group().lower().replace("_", "-")


def test_the_eval_packages_are_an_extra_not_runtime_dependencies() -> None:
    project = tomllib.loads((ROOT / "backend/pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {requirement_name(r) for r in project["dependencies"]}
    extra = {requirement_name(r) for r in project["optional-dependencies"]["eval"]}

    assert extra == set(EXTRAS["eval"].packages) == {"matplotlib", "rank-bm25"}
    assert not runtime & extra
    assert "askvault[eval]" in project["optional-dependencies"]["dev"]  # the tests, `make eval` and `make bench`


def test_the_import_contract_covers_every_module_but_the_eval_ones() -> None:
    """A module added outside the contract's list would escape it: the list must name every other module."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contract = next(c for c in contracts["contracts"] if "matplotlib" in c.get("forbidden_modules", []))
    top = {f"askvault.{m.name}" for m in pkgutil.iter_modules(askvault.__path__)}
    commands = {f"askvault.cli.{m.name}" for m in pkgutil.iter_modules(askvault.cli.__path__)}
    others = top - {"askvault.cli", "askvault.evaluate"} | commands - set(EVAL_COMMAND_MODULES)

    assert set(contract["forbidden_modules"]) == {*EVAL_MODULES, "askvault.evaluate"}
    assert set(contract["source_modules"]) == others


@pytest.fixture
def without_the_eval_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib and rank_bm25 unimportable (None in sys.modules), and the modules importing them not loaded yet."""
    for name in [*EVAL_MODULES, *(m for m in sys.modules if m.partition(".")[0] in EVAL_MODULES)]:
        monkeypatch.setitem(sys.modules, name, None)
    importers = ("askvault.evaluate.chart", "askvault.evaluate.answer_report", "askvault.evaluate.reference")
    for name in (*EVAL_COMMAND_MODULES, *importers):
        monkeypatch.delitem(sys.modules, name, raising=False)


@pytest.mark.usefixtures("without_the_eval_extra")
@pytest.mark.parametrize(
    "args",
    [
        ["eval", "--vault", "notes", "--questions", "questions.jsonl"],
        ["eval", "--help"],
        ["calibrate", "run.json", "--model", "all-minilm"],
    ],
    ids=["eval", "eval-help", "calibrate"],
)
def test_eval_commands_without_the_extra_say_how_to_add_it(args: list[str]) -> None:
    result = CliRunner(env=CLEAN_ENV).invoke(cli, args)

    assert result.exit_code == EXIT_ERROR
    assert result.stdout == ""
    assert result.stderr == message(args[0])
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.usefixtures("without_the_eval_extra")
def test_help_still_lists_the_eval_commands_without_the_extra() -> None:
    listing = CliRunner().invoke(cli, ["--help"]).output
    assert "  eval " in listing
    assert "  calibrate " in listing


def test_only_the_extras_own_packages_count_as_the_extra_missing() -> None:
    assert missing_extra("eval", ModuleNotFoundError("no", name="matplotlib.figure")) == "eval"
    assert missing_extra("calibrate", ModuleNotFoundError("no", name="rank_bm25")) == "eval"
    assert missing_extra("eval", ModuleNotFoundError("no", name="yaml")) is None
    assert missing_extra("search", ModuleNotFoundError("no", name="matplotlib")) is None


def test_the_hint_fits_how_askvault_was_installed(tmp_path: Path) -> None:
    pipx, uv, venv = tmp_path / "pipx/venvs/askvault", tmp_path / "uv/tools/askvault", tmp_path / "venv"
    for folder in (pipx, uv, venv):
        folder.mkdir(parents=True)
    (pipx / "pipx_metadata.json").write_text("{}", encoding="utf-8")
    (uv / "uv-receipt.toml").write_text("", encoding="utf-8")

    # pipx: the extra's requirements, with their ranges, from the installed metadata (a wheel install works too).
    assert install_hint("eval", pipx) == "pipx inject askvault 'matplotlib<4,>=3.8' rank-bm25==0.2.2"
    assert install_hint("eval", uv) == "uv tool install --force 'askvault[eval]'"
    assert install_hint("eval", venv, "/opt/my env/bin/python") == (
        "'/opt/my env/bin/python' -m pip install 'askvault[eval]'"
    )
    assert missing_extra_message("calibrate", "eval", pipx) == (
        "askvault calibrate needs the evaluation extra askvault[eval] (matplotlib, rank-bm25), which this install "
        "lacks; add it with: pipx inject askvault 'matplotlib<4,>=3.8' rank-bm25==0.2.2"
    )


WITHOUT_THE_EXTRA = """
import importlib.abc, json, sys
blocked = tuple(json.loads(sys.argv[1]))

class WithoutTheEvalExtra(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, WithoutTheEvalExtra())
from askvault.cli import main
sys.argv = ["askvault", *sys.argv[2:]]
try:
    main()
finally:
    loaded = [m for m in sys.modules if m.partition(".")[0] in blocked or m.startswith("askvault.evaluate")]
    print("\\nEVAL MODULES " + json.dumps(sorted(loaded)))
"""
"""`askvault ARGS` in an interpreter where matplotlib and rank_bm25 cannot be imported, as in a user's install without
the extra; prints the evaluation modules it loaded anyway."""


async def without_the_extra(*args: str) -> tuple[int, str, str, list[str]]:
    """(exit code, stdout, stderr, the evaluation modules loaded) of `askvault ARGS` without the eval extra."""
    env = {key: value for key, value in os.environ.items() if key not in CLEAN_ENV}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WITHOUT_THE_EXTRA, json.dumps(EVAL_MODULES), *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(child.communicate(), 90)
    text, _, loaded = out.decode().rpartition("\nEVAL MODULES ")
    assert loaded, err.decode()
    assert child.returncode is not None
    return child.returncode, text, err.decode(), json.loads(loaded)


@pytest.mark.slow
async def test_the_eval_command_without_the_extra_exits_with_one_line(tmp_path: Path) -> None:
    code, out, err, _ = await without_the_extra("eval", "--vault", str(tmp_path), "--questions", "questions.jsonl")

    assert (code, out, err) == (EXIT_ERROR, "", message("eval"))


@pytest.mark.slow
async def test_every_other_command_runs_without_the_extra(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, {"Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433.\n"})
    flags = common(vault, data, fake_ollama.url)

    for args in (["--help"], ["index", *flags], ["search", *flags, "5433", "--json"]):
        code, out, err, loaded = await without_the_extra(*args)
        assert code == 0, err
        assert loaded == [], args
    assert json.loads(out)["results"][0]["path"] == "Homelab/Postgres.md"
