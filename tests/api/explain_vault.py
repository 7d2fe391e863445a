"""A small homelab vault for explaining misses: a dozen notes about Kodi and maintenance, one excluded folder."""

from __future__ import annotations

QUESTION = "kodi maintenance"
PRIVATE_WORDS = ("Secret diary", "zebra", "tulip")
"""What the excluded note holds: no explanation may ever contain any of it."""

NOTES: dict[str, str | bytes] = {
    "Homelab/Kodi.md": (
        "---\ntags: [homelab, media]\n---\n# Kodi\n\n"
        "The living-room box runs LibreELEC with Kodi 21 and plays films from the NAS share.\n\n"
        "## Maintenance\n\nEvery few months: clear the thumbnail cache, vacuum the music database and check the "
        "add-on repository for updates.\n"
    ),
    "Homelab/Jellyfin.md": (
        "---\ntags: [homelab, media]\n---\n# Jellyfin\n\n"
        "Jellyfin serves the films to phones; Kodi uses the NAS share directly instead.\n"
    ),
    "Homelab/NAS.md": (
        "---\ntags: [homelab]\n---\n# NAS\n\n## Maintenance\n\n"
        "Scrub the pool monthly, replace a disk when SMART warns, and keep the maintenance log in this note.\n"
    ),
    "Homelab/Router.md": (
        "---\ntags: [homelab, network]\n---\n# Router\n\n"
        "Firmware maintenance window is Sunday night; the router reboots after updates.\n"
    ),
    "Homelab/Postgres.md": (
        "---\ntags: [homelab, database]\n---\n# Postgres\n\n"
        "The database container publishes port 5433; vacuum runs nightly as routine maintenance.\n"
    ),
    "Homelab/Backups.md": (
        "---\ntags: [homelab]\n---\n# Backups\n\n"
        "Restic backs up the NAS to the cloud every night; test a restore each quarter.\n"
    ),
    "Journal/2026-11-02.md": (
        "# 2026-11-02\n\nUpdated Kodi to 21.2 on the living-room box; the library refresh now skips the Incoming "
        "folder.\n"
    ),
    "Journal/2026-10-14.md": "# 2026-10-14\n\nCar maintenance at the garage: new brake pads and an oil change.\n",
    "Ideas/Media wall.md": (
        "# Media wall\n\nA second Kodi box for the bedroom, maybe a cheaper stick with the same skin.\n"
    ),
    "Ideas/Gardening.md": (
        "# Gardening\n\nTomatoes want sun, deep pots and patience; the hedge needs yearly maintenance.\n"
    ),
    "Recipes/Soup.md": "# Lentil soup\n\nOnions, carrots, red lentils and cumin; simmer for twenty minutes.\n",
    "Work/Oncall.md": (
        "---\ntags: [work]\n---\n# On-call\n\n"
        "The maintenance runbook lists who to page and how to drain a node before patching.\n"
    ),
    "Private/Diary.md": "# Secret diary\n\nKodi maintenance thoughts nobody may read: the zebra password is tulip.\n",
}
EXCLUDE = ("Private/**",)
SEARCHABLE = sorted(path for path in NOTES if not path.startswith("Private/"))

BELOW_THE_CUT = "Homelab/Postgres.md"
"""Ranks 9th for QUESTION: below the 8 sources an answer asks for."""
OVER_BUDGET = "Work/Oncall.md"
"""Ranks 8th: inside the 8 asked for, but the prompt holds 6 sources."""
# The fake embedder hashes words into 64 slots: the texts are chosen so that no two cosines tie (a tie's order
# is the vector store's), which keeps every rank, and the golden body, the same from run to run.
