"""Where `askvault install-plugin` takes the plugin from: a folder given, this checkout's build, or the bundled copy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import askvault
from askvault.errors import ConfigError
from askvault.plugin_bundle import BUNDLE_DIR, checkout_files, folder_files, missing, plugin_version, problems


@dataclass(frozen=True)
class PluginSource:
    files: dict[str, Path]
    origin: str
    """Where the files come from, in words for the command's output."""
    version: str | None


def checkout_root() -> Path | None:
    """The repository root when this package runs from a checkout (an editable install); None when installed."""
    package = Path(askvault.__file__).resolve().parent
    root = package.parents[1]
    if (root / "backend" / "askvault").resolve() == package and (root / "plugin" / "package.json").is_file():
        return root
    return None


def _candidates() -> list[tuple[dict[str, Path], str]]:
    root = checkout_root()
    # A checkout's own build is newer than a bundle left by an earlier `make wheel`.
    found = [(checkout_files(root), "this checkout's build")] if root is not None else []
    return [*found, (folder_files(BUNDLE_DIR), f"the copy bundled with askvault {askvault.__version__}")]


def find_plugin(source: Path | None) -> PluginSource:
    """The plugin files to install, checked to be Ask Vault's; ConfigError says what is missing and how to get it."""
    if source is not None:
        files, origin = folder_files(source), str(source)
    else:
        complete = [(files, origin) for files, origin in _candidates() if not missing(files)]
        if not complete:
            hint = (
                "build the plugin first: `make setup`"
                if checkout_root() is not None
                else "this askvault was installed without it: reinstall from a release (`pipx install askvault`), "
                "or pass --from a folder with the release's manifest.json, main.js and styles.css"
            )
            raise ConfigError(f"no built plugin found ({hint})")
        files, origin = complete[0]
    found = problems(files)
    if found:
        raise ConfigError(found[0])
    return PluginSource(files=files, origin=origin, version=plugin_version(files))


def version_text() -> str:
    """`askvault --version`: the sidecar's version and the plugin version `install-plugin` would install."""
    complete = [(files, origin) for files, origin in _candidates() if not problems(files)]
    plugin = (
        f"Ask Vault plugin {plugin_version(complete[0][0])} ({complete[0][1]})"
        if complete
        else "Ask Vault plugin: none bundled (install-plugin needs --from)"
    )
    return f"askvault {askvault.__version__}\n{plugin}"
