"""What a reading command says when the vault has no index yet, here or in the running sidecar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from askvault.cli.hints import suggest
from askvault.errors import NotIndexed

if TYPE_CHECKING:
    from askvault.cli.remote import Sidecar
    from askvault.config import Config
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


def require_indexed_there(sidecar: Sidecar, config: Config) -> None:
    """NotIndexed when the running sidecar holds no note yet: still on its first index, or the vault has none."""
    vault, index = sidecar.status.get("vault"), sidecar.status.get("index")
    notes = vault.get("notes") if isinstance(vault, dict) else None
    if notes != 0:
        return
    root = config.vault.root
    if isinstance(index, dict) and index.get("state") == "indexing":
        done, total = index.get("done"), index.get("total")
        progress = f" ({done} of {total} notes)" if isinstance(total, int) and total else ""
        raise NotIndexed(
            f"the running sidecar (pid {sidecar.pid}) is still indexing {root} for the first time{progress}; "
            f"run this again when it is done (`{suggest('index', config)}` waits for it and shows its progress)"
        )
    raise NotIndexed(
        f"the running sidecar (pid {sidecar.pid}) found no notes (.md files) in {root}; is --vault the right folder?"
    )
