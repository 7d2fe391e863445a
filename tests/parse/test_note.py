"""parse_note: sections, heading trails, original line numbers; never raises, stays fast on hostile input."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askvault.model import Note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Notes/Server.md", "Notes/Other.md"])


def outline(note: Note) -> list[tuple[tuple[str, ...], int, int, int]]:
    return [(s.heading_path, s.level, s.start_line, s.end_line) for s in note.sections]


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        (
            "intro\n# A\na\n## B\nb\n### C\nc\n## D\nd\n# E\ne",
            [
                ((), 0, 1, 1),
                (("A",), 1, 2, 3),
                (("A", "B"), 2, 4, 5),
                (("A", "B", "C"), 3, 6, 7),
                (("A", "D"), 2, 8, 9),
                (("E",), 1, 10, 11),
            ],
        ),
        (
            "## Skip\nx\n#### Deep\ny\n### Mid\nz",
            [(("Skip",), 2, 1, 2), (("Skip", "Deep"), 4, 3, 4), (("Skip", "Mid"), 3, 5, 6)],
        ),
        ("Title\n=====\nbody\n\nSub\n---\nmore", [(("Title",), 1, 1, 3), (("Title", "Sub"), 2, 5, 7)]),
        ("```\n# not heading\n```\n# Real\nx", [((), 0, 1, 3), (("Real",), 1, 4, 5)]),
        ("> # quoted heading\n\n- # list heading\n\n# Real", [((), 0, 1, 3), (("Real",), 1, 5, 5)]),
        ("# A #\n## B ##\ntext", [(("A",), 1, 1, 1), (("A", "B"), 2, 2, 3)]),
        ("#\n# \ntext\n# Named", [((), 0, 3, 3), (("Named",), 1, 4, 4)]),
        ("\n\n\n# A\n\ntext\n\n\n", [(("A",), 1, 4, 6)]),
        ("#nospace is a tag\n# Yes", [((), 0, 1, 1), (("Yes",), 1, 2, 2)]),
        ("# [[Server|Box]] setup\nx", [(("Box setup",), 1, 1, 2)]),
        ("text\n---\nafter rule", [(("text",), 2, 1, 3)]),
        ("text\n\n---\n\nafter rule", [((), 0, 1, 5)]),
        ("# A\n# A\nx", [(("A",), 1, 1, 1), (("A",), 1, 2, 3)]),
        ("", []),
        ("\n\n  \n", []),
    ],
    ids=[
        "trail",
        "skipped-levels",
        "setext",
        "heading-in-fence",
        "nested-headings-are-text",
        "closing-hashes",
        "empty-headings",
        "leading-and-trailing-blanks",
        "tag-not-heading",
        "link-in-heading",
        "setext-h2-from-rule",
        "rule",
        "duplicate-headings",
        "empty",
        "blank",
    ],
)
def test_sections(markdown: str, expected: list[tuple[tuple[str, ...], int, int, int]]) -> None:
    assert outline(parse_note("Notes/Server.md", markdown, RESOLVER)) == expected


def test_section_text_has_one_line_per_source_line() -> None:
    source = (
        "---\ntitle: T\n---\n# Head\n\nPara [[Other]] %%c%%\n\n```sh\nrun --port 5433\n```\n\n> [!tip] T\n> x ^id\n"
    )
    note = parse_note("Notes/Server.md", source, RESOLVER)
    (section,) = note.sections
    assert section.text.split("\n") == [
        "Head",
        "",
        "Para Other",
        "",
        "```sh",
        "run --port 5433",
        "```",
        "",
        "Tip: T",
        "x",
    ]
    assert section.end_line - section.start_line + 1 == len(section.text.split("\n"))
    assert (section.start_line, section.end_line) == (4, 13)


@pytest.mark.parametrize(
    ("source", "start", "end"),
    [
        ("a\nb\n# H\nc\n", 3, 4),
        ("a\r\nb\r\n# H\r\nc\r\n", 3, 4),
        ("a\rb\r# H\rc\r", 3, 4),
        ("\ufeffa\nb\n# H\nc", 3, 4),
        ("---\nx: 1\n---\na\n# H\nc", 5, 6),
    ],
    ids=["lf", "crlf", "cr", "bom", "frontmatter"],
)
def test_line_numbers_match_the_file(source: str, start: int, end: int) -> None:
    section = parse_note("a.md", source, RESOLVER).sections[-1]
    assert (section.heading_path, section.start_line, section.end_line) == (("H",), start, end)
    assert "\r" not in section.text


@pytest.mark.parametrize(
    ("path", "title"),
    [("Notes/Server.md", "Server"), ("Deep/Er/v1.2 Notes.md", "v1.2 Notes"), ("Upper.MD", "Upper"), ("noext", "noext")],
    ids=["simple", "dots", "upper-ext", "no-ext"],
)
def test_title_is_the_file_name(path: str, title: str) -> None:
    assert parse_note(path, "# Different H1\nx", RESOLVER).title == title


def test_long_heading_is_cut_in_the_trail_only() -> None:
    heading = "word " * 100
    note = parse_note("a.md", f"# {heading}\nx", RESOLVER)
    assert len(note.sections[0].heading_path[0]) == 200
    assert note.sections[0].text.startswith(heading.strip())


def test_links_are_deduplicated_in_order() -> None:
    note = parse_note("a.md", "[[Other]] [[Server]] [[Other]]", RESOLVER)
    assert [link.target for link in note.links] == ["Other", "Server"]


PATHOLOGICAL = {
    "10mb-line": "word " * 2_000_000,
    "10mb-syntax-line": "[[a|b]] #t `c` [x](y) <b> %% <!-- ^i " * 270_000,
    "brackets-10k": "[[" * 10_000,
    "brackets-text-10k": "[[a" * 10_000 + "]]",
    "quotes-10k": "> " * 10_000 + "deep",
    "lists-10k": "- " * 10_000 + "deep",
    "ordered-10k": "1. " * 10_000 + "deep",
    "quote-staircase": "\n".join(">" * depth + " x" for depth in range(1, 3_000)),
    "list-staircase": "\n".join("  " * depth + "- x" for depth in range(3_000)),
    "backticks": "`" * 50_000 + " x " + "``y" * 50_000,
    "unclosed-html-comments": "<!--" * 100_000,
    "percent-pairs": "%%" * 100_000,
    "md-link-starts": "[a](x" * 100_000,
    "html-open": "<a " * 300_000,
    "yaml-deep": "---\nk: " + "[" * 50_000 + "\n---\nbody",
    "tabs": "\t" * 1_000_000 + "x",
    "nul-and-controls": "\x00\x01\x1b[31m # \x00 [[\x00]]",
}


@pytest.mark.parametrize("source", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
@pytest.mark.slow
def test_pathological_inputs_finish(source: str) -> None:
    # No timing assertion (machines are noisy); pytest-timeout and the suite's run time catch a regression.
    note = parse_note("a.md", source, RESOLVER)
    assert not any("internal parser error" in w for w in note.warnings)
    for section in note.sections:
        assert 1 <= section.start_line <= section.end_line <= source.count("\n") + 1


PIECES = [*"ab #>-*`[]()!|^%<>:=~\\\n\t\r", "[[", "]]", "%%", "<!--", "-->", "```", "---\n", "> [!note]", "\ufeff"]
MARKDOWNISH = st.lists(st.sampled_from(PIECES), max_size=150).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.one_of(MARKDOWNISH, st.text(max_size=300)))
def test_never_raises_and_lines_stay_in_the_file(source: str) -> None:
    note = parse_note("Notes/Server.md", source, RESOLVER)
    assert not any("internal parser error" in w for w in note.warnings)
    lines = source.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    previous_end = 0
    for section in note.sections:
        assert previous_end < section.start_line <= section.end_line <= lines
        assert len(section.text.split("\n")) == section.end_line - section.start_line + 1
        previous_end = section.end_line
