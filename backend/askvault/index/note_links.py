"""What the indexer records of a note's links for the link graph: targets as written, never from dropped text."""

from __future__ import annotations

from askvault.model import Note
from askvault.parse.links import is_attachment, link_text


def link_targets(parsed: Note, prepared: Note) -> tuple[str, ...]:
    """The note's link targets as written (embeds included; attachments and self-links left out), in order.

    `prepared` is the note after the privacy step. When that step dropped or redacted text, only links whose
    readable text is still in what was kept are recorded, so a link under an excluded heading, or one a
    redaction covered, leaves no trace in the graph either.
    """
    changed = prepared.sections != parsed.sections
    kept = "\n".join(section.text for section in prepared.sections) if changed else ""
    targets: list[str] = []
    for link in parsed.links:
        target = link.target.strip()
        if not target or is_attachment(target) or target in targets:
            continue
        if changed and link_text(target, link.heading, link.alias) not in kept:
            continue
        targets.append(target)
    return tuple(targets)
