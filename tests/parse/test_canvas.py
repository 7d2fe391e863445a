"""canvas_markdown: JSON Canvas to Markdown for parse_note — order, groups, cards, edges, the fixture board."""

from __future__ import annotations

import pytest

from askvault.parse.canvas import canvas_markdown
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from tests.parse.canvas_nodes import FIXTURE, Node, canvas, edge, file, group, link, text


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (text("a", 0, 0, "Plain **card** with [[Note]] and #tag"), "Plain **card** with [[Note]] and #tag\n"),
        (text("a", 0, 0, "one\r\ntwo\rthree\n"), "one\ntwo\nthree\n"),
        (text("a", 0, 0, "\n\n  \nbody\n\n"), "body\n"),
        (text("a", 0, 0, "Grüße 😀 e\u0301"), "Grüße 😀 e\u0301\n"),
        (text("a", 0, 0, "   \n"), ""),
        (file("f", 0, 0, "Projects/Plan.md"), "[[Projects/Plan.md]]\n"),
        (file("f", 0, 0, "Projects/Plan.md", "#Goals"), "[[Projects/Plan.md#Goals]]\n"),
        (file("f", 0, 0, "Projects/Plan.md", "#^block1"), "[[Projects/Plan.md#^block1]]\n"),
        (file("f", 0, 0, "Assets/diagram.png"), "[[Assets/diagram.png]]\n"),
        (file("f", 0, 0, "Papers/Attention.pdf"), "[[Papers/Attention.pdf]]\n"),
        (file("f", 0, 0, "Odd/C# notes.md"), "[C# notes](Odd/C%23%20notes.md)\n"),
        (link("l", 0, 0, "https://example.com/docs?q=1"), "<https://example.com/docs?q=1>\n"),
        (link("l", 0, 0, "https://example.com/a b"), "<https://example.com/a%20b>\n"),
        (link("l", 0, 0, "example.com/page"), "example.com/page\n"),
    ],
    ids=[
        "text",
        "text-line-endings",
        "text-blank-edges-trimmed",
        "text-kept-as-written",
        "text-blank",
        "file",
        "file-heading",
        "file-block",
        "file-image",
        "file-pdf",
        "file-unlinkable-name",
        "link",
        "link-space",
        "link-no-scheme",
    ],
)
def test_cards(node: Node, expected: str) -> None:
    assert canvas_markdown(canvas(node)) == expected


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        ([text("c", 0, 200, "C"), text("a", 0, 0, "A"), text("b", 300, 0, "B")], "A\n\nB\n\nC\n"),
        ([text("b", 50, -10, "B"), text("a", -50, -10, "A")], "A\n\nB\n"),
        ([text("x", 0, 0, "first in file"), text("y", 0, 0, "second in file")], "first in file\n\nsecond in file\n"),
        (
            [group("g", 0, 0, 500, 500, "Later group"), text("t", 900, 900, "ungrouped, far below")],
            "ungrouped, far below\n\n## Later group\n",
        ),
        (
            [
                group("g2", 0, 1000, 500, 500, "Second"),
                text("t2", 10, 1010, "in second"),
                group("g1", 0, 0, 500, 500, "First"),
                text("t1", 10, 10, "in first"),
            ],
            "## First\n\nin first\n\n## Second\n\nin second\n",
        ),
    ],
    ids=[
        "top-to-bottom-then-left-to-right",
        "left-to-right-on-one-row",
        "ties-keep-file-order",
        "ungrouped-first",
        "groups",
    ],
)
def test_reading_order(nodes: list[Node], expected: str) -> None:
    assert canvas_markdown(canvas(*nodes)) == expected


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        (
            [
                group("outer", 0, 0, 1000, 1000, "Outer"),
                group("inner", 100, 500, 500, 400, "Inner"),
                text("deep", 150, 550, "deep card"),
                text("top", 100, 100, "outer card"),
            ],
            "## Outer\n\nouter card\n\n### Inner\n\ndeep card\n",
        ),
        (
            [
                group("outer", 0, 0, 1000, 1000, "Outer"),
                group("mid", 10, 10, 900, 900),
                text("t", 20, 20, "in a group without label"),
                group("inner", 20, 500, 400, 400, "Inner"),
            ],
            "## Outer\n\nin a group without label\n\n### Inner\n",
        ),
        (
            [group("g", 0, 0, 200, 200, "Box"), text("t", 150, 150, "sticks out", width=100, height=100)],
            "sticks out\n\n## Box\n",
        ),
        (
            [group("g", 0, 0, 200, 200, "Box"), text("t", 0, 0, "touches the edges", width=200, height=200)],
            "## Box\n\ntouches the edges\n",
        ),
        (
            [group("a", 0, 0, 300, 300, "A"), group("b", 0, 0, 300, 300, "B"), text("t", 10, 10, "t")],
            "## A\n\n### B\n\nt\n",
        ),
        (
            [group(f"g{n}", n * 10, n * 10, 1000 - n * 20, 1000 - n * 20, f"L{n}") for n in range(7)]
            + [text("t", 400, 400, "# Card heading\ninside")],
            "## L0\n\n### L1\n\n#### L2\n\n##### L3\n\n###### L4\n\n###### L5\n\n###### L6\n\nCard heading\ninside\n",
        ),
        ([group("g", 0, 0, 100, 100, "  Two\n words  ")], "## Two words\n"),
    ],
    ids=[
        "nested-one-level-deeper",
        "unlabelled-group-is-transparent",
        "box-must-fit",
        "touching-edges-are-inside",
        "equal-boxes-first-holds-second",
        "levels-stop-at-six",
        "label-on-one-line",
    ],
)
def test_groups(nodes: list[Node], expected: str) -> None:
    assert canvas_markdown(canvas(*nodes)) == expected


