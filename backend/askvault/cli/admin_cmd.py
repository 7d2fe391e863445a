"""`askvault token` and `askvault install-plugin`: the two setup chores."""

from __future__ import annotations

import shutil
from pathlib import Path

import click

import askvault
from askvault.api.token import load_or_create_token, served_or_indexed
from askvault.cli.hints import suggest
from askvault.cli.option_groups import location_options
from askvault.cli.options import build_config, handles_errors
from askvault.cli.plugin_source import find_plugin
from askvault.errors import ConfigError, NotIndexed
from askvault.plugin_bundle import PLUGIN_ID, folder_files, missing, plugin_version

ENABLE = 'In Obsidian: Settings → Community plugins → enable "Ask Vault" (turn off Restricted mode first).'
RELOAD = 'In Obsidian: turn "Ask Vault" off and on under Settings → Community plugins (or restart Obsidian) to load it.'


@click.command()
@location_options
@handles_errors
def token(**params: object) -> None:
    """Print the sidecar's bearer token for this vault.

    `serve` (or `index`) creates it and stores it (mode 0600) in the vault's data folder, outside the vault; where
    nothing was served or indexed, this says so and creates nothing.
    """
    config = build_config(params)
    if not served_or_indexed(config.store.data_dir):
        # A token made here would be one no sidecar uses (a wrong --data-dir, or serve not started yet): say so
        # instead of printing it, and leave no folder behind.
        raise NotIndexed(
            f"nothing is indexed for {config.vault.root} in {config.store.data_dir.parents[1]}, so there is no token "
            f"yet; if a sidecar runs with another --data-dir, pass that one, else start it with "
            f"`{suggest('serve', config)}` (or index first with `{suggest('index', config)}`) and run this again"
        )
    click.echo(load_or_create_token(config.store.data_dir, config.vault.root))


def replaced_text(target: Path, new_version: str | None) -> str:
    """What an install over `target` replaces, said before the files are overwritten."""
    existing = folder_files(target)
    if len(missing(existing)) == len(existing):
        return "Replaced nothing: it was not installed in this vault."
    old = plugin_version(existing)
    if old is None:
        return "Replaced an earlier copy without a readable manifest."
    same = " (the same version)" if old == new_version else ""
    return f"Replaced Ask Vault {old}{same}; the plugin's settings (data.json) are kept."


@click.command("install-plugin")
@click.option("--vault", required=True, type=click.Path(path_type=Path), help="The Obsidian vault to install into.")
@click.option("--config-dir", default=".obsidian", show_default=True, help="The vault's configuration folder.")
@click.option(
    "--from", "source", type=click.Path(path_type=Path), help="A folder with manifest.json, main.js, styles.css."
)
@handles_errors
def install_plugin(vault: Path, config_dir: str, source: Path | None) -> None:
    """Install the Obsidian plugin into a vault.

    Copies the plugin into VAULT/<config dir>/plugins/ask-vault/; then enable it in Obsidian's settings.

    Without --from it installs this checkout's build, or the copy bundled in the installed package.
    """
    config_path = vault / config_dir
    # A wrong --vault is a wrong flag value: exit 2, as every other command gives it (docs/cli.md).
    if not vault.is_dir():
        raise ConfigError(f"--vault: {vault} is not a folder")
    if not config_path.is_dir():
        raise ConfigError(
            f"--vault: {vault} is not an Obsidian vault (no {config_dir}/ folder); open it in Obsidian once first"
        )
    plugin = find_plugin(source)
    target = config_path / "plugins" / PLUGIN_ID
    replaced = replaced_text(target, plugin.version)
    target.mkdir(parents=True, exist_ok=True)
    for name, path in plugin.files.items():
        shutil.copyfile(path, target / name)
    lines = [f"Installed Ask Vault {plugin.version} into {target}.", f"From {plugin.origin}.", replaced]
    if plugin.version != askvault.__version__:
        lines.append(f"Note: this sidecar is askvault {askvault.__version__}; the two work best at the same version.")
    lines.append(ENABLE if replaced.startswith("Replaced nothing") else RELOAD)
    click.echo("\n".join(lines))
