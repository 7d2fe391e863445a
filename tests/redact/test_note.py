"""A parsed note made safe to index: excluded headings dropped with their subsections, secrets redacted."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.model import Chunk
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.redact.note import count_markers, heading_key, prepare_note, privacy_version, redaction_summary

NOTE = """---
title: Router
aliases: [Gateway]
---
# Router

Public setup: the router is at 10.0.0.1.

## Private

Only mine: CANARY-HEADING-1.

### Even deeper

CANARY-HEADING-2 sits in a subsection.

## Access

Admin password: Gr3en-Door-77

## Recovery codes

```
aaaa-1111
bbbb-2222
```

## Notes

Back to public text.
"""


def parse(text: str = NOTE, path: str = "Homelab/Router.md") -> list[str]:
    note = parse_note(path, text, LinkResolver([path]))
    return [s.text for s in note.sections]


@pytest.mark.parametrize(
    ("heading", "key"),
    [
        pytest.param("Private", "private", id="plain"),
        pytest.param("  **PRIVATE**: ", "private", id="markup-case-colon"),
        pytest.param("Meine   Notizen", "meine notizen", id="spaces"),
    ],
)
def test_heading_key(heading: str, key: str) -> None:
    assert heading_key(heading) == key


def test_excluded_heading_drops_section_and_subsections_and_secrets_are_redacted() -> None:
    note = parse_note("Homelab/Router.md", NOTE, LinkResolver(["Homelab/Router.md"]))
    prepared = prepare_note(note, ["private"])
    texts = "\n".join(s.text for s in prepared.note.sections)
    assert "CANARY-HEADING" not in texts
    assert prepared.dropped_sections == 2
    assert "Gr3en-Door-77" not in texts
    assert "aaaa-1111" not in texts
    assert dict(prepared.redactions) == {"password": 1, "recovery-codes": 1}
    assert "Public setup" in texts
    assert "Back to public text." in texts
    for before, after in zip(
        [s for s in note.sections if "Private" not in s.heading_path], prepared.note.sections, strict=True
    ):
        assert after.text.count("\n") == before.text.count("\n")
        assert (after.start_line, after.end_line) == (before.start_line, before.end_line)
    chunks = chunk_note(prepared.note, ChunkParams())
    assert not any("CANARY" in c.index_text or "Gr3en" in c.index_text for c in chunks)


def test_without_excluded_headings_every_section_stays() -> None:
    note = parse_note("Homelab/Router.md", NOTE, LinkResolver(["Homelab/Router.md"]))
    prepared = prepare_note(note)
    assert len(prepared.note.sections) == len(note.sections)
    assert "CANARY-HEADING-1" in "\n".join(s.text for s in prepared.note.sections)


def test_secrets_in_title_aliases_and_heading_trails_are_redacted() -> None:
    text = (
        "---\ntitle: key AKIAIOSFODNN7EXAMPLE\naliases: [ghp_"
        + "A1b2" * 9
        + "]\n---\n# Heading AKIAIOSFODNN7EXAMPLE\n\nBody\n"
    )
    note = parse_note("n.md", text, LinkResolver(["n.md"]))
    prepared = prepare_note(note)
    dumped = repr(prepared.note)
    assert "AKIAIOSFODNN7EXAMPLE" not in dumped
    assert "ghp_" not in dumped
    assert prepared.note.sections[0].heading_path == ("Heading [redacted: aws-access-key]",)


def test_privacy_version_follows_headings_not_their_order_or_case() -> None:
    assert privacy_version(["Private", "Journal"]) == privacy_version(["journal", " PRIVATE "])
    assert privacy_version(["Private"]) != privacy_version([])


def test_count_markers_counts_an_overlapping_paragraph_once() -> None:
    line = "Admin password: [redacted: password]"
    chunks = [
        Chunk("a", "n.md", "n", ("Access",), 1, 5, f"intro\n\n{line}", ""),
        Chunk("b", "n.md", "n", ("Access",), 3, 9, f"{line}\n\nmore [redacted: iban]", ""),
        Chunk("c", "m.md", "m", (), 1, 2, "nothing here", ""),
    ]
    counts = count_markers(chunks)
    assert counts == {"n.md": {"password": 1, "iban": 1}}
    assert redaction_summary(counts) == {
        "total": 2,
        "by_kind": {"iban": 1, "password": 1},
        "notes": [{"path": "n.md", "kinds": {"iban": 1, "password": 1}}],
    }


def test_privacy_version_follows_the_seed_phrase_setting() -> None:
    assert privacy_version(["Private"], seed_phrases=False) != privacy_version(["Private"])


@pytest.mark.parametrize(
    ("path", "heading", "seed_phrases", "redacted"),
    [
        pytest.param("Notes/Written.md", "Ledger backup", True, True, id="seed-heading"),
        pytest.param("Crypto/Ledger.md", "Written down", True, True, id="seed-title"),
        pytest.param("Notes/Written.md", "Groceries", True, False, id="plain"),
        pytest.param("Notes/Written.md", "Ledger backup", False, False, id="setting-off"),
    ],
)
def test_a_heading_or_title_that_names_a_seed_labels_its_phrases(
    path: str, heading: str, seed_phrases: bool, redacted: bool
) -> None:
    phrase = "lunar orbit velvet cactus ribbon zebra hockey pulse salmon wisdom garden tiny"
    text = f"# {heading}\n\nFrom 2021:\n\nmy words {phrase} and so on\n"
    prepared = prepare_note(parse_note(path, text, LinkResolver([path])), seed_phrases=seed_phrases)
    body = "\n".join(s.text for s in prepared.note.sections)
    assert ("lunar orbit" not in body) is redacted
    assert (dict(prepared.redactions) == {"seed-phrase": 1}) is redacted
