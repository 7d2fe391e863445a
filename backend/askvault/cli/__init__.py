"""The `askvault` command line: serve, index, search, ask, explain, related, eval, mcp, install-plugin, token, pair."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import click

COMMANDS: dict[str, tuple[str, str]] = {
    "ask": ("askvault.cli.query_cmd", "ask"),
    "calibrate": ("askvault.cli.calibrate_cmd", "calibrate_command"),
    "devices": ("askvault.cli.pair_cmd", "devices"),
    "eval": ("askvault.cli.eval_cmd", "eval_command"),
    "explain": ("askvault.cli.explain_cmd", "explain"),
    "index": ("askvault.cli.index_cmd", "index"),
    "install-plugin": ("askvault.cli.admin_cmd", "install_plugin"),
    "mcp": ("askvault.cli.mcp_cmd", "mcp_command"),
    "pair": ("askvault.cli.pair_cmd", "pair"),
    "related": ("askvault.cli.related_cmd", "related"),
    "revoke": ("askvault.cli.pair_cmd", "revoke"),
    "search": ("askvault.cli.query_cmd", "search"),
    "serve": ("askvault.cli.serve_cmd", "serve"),
    "token": ("askvault.cli.admin_cmd", "token"),
}
"""Each command's module and the name of its command there. A module is imported only when its command runs: the
engine, Qdrant, fastembed, Ollama's client and aiohttp took 1.7-2.1 s to import, which every call paid, even
`--version` and `token`."""


def _docstring(module: str, function: str) -> str | None:
    """A command function's docstring, read from its module's source without importing the module."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return ast.get_docstring(node)
    return None


class LazyGroup(click.Group):
    """A group that imports a command's module when the command is invoked (or its own --help is asked for)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        try:
            module = importlib.import_module(entry[0])
        except ModuleNotFoundError as exc:
            # `eval` and `calibrate` need the eval extra, which a user's install may lack: they say how to add it.
            from askvault.cli.extras import missing_extra, missing_extra_command

            extra = missing_extra(cmd_name, exc)
            if extra is None:
                raise
            return missing_extra_command(cmd_name, extra, _docstring(*entry))
        command = getattr(module, entry[1])
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The listing reads each command's docstring from its source rather than importing every command (seconds).
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = []
        for name, (module, function) in COMMANDS.items():
            doc = _docstring(module, function)
            command = click.Command(name, help=doc) if doc is not None else self.get_command(ctx, name)
            if command is not None:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from askvault.cli.plugin_source import version_text

        click.echo(version_text())
        ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the sidecar's version and the plugin version install-plugin installs, and exit.",
)
def cli() -> None:
    """Ask questions of your Obsidian vault, locally: hybrid search and cited answers from Ollama."""


def main() -> None:
    cli()
