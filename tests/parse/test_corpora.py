"""The parser and chunker on real Obsidian notes (tests/fixtures/corpora: de-wiki CC0, tasks-docs MIT)."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest

from askvault.chunk import chunk_note
from askvault.config import ChunkParams, VaultConfig
from askvault.index.note_reader import read_note_text
from askvault.index.scan import scan_vault
from askvault.model import Note
from askvault.parse.inline import code_spans
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

CORPORA = Path(__file__).resolve().parents[1] / "fixtures" / "corpora"
VAULTS = ["de-wiki", "tasks-docs"]


def load(vault: str) -> dict[str, Note]:
    root = CORPORA / vault
    scan = scan_vault(VaultConfig(root=root))
    resolver = LinkResolver(note.path for note in scan.notes)
    return {n.path: parse_note(n.path, read_note_text(root, n.path), resolver) for n in scan.notes}


@pytest.fixture(scope="module", params=VAULTS)
def notes(request: pytest.FixtureRequest) -> dict[str, Note]:
    return load(str(request.param))


def prose_lines(note: Note) -> list[str]:
    """Section lines outside code fences and code spans."""
    lines: list[str] = []
    fence: str | None = None
    for section in note.sections:
        for line in section.text.split("\n"):
            marker = re.match(r"\s*(`{3,}|~{3,})", line)
            if marker is not None and (fence is None or marker.group(1).startswith(fence)):
                fence = None if fence is not None else marker.group(1)
                continue
            if fence is None:
                kept, pos = [], 0
                for start, end in code_spans(line):
                    kept.append(line[pos:start])
                    pos = end
                lines.append("".join(kept) + line[pos:])
    return lines


def test_every_note_parses_cleanly(notes: dict[str, Note]) -> None:
    assert len(notes) >= 7
    for path, note in notes.items():
        assert note.sections, path
        assert not any("internal parser error" in w for w in note.warnings), path
        assert note.title == posixpath.basename(path)[:-3]


def test_no_obsidian_syntax_left_in_prose(notes: dict[str, Note]) -> None:
    for path, note in notes.items():
        for line in prose_lines(note):
            assert not any(syntax in line for syntax in ("[[", "%%", "[!")), (path, line)
            assert not re.search(r"\s\^[\w-]+$", line), (path, line)


def test_links_resolve_among_the_copied_notes(notes: dict[str, Note]) -> None:
    by_stem = {posixpath.basename(path)[:-3].lower(): path for path in notes}
    resolved = 0
    for note in notes.values():
        for link in note.links:
            stem = posixpath.basename(link.target).removesuffix(".md").lower()
            if link.target == "":
                assert link.resolved == note.path
            elif stem in by_stem:
                assert link.resolved == by_stem[stem], link
                resolved += 1
            elif not link.target.lower().endswith((".png", ".jpg", ".svg", ".gif")):
                assert link.resolved is None, link
    assert resolved >= 5


def test_known_notes() -> None:
    wiki = load("de-wiki")
    ingestion = wiki["Concepts/Data Ingestion/Data Ingestion.md"]
    targets = {(link.target, link.block): link.resolved for link in ingestion.links}
    assert targets[("Full Load", "overview-full-load")] == "Concepts/Data Ingestion/Full Load.md"
    assert targets[("Change Data Capture", "overview-cdc-diagram")] == "Concepts/Data Ingestion/Change Data Capture.md"

    full = wiki["Concepts/Data Ingestion/Full Load.md"]
    assert full.aliases == ("Destructive Load", "Concepts/Full Load")
    assert full.tags == ("evergreen",)
    assert full.sections[0].text.startswith("With a full load")
    assert full.sections[0].start_line == 9
    assert "is required." in full.sections[0].text
    assert "^overview" not in full.sections[0].text

    faq = wiki["FAQ/Am I a Data Engineer.md"]
    assert faq.aliases == ("Am I a Data Engineer?", "Am I doing data engineering?")

    template = wiki["Templates/Concept Template.md"]
    assert "wiki footer" not in "\n".join(s.text for s in template.sections)

    tasks = load("tasks-docs")
    dates = tasks["Getting Started/Dates.md"]
    assert dates.tags == ("feature/dates",)
    due = next(s for s in dates.sections if s.heading_path[-1:] == ("Due date",))
    assert due.heading_path == ("Dates", "When to work on a task", "Due date")
    assert "- Filters › Due Date" in due.text
    assert "```markdown" in due.text

    grouping = tasks["Queries/Grouping.md"]
    everything = "\n".join(s.text for s in grouping.sections)
    assert "`2023%%-05%% May`" in everything  # `%%` inside code spans is not a comment


@pytest.mark.parametrize("vault", VAULTS)
def test_chunks_of_real_notes(vault: str) -> None:
    params = ChunkParams()
    for path, note in load(vault).items():
        source_lines = read_note_text(CORPORA / vault, path).count("\n") + 1
        chunks = chunk_note(note, params)
        assert chunks, path
        assert len({chunk.id for chunk in chunks}) == len(chunks), path
        for chunk in chunks:
            assert 1 <= chunk.start_line <= chunk.end_line <= source_lines, (path, chunk.heading_path)
            assert len(chunk.index_text) <= params.hard_cap_chars
            assert chunk.index_text.startswith(note.title + "\n")
