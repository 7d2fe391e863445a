"""`askvault token` and `askvault install-plugin`: the two setup chores."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click

import askvault
from askvault.api.token import load_or_create_token
from askvault.cli.options import build_config, handles_errors, shared_options
from askvault.errors import ConfigError, VaultError

PLUGIN_ID = "ask-vault"


@click.command()
@shared_options
@handles_errors
def token(**params: object) -> None:
    """Print the sidecar's bearer token for this vault (created on first use, stored 0600 outside the vault)."""
    config = build_config(params)
    click.echo(load_or_create_token(config.store.data_dir, config.vault.root))


def _repo_root() -> Path:
    # backend/askvault/__init__.py → the checkout's root, where manifest.json lives.
    return Path(askvault.__file__).resolve().parents[2]


def plugin_files(source: Path | None) -> dict[str, Path]:
    """manifest.json, main.js and styles.css: from `source` if given, else from this checkout."""
    if source is not None:
        files = {name: source / name for name in ("manifest.json", "main.js", "styles.css")}
    else:
        root = _repo_root()
        files = {
            "manifest.json": root / "manifest.json",
            "main.js": root / "plugin" / "dist" / "main.js",
            "styles.css": root / "plugin" / "styles.css",
        }
    missing = [name for name, path in files.items() if not path.is_file()]
    if missing:
        hint = "" if source is not None else " (build the plugin first: `make setup`)"
        raise ConfigError(f"plugin file(s) not found: {', '.join(missing)}{hint}")
    return files


@click.command("install-plugin")
@click.option("--vault", required=True, type=click.Path(path_type=Path), help="The Obsidian vault to install into.")
@click.option("--config-dir", default=".obsidian", show_default=True, help="The vault's configuration folder.")
@click.option(
    "--from", "source", type=click.Path(path_type=Path), help="A folder with manifest.json, main.js, styles.css."
)
@handles_errors
def install_plugin(vault: Path, config_dir: str, source: Path | None) -> None:
    """Copy the plugin into VAULT/<config dir>/plugins/ask-vault/ (then enable it in Obsidian's settings)."""
    config_path = vault / config_dir
    if not vault.is_dir():
        raise VaultError(f"--vault: {vault} is not a folder")
    if not config_path.is_dir():
        raise VaultError(
            f"--vault: {vault} is not an Obsidian vault (no {config_dir}/ folder); open it in Obsidian once first"
        )
    files = plugin_files(source)
    manifest = json.loads(files["manifest.json"].read_text(encoding="utf-8"))
    if manifest.get("id") != PLUGIN_ID:
        raise ConfigError(f"{files['manifest.json']} is not Ask Vault's manifest (id {manifest.get('id')!r})")
    target = config_path / "plugins" / PLUGIN_ID
    target.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        shutil.copyfile(path, target / name)
    click.echo(
        f"Installed Ask Vault {manifest.get('version')} into {target}.\n"
        'In Obsidian: Settings → Community plugins → enable "Ask Vault" (turn off Restricted mode first).'
    )
