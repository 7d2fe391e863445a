"""Which indexed paths are suggested for a path that names no note."""

from __future__ import annotations

import pytest

from askvault.retrieve.note_paths import closest_paths, not_found_message

KNOWN = ["Homelab/Kodi.md", "Homelab/Postgres.md", "Homelab/Jellyfin.md", "Travel/Lisbon.md", "Kodi notes.md"]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Homelab/Kodo.md", ["Homelab/Kodi.md"]),
        ("kodi", ["Homelab/Kodi.md"]),  # a bare name, any case, is compared with note names
        ("HOMELAB/POSTGRES", ["Homelab/Postgres.md"]),
        ("Homelab/Nothing like it.md", []),  # a shared folder alone is not close
        ("", []),
    ],
)
def test_closest_paths(typed: str, expected: list[str]) -> None:
    assert closest_paths(typed, KNOWN) == expected


def test_the_sentence_suggests_or_says_what_to_give() -> None:
    suggested = not_found_message("Homelab/Kodo.md", KNOWN)
    assert suggested == "no indexed note at Homelab/Kodo.md; did you mean Homelab/Kodi.md?"
    assert not_found_message("Zzz.md", KNOWN) == (
        "no indexed note at Zzz.md; give its path inside the vault, such as Folder/Note.md "
        "(a new note needs `askvault index` first)"
    )
    assert not_found_message("x", []).startswith("no indexed note at x; give its path")
