"""A note's language: the frontmatter's `lang` / `language` wins over detection; none and unsure give ""."""

from __future__ import annotations

import pytest

from askvault.index.language import NoteLanguages, declared_language, note_language
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.store.text.detect import shared_detector

GERMAN_BODY = "# Linsensuppe\n\nDie Suppe, die es bei Oma jeden Samstag gab. Schmeckt am zweiten Tag besser.\n"
ENGLISH_BODY = "# Lentil soup\n\nThe soup grandma made every Saturday. It tastes better on the second day.\n"


CASES: list[tuple[str, str, str | None, str]] = [
    # id, note text, declared, language with detection
    ("detected-german", GERMAN_BODY, None, "de"),
    ("detected-english", ENGLISH_BODY, None, "en"),
    ("lang-code-wins", "---\nlang: de\n---\n" + ENGLISH_BODY, "de", "de"),
    ("language-region", "---\nlanguage: de-DE\n---\n" + ENGLISH_BODY, "de", "de"),
    ("language-name", "---\nLanguage: German\n---\n" + ENGLISH_BODY, "de", "de"),
    ("native-name", "---\nlang: Deutsch\n---\n" + ENGLISH_BODY, "de", "de"),
    ("english-declared-on-german", "---\nlang: en\n---\n" + GERMAN_BODY, "en", "en"),
    ("list-takes-first", "---\nlang: [fr, de]\n---\n" + GERMAN_BODY, "fr", "fr"),
    ("declared-cjk", "---\nlang: ja-JP\n---\n" + ENGLISH_BODY, "ja", "ja"),
    ("unknown-code-kept", "---\nlang: vi\n---\n" + ENGLISH_BODY, "vi", "vi"),
    ("not-a-language-ignored", "---\nlang: sometimes\n---\n" + GERMAN_BODY, None, "de"),
    ("yaml-boolean-ignored", "---\nlang: no\n---\n" + GERMAN_BODY, None, "de"),
    ("other-keys-ignored", "---\nlanguages_learned: fr\n---\n" + GERMAN_BODY, None, "de"),
    ("too-short-to-tell", "# TODO\n\nnginx 1.25\n", None, ""),
]


@pytest.mark.parametrize(("text", "declared", "language"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_note_language(text: str, declared: str | None, language: str) -> None:
    note = parse_note("Note.md", text, LinkResolver({"Note.md"}), "askvault")
    assert declared_language(note) == declared
    assert note_language(note, shared_detector()) == language
    assert note_language(note, None) == (declared or "")


def test_switched_off_every_note_is_the_default_and_the_fingerprint_says_so() -> None:
    note = parse_note("Note.md", "---\nlang: de\n---\n" + GERMAN_BODY, LinkResolver({"Note.md"}), "askvault")
    off, on = NoteLanguages(enabled=False, detector=shared_detector()), NoteLanguages(detector=shared_detector())
    assert (off.of(note), on.of(note)) == ("", "de")
    assert len({off.version, on.version, NoteLanguages().version}) == 3
