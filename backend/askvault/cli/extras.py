"""Commands that need an optional extra: without it they say, in one line, how to add it (no traceback).

`eval` and `calibrate` need `askvault[eval]` (matplotlib for their charts, rank-bm25 for the reference yardstick),
which a user's `pipx install askvault` leaves out. Imported only when a command's module failed to import."""

from __future__ import annotations

import importlib.metadata
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import click


@dataclass(frozen=True)
class Extra:
    """An optional extra of backend/pyproject.toml's [project.optional-dependencies], as the CLI speaks of it."""

    title: str
    modules: tuple[str, ...]
    """The top-level modules of its packages: a command failing to import one of these lacks the extra."""
    packages: tuple[str, ...]
    """Its packages' names as pip spells them (for `pipx inject` when the installed metadata is unreadable)."""


EXTRAS: dict[str, Extra] = {"eval": Extra("evaluation", ("matplotlib", "rank_bm25"), ("matplotlib", "rank-bm25"))}
COMMAND_EXTRAS: dict[str, str] = {"eval": "eval", "calibrate": "eval"}
"""Command → the extra its module needs."""


def missing_extra(command: str, error: ModuleNotFoundError) -> str | None:
    """The extra `command` needs when `error` says one of that extra's packages is not installed, else None."""
    extra = COMMAND_EXTRAS.get(command)
    if extra is None or error.name is None:
        return None
    return extra if error.name.partition(".")[0] in EXTRAS[extra].modules else None


def extra_requirements(extra: str) -> list[str]:
    """The extra's requirements with their version ranges, from the installed askvault's metadata."""
    try:
        requires = importlib.metadata.requires("askvault") or []
    except importlib.metadata.PackageNotFoundError:
        requires = []
    marker = f'extra == "{extra}"'
    found = [spec.strip() for spec, _, env in (r.partition(";") for r in requires) if env.strip() == marker]
    return found or list(EXTRAS[extra].packages)


def install_hint(extra: str, prefix: Path | None = None, python: str | None = None) -> str:
    """The command that adds `extra` to the environment askvault runs in: pipx's, uv's tool environment, or pip."""
    prefix = Path(sys.prefix) if prefix is None else prefix
    if (prefix / "pipx_metadata.json").is_file():
        # Works for an install from PyPI or from a release's wheel alike, and `pipx upgrade` keeps it.
        return shlex.join(["pipx", "inject", prefix.name, *extra_requirements(extra)])
    if (prefix / "uv-receipt.toml").is_file():
        return shlex.join(["uv", "tool", "install", "--force", f"askvault[{extra}]"])
    return shlex.join([python or sys.executable, "-m", "pip", "install", f"askvault[{extra}]"])


def missing_extra_message(command: str, extra: str, prefix: Path | None = None, python: str | None = None) -> str:
    """One sentence: what is missing and the command that adds it."""
    packages = ", ".join(EXTRAS[extra].packages)
    return (
        f"askvault {command} needs the {EXTRAS[extra].title} extra askvault[{extra}] ({packages}), which this "
        f"install lacks; add it with: {install_hint(extra, prefix, python)}"
    )


def missing_extra_command(name: str, extra: str, help_text: str | None) -> click.Command:
    """A stand-in for command `name`: with any arguments (--help too) it prints how to add `extra` and exits 1."""

    def refuse() -> None:
        from askvault.cli.options import EXIT_ERROR

        click.echo(f"askvault: {missing_extra_message(name, extra)}", err=True)
        sys.exit(EXIT_ERROR)

    return click.Command(
        name,
        callback=refuse,
        help=help_text,
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
