"""The `askvault` command line: serve, index, search, ask, explain, related, eval, mcp, install-plugin, token."""

from __future__ import annotations

import click

from askvault.cli.admin_cmd import install_plugin, token
from askvault.cli.calibrate_cmd import calibrate_command
from askvault.cli.eval_cmd import eval_command
from askvault.cli.explain_cmd import explain
from askvault.cli.index_cmd import index
from askvault.cli.mcp_cmd import mcp_command
from askvault.cli.plugin_source import version_text
from askvault.cli.query_cmd import ask, search
from askvault.cli.related_cmd import related
from askvault.cli.serve_cmd import serve


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
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


for command in (serve, index, search, ask, eval_command, calibrate_command, mcp_command, install_plugin, token):
    cli.add_command(command)
cli.add_command(related)
cli.add_command(explain)


def main() -> None:
    cli()
