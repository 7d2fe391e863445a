"""The answer-time privacy re-check of chunks the catalog holds without their text: the text is read back from the
manifest only when an excluded heading could sit in one of its lines."""

from __future__ import annotations

from pathlib import Path

from askvault.config import VaultConfig
from askvault.index.policy import NotePolicy
from askvault.index.privacy import VisibilityGuard
from askvault.index.scan import Exclusion
from askvault.model import Chunk, ChunkText
from askvault.store.manifest.manifest import Manifest

MERGED = Chunk("m", "a.md", "a", ("Notes",), 1, 6, "Intro.\n\nPrivate\nThe door code.", "a\nIntro.")
"""A short section merged into the chunk before it keeps its heading as a line of the text."""
PLAIN = Chunk("p", "a.md", "a", ("Notes",), 7, 9, "Nothing to hide.", "a\nNothing to hide.")
UNDER = Chunk("u", "a.md", "a", ("Private",), 10, 12, "The alarm code.", "a\nThe alarm code.")


def _guard(tmp_path: Path, manifest: Manifest, headings: tuple[str, ...], reads: list[str]) -> VisibilityGuard:
    vault = tmp_path / "vault"
    vault.mkdir(exist_ok=True)

    def text_of(chunk_id: str) -> ChunkText | None:
        reads.append(chunk_id)
        return manifest.chunk_texts([chunk_id]).get(chunk_id)

    return VisibilityGuard(NotePolicy(VaultConfig(root=vault, exclude_headings=headings)), text_of)


def test_a_chunk_without_its_text_is_hidden_by_an_excluded_heading_among_its_lines(tmp_path: Path) -> None:
    with Manifest.open(tmp_path / "data") as manifest:
        manifest.replace_note("a.md", "f", 1, 10, "a", [MERGED, PLAIN, UNDER])
        reads: list[str] = []
        guard = _guard(tmp_path, manifest, ("Private",), reads)
        assert [guard.visible(c.info()) for c in (MERGED, PLAIN, UNDER)] == [False, True, False]
        assert reads == ["m", "p"]  # the heading trail settles the third without a read
        rule = Exclusion("excluded-heading", "under the excluded heading 'Private'", "Private")
        assert guard.hidden_rule(MERGED.info()) == rule
        reads.clear()
        assert not guard.visible(MERGED)  # given with its text: nothing is read
        assert reads == []

        manifest.remove_note("a.md")  # after the caller's snapshot: no text left to show or to read
        assert guard.hidden_rule(MERGED.info()) is None


def test_without_excluded_headings_no_text_is_read(tmp_path: Path) -> None:
    with Manifest.open(tmp_path / "data") as manifest:
        manifest.replace_note("a.md", "f", 1, 10, "a", [MERGED, PLAIN, UNDER])
        reads: list[str] = []
        guard = _guard(tmp_path, manifest, (), reads)
        assert all(guard.visible(c.info()) for c in (MERGED, PLAIN, UNDER))
        assert reads == []
