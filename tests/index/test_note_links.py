"""What the indexer records of a note's links: targets as written, never from text the privacy step removed."""

from __future__ import annotations

import pytest

from askvault.index.note_links import link_targets
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.redact.note import prepare_note

RESOLVER = LinkResolver(["Home.md", "Zettel/Atomic notes.md", "Homelab/Postgres.md", "img/photo.png"])


@pytest.mark.parametrize(
    ("text", "exclude", "expected"),
    [
        ("See [[Atomic notes]] and [[Home]].\n", (), ("Atomic notes", "Home")),
        ("[[Zettel/Atomic notes#Why|why]] and [[Home#^block]]\n", (), ("Zettel/Atomic notes", "Home")),
        ("![[Atomic notes#Why]] ![[photo.png]]\n", (), ("Atomic notes",)),
        ("[pg](../Homelab/Postgres.md) and [web](https://example.org)\n", (), ("../Homelab/Postgres.md",)),
        ("[[Missing]] twice: [[Missing]] [[#Local heading]]\n", (), ("Missing",)),
        ('---\nup: "[[Home]]"\n---\nBody.\n', (), ("Home",)),
        (
            "# A\n\nKeep [[Home]].\n\n## Private\n\nSee [[Atomic notes]].\n",
            ("Private",),
            ("Home",),
        ),
        (
            "# A\n\nSee [[Atomic notes|the idea]].\n\n## Private\n\nAnd [[Home]].\n",
            ("Private",),
            ("Atomic notes",),
        ),
    ],
    ids=[
        "wikilinks",
        "heading-block-and-alias-stripped",
        "embeds-count-attachments-do-not",
        "markdown-note-links-only",
        "once-each-self-links-left-out",
        "frontmatter-property-link",
        "excluded-heading-leaves-no-link",
        "alias-text-still-kept",
    ],
)
def test_link_targets(text: str, exclude: tuple[str, ...], expected: tuple[str, ...]) -> None:
    note = parse_note("Zettel/Note.md", text, RESOLVER)
    assert link_targets(note, prepare_note(note, exclude).note) == expected
