"""What a reading command says when the vault has no index yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from askvault.cli.hints import suggest
from askvault.errors import NotIndexed

if TYPE_CHECKING:
    from askvault.wiring import Engine  # imported by the commands that open the index, not by every command


def require_indexed(engine: Engine) -> None:
    """NotIndexed when nothing was ever indexed for this vault: an empty result would read as "no match"."""
    if engine.manifest.count_notes() == 0:
        config = engine.config
        if next(config.vault.root.rglob("*.md"), None) is None:
            # Indexing would not help: say what is missing instead of sending the user round in a circle.
            raise NotIndexed(
                f"the vault {config.vault.root} holds no notes (.md files) yet; is --vault the right folder?"
            )
        raise NotIndexed(
            f"nothing is indexed for the vault {config.vault.root} yet; run `{suggest('index', config)}` first"
        )
