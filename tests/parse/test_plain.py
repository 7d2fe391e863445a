"""Notes too heavy for markdown-it are parsed as plain text: when that happens, and what is still read."""

from __future__ import annotations

import pytest

from askvault.model import Note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.parse.plain import (
    MARKED_LINE_WEIGHT,
    MAX_PLAIN_HEADINGS,
    PLAIN_TEXT_LINES,
    PLAIN_TEXT_NOTICE,
    too_heavy,
)

RESOLVER = LinkResolver(["Big.md", "Notes/Target.md"])
LIMIT = PLAIN_TEXT_LINES
MARKED_LIMIT = PLAIN_TEXT_LINES // MARKED_LINE_WEIGHT


def plain(note: Note) -> bool:
    return any(warning.startswith(PLAIN_TEXT_NOTICE) for warning in note.warnings)


def filler(count: int, word: str = "line") -> str:
    return "".join(f"{word} {i}\n" for i in range(count))


@pytest.mark.parametrize(
    ("body", "heavy"),
    [
        pytest.param("l\n" * LIMIT, False, id="at-the-line-bound"),
        pytest.param("l\n" * (LIMIT + 1), True, id="one-line-over"),
        pytest.param("l\n" * LIMIT + "l", True, id="last-line-without-newline-counts"),
        pytest.param("- item\n" * MARKED_LIMIT, False, id="list-at-its-weighted-bound"),
        pytest.param("- item\n" * (MARKED_LIMIT + 1), True, id="list-just-over-its-weighted-bound"),
        pytest.param("# H\n" * (MARKED_LIMIT + 1), True, id="headings-weigh-like-list-items"),
        pytest.param("1. item\n" * (MARKED_LIMIT + 1), True, id="ordered-items-too"),
        pytest.param("> - item\n" * (MARKED_LIMIT + 1), True, id="list-items-in-quotes-too"),
        pytest.param("#tag words\n" * (MARKED_LIMIT + 1), False, id="tags-are-not-headings"),
        pytest.param("-not an item\n" * (MARKED_LIMIT + 1), False, id="a-dash-without-space-is-prose"),
    ],
)
def test_too_heavy_bound(body: str, heavy: bool) -> None:
    assert too_heavy(body.split("\n")) is heavy
    assert plain(parse_note("Big.md", body, RESOLVER)) is heavy


def test_the_notice_names_the_line_count() -> None:
    note = parse_note("Big.md", "l\n" * (LIMIT + 5), RESOLVER)
    assert note.warnings == tuple(w for w in note.warnings if w.startswith(f"{PLAIN_TEXT_NOTICE} ({LIMIT + 5} lines)"))


def test_normal_notes_are_parsed_as_markdown() -> None:
    note = parse_note("Big.md", "# A\n\n- [[Target]] #tag\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", RESOLVER)
    assert not plain(note)
    assert note.sections[0].text == "A\n\n- Target #tag\n\n| a | b |\n|---|---|\n| 1 | 2 |"


def test_plain_note_keeps_every_line_at_its_number() -> None:
    body = filler(LIMIT + 10)
    note = parse_note("Big.md", body, RESOLVER)
    assert [(s.start_line, s.end_line) for s in note.sections] == [(1, LIMIT + 10)]
    lines = note.sections[0].text.split("\n")
    assert lines[0] == "line 0"
    assert lines[LIMIT + 9] == f"line {LIMIT + 9}"


@pytest.mark.parametrize(
    ("heading", "level", "text"),
    [
        pytest.param("# Top", 1, "Top", id="atx"),
        pytest.param("### Third ###", 3, "Third", id="closing-sequence-dropped"),
        pytest.param("   ## Indented", 2, "Indented", id="up-to-three-spaces"),
        pytest.param("## [[Notes/Target|Alias]] and #tag", 2, "Alias and #tag", id="links-rendered"),
        pytest.param("## C#", 2, "C#", id="hash-inside-kept"),
    ],
)
def test_plain_note_finds_headings(heading: str, level: int, text: str) -> None:
    source = filler(10) + heading + "\n" + filler(LIMIT)
    note = parse_note("Big.md", source, RESOLVER)
    assert plain(note)
    assert [(s.heading_path, s.level, s.start_line) for s in note.sections] == [((), 0, 1), ((text,), level, 11)]
    assert note.sections[1].text.split("\n")[0] == text


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("#NotAHeading", id="no-space"),
        pytest.param("    # indented four", id="four-spaces-is-code"),
        pytest.param("####### seven", id="seven-marks"),
        pytest.param("#", id="empty-heading"),
    ],
)
def test_plain_note_ignores_non_headings(line: str) -> None:
    note = parse_note("Big.md", filler(5) + line + "\n" + filler(LIMIT), RESOLVER)
    assert [s.heading_path for s in note.sections] == [()]
    assert note.sections[0].text.split("\n")[5] == line


@pytest.mark.parametrize(
    ("fence", "closer"),
    [
        pytest.param("```", "```", id="backticks"),
        pytest.param("~~~~ python", "~~~~~", id="longer-tilde-closer"),
        pytest.param("```", None, id="unclosed-runs-to-the-end"),
    ],
)
def test_plain_note_headings_in_code_fences_are_code(fence: str, closer: str | None) -> None:
    code = [fence, "# not a heading", "%% kept %%", "[[Target]]", *([closer] if closer else [])]
    source = "\n".join(code) + "\n" + filler(LIMIT) + "# After\n"
    note = parse_note("Big.md", source, RESOLVER)
    text = note.sections[0].text.split("\n")
    assert text[: len(code)] == code
    assert [s.heading_path for s in note.sections] == ([(), ("After",)] if closer else [()])


def test_plain_note_strips_comments_and_renders_links_and_tags() -> None:
    source = "visible %% hidden %% end\n[[Notes/Target|the target]] and #project\n" + filler(LIMIT)
    note = parse_note("Big.md", source, RESOLVER)
    lines = note.sections[0].text.split("\n")
    assert lines[:2] == ["visible  end", "the target and #project"]
    assert [link.resolved for link in note.links] == ["Notes/Target.md"]
    assert note.tags == ("project",)


def test_plain_note_headings_are_bounded() -> None:
    source = "".join(f"# H{i}\ntext\n" for i in range(MAX_PLAIN_HEADINGS + 50)) + filler(LIMIT)
    note = parse_note("Big.md", source, RESOLVER)
    assert len(note.sections) == MAX_PLAIN_HEADINGS
    last = note.sections[-1]
    assert last.heading_path == (f"H{MAX_PLAIN_HEADINGS - 1}",)
    assert f"# H{MAX_PLAIN_HEADINGS}" in last.text.split("\n")  # later headings stay text


def test_frontmatter_still_read_and_lines_offset() -> None:
    source = "---\ntags: [big]\n---\n" + filler(LIMIT + 1) + "# End\nlast\n"
    note = parse_note("Big.md", source, RESOLVER)
    assert plain(note)
    assert note.tags == ("big",)
    assert [(s.heading_path, s.start_line, s.end_line) for s in note.sections] == [
        ((), 4, LIMIT + 4),
        (("End",), LIMIT + 5, LIMIT + 6),
    ]


def test_the_note_says_it_was_read_as_plain_text() -> None:
    heavy = parse_note("Heavy.md", "x\n" * (LIMIT + 5), LinkResolver({}))
    light = parse_note("Light.md", "x\n" * 10, LinkResolver({}))

    assert (heavy.plain_text, light.plain_text) == (True, False)
