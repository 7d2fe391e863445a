"""Frontmatter that cannot be read: the body after it keeps its headings, the title survives, a notice says why."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.model import Note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Notes/Kodi.md"])
BODY = "# Heading One\n\nThe body about tomatoes.\n"


def parse(text: str) -> Note:
    return parse_note("Notes/Kodi.md", text, RESOLVER)


@pytest.mark.parametrize(
    ("block", "title", "notice"),
    [
        ("title: Broken\ntags: [a, b", "Broken", "the '[' opened on line 3 is never closed"),
        ("title: Tabbed\nsource:\n\turl: x", "Tabbed", "line 4 is indented with a tab, and YAML allows only spaces"),
        ("title: 'Quoted'\nsummary: \"open", "Quoted", "the quote opened on line 3 is never closed"),
        ('title: "Open\ntags: [a]', "Kodi", "the quote opened on line 2 is never closed"),
        ("title: T\nkey: value: more", "T", "mapping values are not allowed here on line 3"),
        ("x: {a: 1", "Kodi", "the '{' opened on line 2 is never closed"),
        ("title: Undefined\nb: *nowhere", "Undefined", "found undefined alias 'nowhere' on line 3"),
        ("- a\n- b", "Kodi", "it is a list, not key: value lines"),
        ("just words", "Kodi", "it is a single value, not key: value lines"),
        ("a: " + "[" * 500, "Kodi", "lists or mappings nested more than 64 deep"),
        ("a: &a x\nb: [" + "*a, " * 6000 + "]", "Kodi", "more than 5000 YAML nodes"),
    ],
    ids=[
        "unclosed-bracket",
        "tab-indent",
        "unclosed-quote",
        "unclosed-quote-in-title",
        "nested-colon",
        "unclosed-brace",
        "undefined-alias",
        "a-list",
        "a-single-value",
        "deep-nesting",
        "too-many-aliases",
    ],
)
def test_an_unreadable_block_is_skipped_and_the_body_after_it_is_indexed(block: str, title: str, notice: str) -> None:
    source = f"---\n{block}\n---\n{BODY}"
    note = parse(source)
    first_body_line = block.count("\n") + 4

    assert note.title == title
    assert (note.aliases, note.tags, dict(note.properties)) == ((), (), {})
    assert [(s.heading_path, s.start_line) for s in note.sections] == [(("Heading One",), first_body_line)]
    assert note.sections[0].text == "Heading One\n\nThe body about tomatoes."
    assert len(note.notices) == 1
    assert note.notices[0].startswith(f"frontmatter ignored: {notice}")
    fixes = ("fix the YAML between the '---' lines", "write each property as 'key: value'")
    assert note.notices[0].endswith(tuple(f"; the note is indexed without its properties — {fix}" for fix in fixes))
    assert note.notices[0] in note.warnings


def test_the_chunks_keep_the_heading_trail_and_the_title() -> None:
    note = parse(f"---\ntitle: Broken\ntags: [a, b\n---\n{BODY}")
    chunks = chunk_note(note, ChunkParams())

    assert [(c.title, c.heading_path, c.start_line) for c in chunks] == [("Broken", ("Heading One",), 5)]
    assert "tags" not in chunks[0].text


@pytest.mark.parametrize(
    ("source", "title", "tags", "notice"),
    [
        (
            "---\ntitle: First\ntags: [a]\ntitle: Second\n---\n" + BODY,
            "Second",
            ("a",),
            "frontmatter repeats the key 'title' (lines 2 and 4); the last value is used — delete the line you do not "
            "want",
        ),
        (
            "---\ntags: [a]\ntags: [b]\n---\n" + BODY,
            "Kodi",
            ("b",),
            "frontmatter repeats the key 'tags' (lines 2 and 3); the last value is used — delete the line you do not "
            "want",
        ),
    ],
    ids=["title-twice", "tags-twice"],
)
def test_a_repeated_key_keeps_the_last_value_and_says_so(
    source: str, title: str, tags: tuple[str, ...], notice: str
) -> None:
    note = parse(source)

    assert (note.title, note.tags, note.notices) == (title, tags, (notice,))
    assert note.sections[0].heading_path == ("Heading One",)


@pytest.mark.parametrize(
    ("source", "notice", "first_text"),
    [
        (
            "---\ntitle: A\ntags: [x]\n\n" + BODY,
            "frontmatter has no closing '---' line, so the whole note is indexed as text without properties — add a "
            "'---' line after the last property",
            "title: A",
        ),
        ("---\n\nA note that opens with a rule.\n", None, "A note that opens with a rule."),
        ("---\nA paragraph under a rule.\n\n" + BODY, None, "A paragraph under a rule."),
    ],
    ids=["properties-never-closed", "a-rule-then-text", "a-rule-then-a-paragraph"],
)
def test_a_block_never_closed_is_no_frontmatter(source: str, notice: str | None, first_text: str) -> None:
    # As in Obsidian: without a closing line there is no frontmatter, and the whole note is text. It is a
    # problem to report only when the lines after `---` look like properties.
    note = parse(source)

    assert note.title == "Kodi"
    assert note.properties == {}
    assert note.notices == ((notice,) if notice else ())
    assert note.sections[0].text.startswith(first_text)
    assert not any(line == "---" for s in note.sections for line in s.text.split("\n"))
    assert note.sections[-1].text.endswith(("tomatoes.", "rule."))


def test_a_huge_block_is_read_as_text() -> None:
    note = parse("---\nbig: '" + "x" * 70_000 + "'\n---\n" + BODY)

    assert note.notices == ("frontmatter not read: it is larger than 64 KiB, so it is indexed as text — shorten it",)
    assert note.sections[0].text.startswith("big: 'xxx")
    assert note.sections[-1].heading_path == ("Heading One",)


@pytest.mark.parametrize(
    "source",
    [
        "---\naskvault: false\ntags: [a, b\n---\nsecret body",
        "---\ntags: [a, b\naskvault: 'no'\n---\nsecret body",
        "---\n- a\naskvault: false\n---\nsecret body",
        "---\naskvault: false\ntitle: x\n\nsecret body",
        "---\naskvault: false\nbig: '" + "x" * 70_000 + "'\n---\nsecret body",
    ],
    ids=["broken-after-the-key", "broken-before-the-key", "not-a-mapping", "never-closed", "huge"],
)
def test_the_opt_out_holds_in_a_block_that_cannot_be_read(source: str) -> None:
    # Privacy errs on the side of leaving a note out: a typo elsewhere must not index a note that opted out.
    note = parse(source)

    assert note.opted_out
    assert note.sections == ()


@pytest.mark.parametrize(
    "source",
    [
        "---\nAliases: [Am I a Data Engineer?]\n---\nbody",
        "---\nwhen: 2023-02-30\n---\nbody",
        "---\ntitle: T\ntags: [a]\n---\nbody",
        "---\n---\nbody",
    ],
    ids=["pyyaml-rejects-obsidian-reads", "impossible-date", "valid", "empty"],
)
def test_blocks_obsidian_reads_are_no_notice(source: str) -> None:
    assert parse(source).notices == ()
