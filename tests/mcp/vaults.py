"""A small vault on disk for the MCP tests: notes to find, notes that must never come out, and ways out."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

CANARY = "zanzibar4711canary"
"""Planted only in notes Ask Vault must never return (excluded, opted out, outside the vault)."""
EXCLUDE_GLOB = "Archive/**"

_POSTGRES = """\
---
tags: [homelab, database]
---
The database box in the rack, set up in spring.

# Postgres

Postgres runs in a container on the NAS and keeps the household's ledgers and the photo catalogue.

## Port

Postgres listens on port 5433 behind the reverse proxy, because 5432 was taken by the old install.
Clients connect with the pgbouncer pool, never directly.

### Firewall

Only the LAN and the VPN subnet may reach the database port; everything else is dropped at the router.

## Backups

A nightly pg_dump at 02:00 writes compressed archives to the backup share, kept for thirty days.
Restores are tested on the first Sunday of every month.
"""

NOTES: dict[str, str] = {
    "Homelab/Postgres.md": _POSTGRES,
    "Homelab/Kodi.md": (
        "# Kodi\n\n## Maintenance\n\nThe living-room Kodi box runs LibreELEC; the maintenance workflow cleans "
        "the library, rescans the NAS shares every Sunday and prunes thumbnails older than a year.\n"
    ),
    "Ideas/Gardening.md": (
        "# Gardening\n\nTomatoes want full sun, deep pots, steady watering and patience; basil grows well "
        "beside them and keeps the aphids away from the balcony boxes.\n"
    ),
    "Projects/Log.md": (
        "# Alpha\n\n## Notes\n\nAlpha started in March with the storage migration and the new switch.\n\n"
        "# Beta\n\n## Notes\n\nBeta is the garden irrigation timer, still waiting for the valves.\n"
    ),
    "Private/Diary.md": f"# Diary\n\nThe safe combination is {CANARY}; nobody else should read this page.\n",
    "Homelab/Secrets.md": f"---\naskvault: false\n---\n# Secrets\n\nThe router admin password is {CANARY}.\n",
    "Archive/Old.md": f"# Old\n\nThe retired server's root password was {CANARY}.\n",
    "Homelab/readme.txt": f"plain text, not a note {CANARY}\n",
}
EXCLUDED = ("Private/Diary.md", "Homelab/Secrets.md", "Archive/Old.md", "Homelab/DiaryLink.md")


@dataclass(frozen=True)
class VaultOnDisk:
    root: Path
    data_root: Path
    outside: Path
    """A note-like file next to the vault, reachable only by escaping it."""


def build_vault(base: Path) -> VaultOnDisk:
    root = base / "vault"
    (root / ".obsidian").mkdir(parents=True)
    (root / ".obsidian" / "app.json").write_text(json.dumps({"userIgnoreFilters": ["Private/"]}), encoding="utf-8")
    for rel, text in NOTES.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    outside = base / "outside.md"
    outside.write_text(f"# Outside\n\nOutside the vault: {CANARY}.\n", encoding="utf-8")
    os.symlink(outside, root / "Homelab" / "Escape.md")
    os.symlink(root / "Private" / "Diary.md", root / "Homelab" / "DiaryLink.md")
    return VaultOnDisk(root=root, data_root=base / "data", outside=outside)