def test_smallest_enclosing_group_wins() -> None:
    nodes = [
        group("big", 0, 0, 2000, 2000, "Big"),
        group("left", 0, 0, 900, 900, "Left"),
        group("tight", 100, 100, 300, 300, "Tight"),
        text("t", 150, 150, "here"),
    ]
    assert canvas_markdown(canvas(*nodes)) == "## Big\n\n### Left\n\n#### Tight\n\nhere\n"


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        ([text("t", 0, 0, "# Title\nbody\n## Sub\nmore")], "## Title\nbody\n### Sub\nmore\n"),
        ([text("t", 0, 0, "### Only\nx")], "## Only\nx\n"),
        (
            [group("g", 0, 0, 500, 500, "G"), text("t", 10, 10, "## A\nx\n#### B\ny")],
            "## G\n\n### A\nx\n##### B\ny\n",
        ),
        ([text("t", 0, 0, "Setext\n======\nbody\n\n---\n\nafter rule")], "## Setext\n\nbody\n\n\n\nafter rule\n"),
        (
            [group("g", 0, 0, 500, 500, "G"), text("a", 10, 10, "# Own heading\nx"), text("b", 10, 100, "next card")],
            "## G\n\n### Own heading\nx\n\n## G\n\nnext card\n",
        ),
        (
            [group("g", 0, 0, 500, 500, "G"), text("a", 10, 10, "no heading"), text("b", 10, 100, "next card")],
            "## G\n\nno heading\n\nnext card\n",
        ),
        ([text("t", 0, 0, "```\n# not a heading\n```")], "```\n# not a heading\n```\n"),
        ([text("t", 0, 0, "- # list item heading stays\n> # so does a quoted one")], None),
        ([text("t", 0, 0, "#\nempty heading dropped")], "empty heading dropped\n"),
    ],
    ids=[
        "ungrouped-card-starts-at-two",
        "highest-heading-moves-up",
        "keeps-distance-under-group",
        "setext-and-rule",
        "group-heading-repeated-after-card-headings",
        "no-repeat-without-card-headings",
        "heading-in-code-untouched",
        "nested-headings-untouched",
        "empty-heading",
    ],
)
def test_card_headings(nodes: list[Node], expected: str | None) -> None:
    markdown = canvas_markdown(canvas(*nodes))
    source = nodes[-1]["text"]
    assert markdown == (expected if expected is not None else source + "\n")


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        ("```py\nunclosed", "```py\nunclosed\n```"),
        ("~~~~\nhas ``` inside", "~~~~\nhas ``` inside\n~~~~"),
        ("````\nlong fence", "````\nlong fence\n````"),
        ("<pre>\nraw", "<pre>\nraw\n</script></pre></style></textarea>"),
        ("half %% comment", "half  comment"),
        ("closed %%hidden%% comment", "closed  comment"),
        ("---\ntags: [a]\n---\nlooks like frontmatter", "## tags: [a]\n\nlooks like frontmatter"),
    ],
    ids=["fence", "tilde-fence", "long-fence", "pre", "unclosed-comment", "comment", "frontmatter-lookalike"],
)
def test_one_card_cannot_change_the_next(first: str, expected: str) -> None:
    markdown = canvas_markdown(canvas(text("a", 0, 0, first), text("b", 0, 100, "# Next card\nafter")))
    assert markdown == f"{expected}\n\n## Next card\nafter\n"
    note = parse_note("Board.canvas", markdown, LinkResolver([]))
    assert note.sections[-1].heading_path == ("Next card",)
    assert note.properties == {}


