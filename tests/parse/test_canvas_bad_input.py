"""canvas_markdown on bad input: broken files and nodes, limits, and (fuzzed) only CanvasError, never frontmatter."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askvault.errors import NoteError
from askvault.parse.canvas import CanvasError, canvas_markdown
from askvault.parse.frontmatter import read_frontmatter
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from tests.parse.canvas_nodes import canvas, edge, file, group, link, text


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            '{"nodes": [\n  {"id": "a",,}\n]}',
            "is not a valid canvas (not JSON: line 2, column 14); open it in Obsidian",
        ),
        ("not json at all", "(not JSON: line 1, column 1)"),
        ("[" * 100_000, "(its JSON is nested too deeply)"),
        ('{"nodes": [' + '{"a":' * 100_000 + "1" + "}" * 100_000 + "]}", "(its JSON is nested too deeply)"),
        ("[]", "(its JSON is a list, not an object)"),
        ('"a string"', "(its JSON is a string, not an object)"),
        ("42", "(its JSON is a number, not an object)"),
        ("null", "(its JSON is null, not an object)"),
        ('{"nodes": {"id": "a"}}', '("nodes" is an object, not a list)'),
        ('{"nodes": "x"}', '("nodes" is a string, not a list)'),
        ('{"nodes": false}', '("nodes" is true or false, not a list)'),
        ("\ufeff{", "(not JSON: line 1, column 2)"),
    ],
    ids=[
        "syntax-error",
        "text",
        "deep-list",
        "deep-object",
        "list",
        "string",
        "number",
        "null",
        "nodes-object",
        "nodes-string",
        "nodes-bool",
        "bom-then-bad",
    ],
)
def test_bad_files_raise_canvas_error(source: str, message: str) -> None:
    with pytest.raises(CanvasError) as caught:
        canvas_markdown(source)
    assert message in caught.value.message
    assert isinstance(caught.value, NoteError)
    assert caught.value.message.endswith("open it in Obsidian and save it again, or delete it")


GOOD = text("ok", 0, 0, "kept")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("", ""),
        (" \n\t\n", ""),
        ("\ufeff", ""),
        ("{}", ""),
        ('{"nodes": null, "edges": null}', ""),
        ('{"nodes": [], "edges": "nonsense"}', ""),
        (json.dumps({"nodes": [GOOD], "edges": {"a": 1}}), "kept\n"),
        (json.dumps({"nodes": [1, "x", None, [], True]}), ""),
        (json.dumps({"nodes": [{**GOOD, "id": 7}, {**GOOD, "type": "card"}, {**GOOD, "type": ["text"]}]}), ""),
        (json.dumps({"nodes": [{key: v for key, v in GOOD.items() if key != "x"}, GOOD]}), "kept\n"),
        (json.dumps({"nodes": [{**GOOD, "x": "10"}, {**GOOD, "y": True}, {**GOOD, "width": None}]}), ""),
        (json.dumps({"nodes": [{**GOOD, "width": -1}, {**GOOD, "text": 5}, {**GOOD, "text": None}]}), ""),
        ('{"nodes": [{"id": "a", "type": "text", "x": NaN, "y": 0, "width": 1, "height": 1, "text": "n"}]}', ""),
        ('{"nodes": [{"id": "a", "type": "text", "x": 1e999, "y": 0, "width": 1, "height": 1, "text": "i"}]}', ""),
        (json.dumps({"nodes": [{**GOOD, "x": 0.5}, {**GOOD, "x": 1}]}).replace("0.5", "9" * 5000), "kept\n"),
        (
            json.dumps({"nodes": [file("f", 0, 0, ""), link("l", 0, 0, " "), {**file("g", 0, 0, "a.md"), "file": 1}]}),
            "",
        ),
        (json.dumps({"nodes": [{**file("f", 0, 0, "a.md"), "subpath": 3}]}), "[[a.md]]\n"),
        (json.dumps({"nodes": [group("g", 0, 0, 10, 10) | {"label": ["x"]}, text("t", 1, 1, "in")]}), "in\n"),
        (json.dumps({"nodes": [GOOD], "edges": [1, None, {"fromNode": "ok"}]}), "kept\n"),
    ],
    ids=[
        "empty-file",
        "blank-file",
        "only-bom",
        "empty-object",
        "null-lists",
        "edges-not-a-list-ignored",
        "edges-object-ignored",
        "nodes-not-objects",
        "bad-id-or-type",
        "missing-coordinate",
        "coordinates-not-numbers",
        "negative-size-or-text-not-string",
        "nan",
        "infinity",
        "huge-integer",
        "empty-file-and-url",
        "subpath-not-string",
        "label-not-string",
        "bad-edges",
    ],
)
def test_bad_nodes_are_skipped(source: str, expected: str) -> None:
    assert canvas_markdown(source) == expected


def test_too_many_nodes() -> None:
    source = canvas(*(text(f"t{n}", n, 0, "x") for n in range(11)))
    with pytest.raises(CanvasError, match=r"is too large to index \(11 cards and groups; the limit is 10\)"):
        canvas_markdown(source, max_nodes=10)
    assert canvas_markdown(source, max_nodes=11).count("x") == 11
    with pytest.raises(CanvasError, match=r"\(6,001 cards and groups; the limit is 5,000\); split it"):
        canvas_markdown(canvas(*(text(f"t{n}", n, 0, "x") for n in range(6001))))


def test_too_many_edges() -> None:
    source = canvas(text("a", 0, 0, "a"), edges=[edge("a", "a", "self")] * 41)
    with pytest.raises(CanvasError, match=r"\(41 connections; the limit is 40\)"):
        canvas_markdown(source, max_nodes=10)


def test_heavy_canvas_is_written_as_is_without_frontmatter() -> None:
    # Past plain.PLAIN_TEXT_LINES, parse_note reads plain text anyway: the cards are not parsed one by one.
    heavy = "\n".join(f"line {n}" for n in range(25_000))
    nodes = [text("a", 0, 0, "---\ntitle: not properties\n---\n# Card"), text("b", 0, 100, heavy)]
    markdown = canvas_markdown(canvas(*nodes))
    assert markdown.startswith("title: not properties\n---\n# Card\n\nline 0\n")
    note = parse_note("Big.canvas", markdown, LinkResolver([]))
    assert note.plain_text
    assert note.properties == {}
    assert note.sections[-1].heading_path == ("Card",)


def test_same_canvas_same_text_whatever_the_node_order() -> None:
    nodes = [
        group("g", 0, 0, 1000, 1000, "G"),
        group("h", 100, 500, 500, 400, "H"),
        text("a", 10, 10, "# A\na"),
        text("b", 300, 10, "b"),
        text("c", 150, 600, "c"),
        file("f", 2000, 0, "F.md"),
        link("l", -500, 0, "https://x.org"),
    ]
    edges = [edge("a", "b", "ab"), edge("h", "f", "hf")]
    expected = canvas_markdown(canvas(*nodes, edges=edges))
    shuffled = random.Random(7)
    for _ in range(20):
        shuffled.shuffle(nodes)
        assert canvas_markdown(canvas(*nodes, edges=edges)) == expected


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
MARKDOWN = st.lists(
    st.sampled_from(
        [
            *"ab #>-*`[]()!|%<>:=~\n",
            *["[[", "]]", "%%", "<!--", "-->", "```", "~~~", "---", "    ", "1. ", "\r\n", "> [!note]"],
            *["<pre>", "<script>", "<?", "<!X", "<![CDATA[", "<div>"],
        ]
    ),
    max_size=40,
).map("".join)
NODE = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["a", "b", "c"]),
        "type": st.sampled_from(["text", "file", "link", "group", "other"]),
        "x": st.integers(-50, 50) | st.floats(),
        "y": st.integers(-50, 50),
        "width": st.integers(0, 120),
        "height": st.integers(0, 120),
        "text": MARKDOWN,
        "file": MARKDOWN,
        "url": MARKDOWN,
        "label": MARKDOWN | JSONISH,
    }
)
CANVAS = st.fixed_dictionaries(
    {
        "nodes": st.lists(NODE | JSONISH, max_size=8),
        "edges": st.lists(
            st.fixed_dictionaries({"fromNode": JSONISH | st.just("a"), "toNode": st.just("b"), "label": MARKDOWN}),
            max_size=4,
        ),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card=MARKDOWN, grouped=st.booleans())
def test_no_card_changes_how_the_next_is_read(card: str, grouped: bool) -> None:
    nodes = [text("a", 10, 10, card), text("b", 10, 100, "# Next card\nafter")]
    markdown = canvas_markdown(canvas(*nodes, *([group("g", 0, 0, 200, 200, "G")] if grouped else [])))
    note = parse_note("Board.canvas", markdown, LinkResolver([]))
    last = note.sections[-1]
    assert (last.heading_path, last.text) == ((("G",) if grouped else ()) + ("Next card",), "Next card\nafter")
    assert note.properties == {}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.one_of(CANVAS.map(json.dumps), JSONISH.map(json.dumps), st.text(max_size=200)))
def test_never_raises_anything_else_and_never_makes_frontmatter(source: str) -> None:
    markdown, message = None, ""
    try:
        markdown = canvas_markdown(source)
    except CanvasError as exc:
        message = exc.message
    assert "internal error" not in message
    if markdown is None:
        return
    assert markdown == canvas_markdown(source)
    assert read_frontmatter(markdown.split("\n"), "askvault").body_start == 0
    note = parse_note("Board.canvas", markdown, LinkResolver(["a.md"]))
    assert not any("internal parser error" in warning for warning in note.warnings)
