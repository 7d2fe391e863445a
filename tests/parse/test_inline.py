"""Inline Obsidian syntax: tags, comments, callouts, block ids, HTML, code spans and code blocks."""

from __future__ import annotations

import pytest

from askvault.parse.inline import code_spans, strip_block_id
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Note.md", "Other.md"])


def body(markdown: str) -> str:
    return "\n".join(section.text for section in parse_note("Note.md", markdown, RESOLVER).sections)


@pytest.mark.parametrize(
    ("markdown", "tags"),
    [
        ("#homelab and #Media", ("homelab", "media")),
        ("nested #area/sub-area_2", ("area/sub-area_2",)),
        ("numbers #123 #2024 but #y2024", ("y2024",)),
        ("`#notatag` and #real", ("real",)),
        ("```\n#incode\n```\n#after", ("after",)),
        ("    #indented-code", ()),
        ("https://example.com/#frag and example.com#x", ()),
        ("[[Other#Heading]] [[#Local]] [t](Other.md#Part)", ()),
        ("word#inside and &#123; entity", ()),
        ("\\#escaped", ()),
        ("# Heading #tagged", ("tagged",)),
        ("> quoted #q", ("q",)),
        ("- [ ] task #todo", ("todo",)),
        ("| cell #t1 | #t2 |\n|---|---|", ("t1", "t2")),
        ('<span class="x">#feature/dates</span>', ("feature/dates",)),
        ("%% #hidden %% #shown", ("shown",)),
        ("#ünïcode #日本", ("ünïcode", "日本")),
        ("trailing #slash/", ("slash",)),
        ("#a #A #a", ("a",)),
    ],
    ids=[
        "simple",
        "nested",
        "pure-numbers",
        "code-span",
        "code-fence",
        "indented-code",
        "url-anchors",
        "link-headings",
        "mid-word-and-entity",
        "escaped",
        "in-heading",
        "in-quote",
        "in-task",
        "in-table",
        "after-html-tag",
        "in-comment",
        "unicode",
        "trailing-slash",
        "deduplicated",
    ],
)
def test_inline_tags(markdown: str, tags: tuple[str, ...]) -> None:
    assert parse_note("Note.md", markdown, RESOLVER).tags == tags


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("before %%inline%% after", "before  after"),
        ("a %%one%% b %%two%% c", "a  b  c"),
        ("keep\n%%\nmulti\nline\n%%\nend", "keep\n\n\n\n\nend"),
        ("start %% spans\nlines %% rest", "start\n rest"),
        ("x <!-- html --> y", "x  y"),
        ("x\n<!--\nblock\n-->\ny", "x\n\n\n\ny"),
        ("`%%code%%` and `<!-- -->`", "`%%code%%` and `<!-- -->`"),
        ("```\n%% in fence %%\n```", "```\n%% in fence %%\n```"),
        ("lone %% marker", "lone  marker"),
        ("open <!-- never closed", "open  never closed"),
        ("%%\n# Hidden heading\n%%\nafter", "\n\n\nafter"),
        ("100%% sure %% really", "100 really"),
    ],
    ids=[
        "inline",
        "two-inline",
        "multi-line",
        "across-lines",
        "html-inline",
        "html-block",
        "in-code-spans",
        "in-fence",
        "unclosed-kept",
        "unclosed-html-kept",
        "heading-in-comment",
        "percent-pairs",
    ],
)
def test_comments(markdown: str, text: str) -> None:
    note = parse_note("Note.md", markdown, RESOLVER)
    assert "\n".join(s.text for s in note.sections).strip("\n") == text.strip("\n")
    assert all(s.heading_path == () for s in note.sections)


def test_unclosed_comment_warns() -> None:
    note = parse_note("Note.md", "a\nlone %% marker", RESOLVER)
    assert note.warnings == ("line 2: %% is never closed; kept as text",)


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("> [!note] Remember this\n> body", "Note: Remember this\nbody"),
        ("> [!warning]\n> careful", "Warning\ncareful"),
        ("> [!FAQ]- Folded\n> answer", "Faq: Folded\nanswer"),
        ("> [!tip]+ Open\n> x", "Tip: Open\nx"),
        ("> [!my-type] Custom", "My type: Custom"),
        ("> > [!info] Nested\n> > inner", "Info: Nested\ninner"),
        ("> plain quote", "plain quote"),
        ("> [!note] See [[Other|this]]", "Note: See this"),
        ("[!note] not in a quote", "[!note] not in a quote"),
        ("> [!note]\n> ```\n> code [[x]]\n> ```", "Note\n```\ncode [[x]]\n```"),
    ],
    ids=[
        "titled",
        "untitled",
        "folded",
        "open",
        "custom-type",
        "nested",
        "plain-quote",
        "link-in-title",
        "not-a-quote",
        "code-in-callout",
    ],
)
def test_callouts(markdown: str, text: str) -> None:
    assert body(markdown) == text


@pytest.mark.parametrize(
    ("line", "stripped"),
    [
        ("Paragraph text ^abc123", "Paragraph text"),
        ("Text ^block-id-2   ", "Text"),
        ("^standalone", ""),
        ("x^2", "x^2"),
        ("footnote[^1]", "footnote[^1]"),
        ("ends with ^ caret", "ends with ^ caret"),
        ("weird ^ab_c", "weird ^ab_c"),
        ("`code ^abc`", "`code ^abc`"),
    ],
    ids=["id", "trailing-space", "own-line", "superscript", "footnote", "lone-caret", "underscore", "in-code"],
)
def test_block_ids(line: str, stripped: str) -> None:
    assert strip_block_id(line) == stripped


def test_block_ids_in_notes() -> None:
    assert body("Para ^p1\n\n| a |\n|---|\n\n^table-id\n\n- item ^i1") == "Para\n\n| a |\n|---|\n\n\n\n- item"


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("a `b` c", [(2, 5)]),
        ("``a ` b``", [(0, 9)]),
        ("`a`` b", []),
        ("`one` `two`", [(0, 5), (6, 11)]),
        ("```` x ` y ```` z", [(0, 15)]),
        ("no ticks", []),
    ],
    ids=["single", "double-with-single-inside", "unmatched", "two", "long-run", "none"],
)
def test_code_spans(text: str, spans: list[tuple[int, int]]) -> None:
    assert code_spans(text) == spans


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("```python\nx = [[1]]  # %% not %%\n```", "```python\nx = [[1]]  # %% not %%\n```"),
        ("~~~\n# not a heading\n~~~", "~~~\n# not a heading\n~~~"),
        ("- item\n  ```\n  code\n  ```", "- item\n```\ncode\n```"),
        ("text\n\n    indented [[x]]\n    code", "text\n\n    indented [[x]]\n    code"),
        ("```\nunclosed\n[[x]]", "```\nunclosed\n[[x]]"),
        ('<span class="a">Hi</span><br>there', "Hi there"),
        ("<div>\n\n**bold** [[Other]]\n\n</div>", "**bold** Other"),
        ("a < b > c and x<y", "a < b > c and x<y"),
    ],
    ids=[
        "fence-verbatim",
        "tilde-fence",
        "fence-in-list",
        "indented-code",
        "unclosed-fence",
        "html-tags",
        "html-block",
        "comparisons",
    ],
)
def test_code_and_html(markdown: str, text: str) -> None:
    assert body(markdown).strip("\n") == text