@pytest.mark.parametrize(
    ("nodes", "edges", "expected"),
    [
        (
            [text("a", 0, 0, "Write the draft"), file("f", 0, 100, "Projects/Plan.md")],
            [edge("a", "f", "feeds\n into"), edge("f", "a")],
            "Write the draft\n\nWrite the draft → Plan: feeds into\n\n[[Projects/Plan.md]]\n",
        ),
        (
            [group("g", 0, 0, 500, 500, "Ideas"), text("t", 10, 10, "x"), link("l", 900, 900, "https://a.org/p/q?x")],
            [edge("g", "l", "sources")],
            "<https://a.org/p/q?x>\n\n## Ideas\n\nIdeas → a.org/p/q: sources\n\nx\n",
        ),
        (
            [group("g", 0, 0, 500, 500), text("t", 10, 10, "inside"), text("u", 900, 900, "outside")],
            [edge("g", "u", "points at"), edge("g", "g", "loop")],
            "inside\n\noutside\n\ngroup → outside: points at\n",
        ),
        (
            [text("a", 0, 0, "A"), text("b", 0, 100, "B")],
            [
                edge("a", "missing", "x"),
                edge("a", "b", "  "),
                {**edge("a", "b"), "label": 3},
                {"fromNode": ["a"], "toNode": "b", "label": "x"},
                {"fromNode": "a", "toNode": {"id": "b"}, "label": "x"},
            ],
            "A\n\nB\n",
        ),
        (
            [text("a", 0, 0, "### " + "word " * 30), file("f", 0, 100, "Deep/Er/Note.md", "#Part two")],
            [edge("a", "f", "long")],
            "## " + ("word " * 30).strip() + "\n\n"
            "word word word word word word word word word word word word… → Note › Part two: long\n\n"
            "[[Deep/Er/Note.md#Part two]]\n",
        ),
        (
            [text("a", 0, 0, "---\n\n- [[Linked]] item"), text("b", 0, 100, "")],
            [edge("a", "b", "then")],
            "- [[Linked]] item\n\nLinked item → card: then\n",
        ),
    ],
    ids=[
        "after-its-card-unlabelled-left-out",
        "from-a-group-after-its-heading",
        "unlabelled-group-end-goes-to-the-card",
        "bad-edges-skipped",
        "names-are-short",
        "names-are-plain",
    ],
)
def test_edges(nodes: list[Node], edges: list[Node], expected: str) -> None:
    assert canvas_markdown(canvas(*nodes, edges=edges)) == expected


def test_parse_note_reads_sections_links_and_tags() -> None:
    nodes = [
        text("intro", 0, -500, "Board for #project/alpha"),
        group("g", 0, 0, 1000, 1000, "Research"),
        file("f", 10, 10, "Notes/Paper.md", "#Method"),
        text("t", 10, 200, "## Findings\nSee [[Other]]."),
        group("h", 10, 500, 800, 400, "Sources"),
        file("img", 20, 520, "Assets/chart.png"),
        link("l", 20, 700, "https://arxiv.org/abs/1706.03762"),
    ]
    markdown = canvas_markdown(canvas(*nodes, edges=[edge("f", "t", "supports")]))
    note = parse_note("Boards/Alpha.canvas", markdown, LinkResolver(["Notes/Paper.md", "Other.md", "Assets/chart.png"]))
    assert [(s.heading_path, s.level) for s in note.sections] == [
        ((), 0),
        (("Research",), 2),
        (("Research", "Findings"), 3),
        (("Research", "Sources"), 3),
    ]
    assert [(found.target, found.resolved, found.heading) for found in note.links] == [
        ("Notes/Paper.md", "Notes/Paper.md", "Method"),
        ("Other", "Other.md", None),
        ("Assets/chart.png", "Assets/chart.png", None),
    ]
    assert note.tags == ("project/alpha",)
    research = note.sections[1].text.split("\n")
    assert "Paper › Method" in research
    assert "Paper › Method → Findings: supports" in research
    assert "https://arxiv.org/abs/1706.03762" in note.sections[-1].text
    assert note.warnings == ()


FIXTURE_MARKDOWN = """\
## Website relaunch

Board for the spring relaunch of the company site. Owner: [[Dana Weber]]. #project/website

## Backlog

Migrate blog posts from WordPress

- export the XML dump
- convert with `pandoc -f html -t gfm`
- fix image paths

Migrate blog posts from WordPress → Set up the staging server on `staging.example.org`: needs staging first

[[Projects/Website/Content inventory.md]]

### Design

#### Colour palette
Use the brand blues; body text must reach a contrast ratio of 4.5:1.

##### Fonts
Inter for text, JetBrains Mono for code.

### Design

[[Assets/Wireframe home.png]]

## In progress

In progress → Done: ships to

Set up the staging server on `staging.example.org`:

```sh
deploy --env staging --branch relaunch
```

<https://docs.astro.build/en/guides/deploy/>

## Done

Domain renewed until 2027.
"""


def test_project_board_fixture() -> None:
    markdown = canvas_markdown(FIXTURE.read_text(encoding="utf-8"))
    assert markdown == FIXTURE_MARKDOWN
    paths = ["People/Dana Weber.md", "Projects/Website/Content inventory.md", "Assets/Wireframe home.png"]
    note = parse_note("Projects/Website/Project board.canvas", markdown, LinkResolver(paths))
    assert [s.heading_path for s in note.sections] == [
        ("Website relaunch",),
        ("Backlog",),
        ("Backlog", "Design"),
        ("Backlog", "Design", "Colour palette"),
        ("Backlog", "Design", "Colour palette", "Fonts"),
        ("Backlog", "Design"),
        ("In progress",),
        ("Done",),
    ]
    assert [found.resolved for found in note.links] == paths
    assert note.tags == ("project/website",)
    assert "Content inventory" in note.sections[1].text.split("\n")
    assert "deploy --env staging --branch relaunch" in note.sections[6].text
