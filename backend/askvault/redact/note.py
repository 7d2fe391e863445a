"""A parsed note made safe to index: sections under excluded headings dropped, secrets replaced by markers.

`prepare_note` runs between `parse_note` and `chunk_note`, so nothing it removes can reach a chunk, an
embedding, the keyword index or a prompt. Line numbers are kept: a redacted multi-line secret leaves its
line breaks behind, so citations still open at the right line.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace

from askvault.model import Chunk, Note, Section
from askvault.redact.codes import is_recovery_heading
from askvault.redact.engine import may_contain_secrets, redact
from askvault.redact.rules import RULESET_VERSION
from askvault.redact.seeds import is_seed_heading

_SPACES = re.compile(r"\s+")
_MARKER = re.compile(r"\[redacted: ([a-z0-9\-]{1,40})\]")


def heading_key(heading: str) -> str:
    """How headings are compared: case-insensitive, spaces collapsed, trailing colon and markup ignored."""
    core = heading.strip().rstrip(":").strip().strip("*_`").strip().rstrip(":").strip()
    return _SPACES.sub(" ", core).casefold()


def privacy_version(exclude_headings: Iterable[str], *, seed_phrases: bool = True) -> str:
    """Part of each note's fingerprint: a change of rules, excluded headings or the seed-phrase setting
    re-chunks every note."""
    key = "|".join(sorted({heading_key(h) for h in exclude_headings}))
    seeds = "" if seed_phrases else "|no-seed-phrases"
    return hashlib.sha256(f"{RULESET_VERSION}|{key}{seeds}".encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Prepared:
    note: Note
    redactions: Counter[str] = field(default_factory=Counter)
    """Secrets replaced, by kind."""
    dropped_sections: int = 0
    """Sections left out because they sit under an excluded heading."""


def excluded_section(section: Section, excluded: Collection[str]) -> bool:
    """True when any heading in the section's trail (its own or an ancestor's) is excluded."""
    return bool(excluded) and any(heading_key(h) in excluded for h in section.heading_path)


def _redact_line(value: str, counts: Counter[str], seed_phrases: bool) -> str:
    result = redact(value, seed_phrases=seed_phrases)
    counts.update(result.kinds)
    return result.text


def prepare_note(note: Note, exclude_headings: Collection[str] = (), *, seed_phrases: bool = True) -> Prepared:
    """Drops sections under excluded headings (case-insensitive) and redacts secrets in what is left:
    section text, heading trails, title and aliases; `seed_phrases` False leaves BIP-39 phrases alone."""
    excluded = {heading_key(h) for h in exclude_headings if heading_key(h)}
    kept = [section for section in note.sections if not excluded_section(section, excluded)]
    dropped = len(note.sections) - len(kept)
    # Every heading of a trail is also the first line of its own section, so this text holds all there is.
    if not may_contain_secrets(
        "\n".join([note.title, *note.aliases, *(s.text for s in kept)]), seed_phrases=seed_phrases
    ):
        return Prepared(replace(note, sections=tuple(kept)), Counter(), dropped)
    counts: Counter[str] = Counter()
    sections: list[Section] = []
    seed_note = is_seed_heading(note.title)
    for section in kept:
        recovery = any(is_recovery_heading(h) for h in section.heading_path)
        seed = seed_note or any(is_seed_heading(h) for h in section.heading_path)
        result = redact(section.text, recovery_section=recovery, seed_section=seed, seed_phrases=seed_phrases)
        counts.update(result.kinds)
        # Each heading is counted where it is a line of its own section's text, not again in every trail.
        trail = tuple(_redact_line(h, Counter(), seed_phrases) for h in section.heading_path)
        sections.append(replace(section, text=result.text, heading_path=trail))
    cleaned = replace(
        note,
        title=_redact_line(note.title, counts, seed_phrases),
        aliases=tuple(_redact_line(a, counts, seed_phrases) for a in note.aliases),
        sections=tuple(sections),
    )
    return Prepared(cleaned, counts, dropped)


def has_markers(chunk: Chunk) -> bool:
    """True when the chunk's text may hold a redaction marker (`count_markers` reads only such chunks)."""
    return "[redacted: " in chunk.text


def count_markers(chunks: Iterable[Chunk]) -> dict[str, Counter[str]]:
    """{path: kinds} of the redaction markers in indexed chunks. A paragraph repeated as overlap in the next
    chunk is counted once: markers are counted per distinct (section trail, line), so one note's counts depend
    on its own chunks alone."""
    seen: set[tuple[str, tuple[str, ...], str]] = set()
    counts: dict[str, Counter[str]] = {}
    for chunk in chunks:
        if not has_markers(chunk):
            continue
        for line in chunk.text.split("\n"):
            if "[redacted: " not in line or (chunk.path, chunk.heading_path, line) in seen:
                continue
            seen.add((chunk.path, chunk.heading_path, line))
            counts.setdefault(chunk.path, Counter()).update(m.group(1) for m in _MARKER.finditer(line))
    return counts


def redaction_summary(per_note: Mapping[str, Counter[str]]) -> dict[str, object]:
    """The JSON shape of `index.redactions`: totals by kind and one entry per note (never a secret)."""
    by_kind: Counter[str] = Counter()
    notes: list[dict[str, object]] = []
    for path in sorted(per_note):
        kinds = per_note[path]
        if not kinds:
            continue
        by_kind.update(kinds)
        notes.append({"path": path, "kinds": dict(sorted(kinds.items()))})
    return {"total": sum(by_kind.values()), "by_kind": dict(sorted(by_kind.items())), "notes": notes}
