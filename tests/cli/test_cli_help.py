"""`askvault --help` and each command's --help: whole summaries, only the options a command reads, the exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from askvault.cli import cli
from askvault.cli.options import EXIT_CODES

LOCATION = {"--vault", "--data-dir", "--config"}
ENGINE = {"--ollama-url", "--embed-model", "--qdrant-url"}
FILTERS = {"--exclude", "--include", "--exclude-heading"}
INDEXING = {"--redact-seed-phrases"}
QUERY = {"--query-dates"}
ANSWER = {"--chat-model"}
RERANK = {"--rerank", "--rerank-model", "--rerank-candidates", "--rerank-excerpt-chars", "--rerank-timeout"}
REMOTE = {"--remote", "--remote-name", "--remote-cert", "--remote-key"}
CONFIGURATION = LOCATION | ENGINE | FILTERS | INDEXING | QUERY | ANSWER | RERANK | REMOTE
"""Every flag that feeds the configuration; each command lists the ones it reads and no other."""

EXPECTED = {
    "index": LOCATION | ENGINE | FILTERS | INDEXING,
    "search": LOCATION | ENGINE | FILTERS | QUERY,
    "related": LOCATION | ENGINE | FILTERS,
    "ask": LOCATION | ENGINE | FILTERS | QUERY | ANSWER | RERANK,
    "explain": LOCATION | ENGINE | FILTERS | QUERY | ANSWER | RERANK,
    "token": LOCATION,
    "serve": CONFIGURATION,
    "mcp": CONFIGURATION - REMOTE,
    "eval": CONFIGURATION - REMOTE,
    "calibrate": set(),
    "install-plugin": {"--vault"},
    "pair": LOCATION | REMOTE,
    "devices": LOCATION,
    "revoke": LOCATION,
}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def help_of(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def listed_flags(text: str) -> set[str]:
    """The long flags --help lists (`--rerank / --no-rerank` counts as --rerank)."""
    return set(re.findall(r"^  (?:-\w, )?(--[a-z][a-z-]*)", text, flags=re.MULTILINE))


@pytest.mark.parametrize("command", sorted(EXPECTED), ids=sorted(EXPECTED))
def test_each_command_lists_only_the_options_it_reads(command: str) -> None:
    flags = listed_flags(help_of(command))

    assert EXPECTED[command] <= flags
    assert not (CONFIGURATION - EXPECTED[command]) & flags


def test_index_help_lists_no_answer_or_rerank_option() -> None:
    text = help_of("index")

    assert "--chat-model" not in text
    assert "--rerank" not in text
    assert "--query-dates" not in text


def test_every_command_is_summed_up_in_a_whole_sentence() -> None:
    text = help_of()
    rows = re.findall(r"^  (\S+) +(.+)$", text.split("Commands:\n", 1)[1], flags=re.MULTILINE)
    group = cli
    assert isinstance(group, click.Group)

    assert {name for name, _ in rows} == set(EXPECTED)
    for name, summary in rows:
        command = group.get_command(click.Context(group), name)
        assert command is not None
        assert not summary.endswith("..."), f"{name}: {summary}"
        # The first sentence of the command's own help, whole, as its --help starts.
        assert summary == command.get_short_help_str(limit=10_000), name
        assert summary.endswith(".")
        assert help_of(name).split("\n\n", 2)[1].strip() == summary


def test_index_help_ends_with_the_exit_codes() -> None:
    text = help_of("index")
    block = text.split("Exit codes:\n", 1)[1]

    for code, meaning in EXIT_CODES:
        assert re.search(rf"^ +{code}  {re.escape(meaning)}$", block, flags=re.MULTILINE), (code, meaning)


def test_docs_list_the_same_exit_codes() -> None:
    table = re.findall(r"^\| (\d+) \| (.+) \|$", DOCS.read_text(encoding="utf-8"), flags=re.MULTILINE)

    assert [int(code) for code, _ in table] == [code for code, _ in EXIT_CODES]
