"""Reading every chunk in note order shares one object per note for the fields its chunks have in common."""

from __future__ import annotations

from pathlib import Path

from askvault.model import Chunk
from askvault.store.manifest.manifest import Manifest


def _kodi(n: int, heading: tuple[str, ...], text: str) -> Chunk:
    lines = (3 * n - 2, 3 * n)
    return Chunk(
        f"k{n}", "Homelab/Kodi.md", "Kodi", heading, *lines, text, f"Kodi\n{text}", ("media",), 1.5, "en", ("tv",)
    )


KODI = [_kodi(1, ("Kodi",), "The box."), _kodi(2, ("Kodi",), "Its remote."), _kodi(3, ("Kodi", "Cache"), "Clear it.")]
SOUP = [Chunk("s1", "Rezepte/Suppe.md", "Suppe", (), 1, 2, "Kartoffeln", "Suppe\nKartoffeln", ("rezept",), 2.0, "de")]


def test_a_notes_chunks_share_their_common_fields_and_read_back_equal(tmp_path: Path) -> None:
    with Manifest.open(tmp_path) as manifest:
        manifest.replace_note("Homelab/Kodi.md", "f1", 1, 10, "Kodi", KODI)
        manifest.replace_note("Rezepte/Suppe.md", "f2", 1, 10, "Suppe", SOUP)
        read = list(manifest.iter_chunks())
        assert read == [*KODI, *SOUP]
        assert read == list(manifest.get_chunks([c.id for c in read]).values())
    first, second, third, soup = read
    for field in ("path", "title", "tags", "aliases", "language"):
        assert getattr(first, field) is getattr(second, field) is getattr(third, field)
    assert first.heading_path is second.heading_path
    assert third.heading_path == ("Kodi", "Cache")
    assert soup.path == "Rezepte/Suppe.md"
    assert soup.tags == ("rezept",)
    assert soup.language == "de"
