"""A note's language: its frontmatter's `lang` / `language` when that names one, else what detection finds."""

from __future__ import annotations

from dataclasses import dataclass

from askvault.model import Note
from askvault.store.text.detect import LanguageDetector
from askvault.store.text.languages import language_code

LANGUAGE_KEYS = ("lang", "language")


def declared_language(note: Note) -> str | None:
    """The code the frontmatter gives (`lang: de-DE`, `language: German` → `de`); the first of a list
    (`lang: [de, en]`, kept by the parser as `de, en`); None when no key names a language."""
    for key, value in note.properties.items():
        if key.strip().lower() in LANGUAGE_KEYS and isinstance(value, str):
            for part in value.split(","):
                code = language_code(part)
                if code is not None:
                    return code
    return None


DETECTION_CHARS = 8_000
"""Text handed to detection, at most (it reads fewer letters still; a 4 MB note is not copied whole)."""


def detection_text(note: Note) -> str:
    """Title and sections: the words the note is written in (tags and aliases are often another language's)."""
    parts = [note.title]
    size = len(note.title)
    for section in note.sections:
        if size >= DETECTION_CHARS:
            break
        parts.append(section.text[: DETECTION_CHARS - size])
        size += len(parts[-1])
    return "\n".join(parts)


def note_language(note: Note, detector: LanguageDetector | None) -> str:
    """The note's language code, or "" when it declares none and detection is off or unsure (the default
    language then applies, `RetrievalParams.stem_language`)."""
    declared = declared_language(note)
    if declared is not None:
        return declared
    if detector is None:
        return ""
    return detector.detect(detection_text(note)) or ""


LANGUAGE_RULES = "1"
"""Bump when what decides a note's language changes: it is part of every note's fingerprint, so the next run
indexes every note again (the chunks come back with the same text, so nothing is embedded again)."""


@dataclass(frozen=True, slots=True)
class NoteLanguages:
    """How the indexer decides each note's language (`RetrievalParams.note_languages`)."""

    enabled: bool = True
    """Off: every note is "" (the configured `stem_language`), frontmatter included, as before languages."""
    detector: LanguageDetector | None = None
    """None: only a note's frontmatter names its language."""

    @property
    def version(self) -> str:
        if not self.enabled:
            return "languages off"
        return f"languages {LANGUAGE_RULES} ({self.detector.version if self.detector else 'frontmatter only'})"

    def of(self, note: Note) -> str:
        return note_language(note, self.detector) if self.enabled else ""
