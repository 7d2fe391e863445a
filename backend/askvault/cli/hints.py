"""The commands our messages suggest, with the flags that reach the same data folder as the command saying them."""

from __future__ import annotations

import shlex

from askvault.config import Config, default_data_root


def data_root(config: Config) -> str | None:
    """The data root when it is not the default one (<root>/vaults/<vault> is the per-vault folder), else None."""
    root = config.store.data_dir.parents[1]
    return None if root.resolve() == default_data_root().resolve() else str(root)


def suggest(command: str, config: Config) -> str:
    """`askvault COMMAND --vault V [--data-dir D]`: a suggested command without the --data-dir this one was given
    would read another folder (another token: the plugin's requests then fail with 401)."""
    words = ["askvault", command, "--vault", str(config.vault.root)]
    root = data_root(config)
    if root is not None:
        words += ["--data-dir", root]
    return shlex.join(words)
