"""The reference retriever's pure parts: chunk boundaries and line numbers, tokens, top-n and RRF order."""

from __future__ import annotations

import pytest

from askvault.evaluate.reference_chunks import (
    MAX_CHARS,
    STOP_WORDS,
    RefChunk,
    chunk_text,
    index_text,
    note_title,
    page_chunks,
    rrf,
    tokenize,
    top_indices,
)

Span = tuple[tuple[str, ...], int, int]


def spans(text: str) -> list[Span]:
    chunks = chunk_text(text)
    lines = text.split("\n")
    for chunk in chunks:
        # The evaluation judges evidence on these very lines of the file.
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
    return [(c.heading_path, c.start_line, c.end_line) for c in chunks]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "intro\n\n# A\nbody a\n## B\nbody b\n# C\nbody c\n",
            [((), 1, 1), (("A",), 4, 4), (("A", "B"), 6, 6), (("C",), 8, 8)],
            id="preamble-then-sections",
        ),
        pytest.param(
            "# A\n## B\n### C\nx\n## D\ny\n# E\nz",
            [(("A", "B", "C"), 4, 4), (("A", "D"), 6, 6), (("E",), 8, 8)],
            id="trail-is-a-stack-by-level",
        ),
        pytest.param("### C\nx\n# A\ny", [(("C",), 2, 2), (("A",), 4, 4)], id="shallower-heading-resets-the-trail"),
        pytest.param("# A\n```\n# not a heading\n```\nafter", [(("A",), 2, 5)], id="heading-inside-backticks"),
        pytest.param("# A\n~~~\nx\n\n# y\n~~~\n\nnext", [(("A",), 2, 8)], id="tilde-fence-blank-line-is-not-a-split"),
        pytest.param("# A\n- item\n  ```\n  # code\n  ```\n", [(("A",), 2, 5)], id="indented-fence-in-a-list"),
        pytest.param("# A\n```\nx\n\n# B\n", [(("A",), 2, 6)], id="unclosed-fence-runs-to-the-end"),
        pytest.param("```\n~~~\n# B\n```\n# C\nc", [((), 1, 4), (("C",), 6, 6)], id="tilde-does-not-close-backticks"),
        pytest.param("````\n```\n# B\n````\n# C\nc", [((), 1, 4), (("C",), 6, 6)], id="shorter-fence-does-not-close"),
        pytest.param("---\ntitle: x\n---\n# A\ntext\n", [(("A",), 5, 5)], id="frontmatter-keeps-line-numbers"),
        pytest.param("---\na: 1\n...\n\nbody", [((), 5, 5)], id="frontmatter-closed-by-dots"),
        pytest.param("---\n# A\n---\nbody", [((), 4, 4)], id="heading-inside-frontmatter"),
        pytest.param("---\na: 1\n# A\nx", [((), 1, 2), (("A",), 4, 4)], id="unclosed-frontmatter-is-text"),
        pytest.param("text\n---\nmore\n---\n", [((), 1, 4)], id="rule-later-is-not-frontmatter"),
        pytest.param("#tag\n####### seven\n#\tA\n #", [((), 1, 4)], id="not-headings"),
        pytest.param("# A\n\n\n# B\n \n\t\n", [], id="empty-sections-are-dropped"),
        pytest.param("# A\n\none\n\n\ntwo\n", [(("A",), 3, 6)], id="paragraphs-packed-with-the-blank-lines"),
        pytest.param("", [], id="empty-note"),
    ],
)
def test_chunk_boundaries(text: str, expected: list[Span]) -> None:
    assert spans(text) == expected


def paragraphs_text(lengths: list[int]) -> str:
    """Paragraph i (of `lengths[i]` x's) sits on line 2i + 1, after a blank line."""
    return "\n\n".join("x" * n for n in lengths)


@pytest.mark.parametrize(
    ("lengths", "groups"),
    [
        pytest.param([700, 700], [[0, 1]], id="two-fit"),
        pytest.param([749, 749], [[0, 1]], id="exactly-1500-with-the-blank-line"),
        pytest.param([750, 749], [[0], [1]], id="1501-splits"),
        pytest.param([500, 500, 500], [[0, 1], [2]], id="greedy-not-balanced"),
        pytest.param([2000], [[0]], id="long-paragraph-is-one-chunk"),
        pytest.param([100, 2000, 100], [[0], [1], [2]], id="long-paragraph-alone"),
        pytest.param([1500, 1], [[0], [1]], id="full-chunk-then-tiny"),
    ],
)
def test_paragraph_packing(lengths: list[int], groups: list[list[int]]) -> None:
    expected = [((), 2 * group[0] + 1, 2 * group[-1] + 1) for group in groups]
    assert spans(paragraphs_text(lengths)) == expected
    assert all(len(c.text) <= MAX_CHARS or "\n" not in c.text for c in chunk_text(paragraphs_text(lengths)))


def test_a_fence_is_never_split_by_packing() -> None:
    fence = "```\n" + "\n\n".join("y" * 600 for _ in range(4)) + "\n```"
    text = f"# A\n{'z' * 100}\n\n{fence}\n\nafter"
    assert spans(text) == [(("A",), 2, 2), (("A",), 4, 12), (("A",), 14, 14)]


@pytest.mark.parametrize(
    ("path", "trail", "expected"),
    [
        pytest.param("Services/Postgres.md", ("Setup", "Ports"), "Postgres > Setup > Ports\nbody", id="trail"),
        pytest.param("Inbox.md", (), "Inbox\nbody", id="no-trail"),
        pytest.param("a/v1.2 notes.MD", ("H",), "v1.2 notes > H\nbody", id="dots-and-upper-case-suffix"),
    ],
)
def test_index_text(path: str, trail: tuple[str, ...], expected: str) -> None:
    assert index_text(note_title(path), RefChunk(trail, 1, 1, "body")) == expected


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("foo.bar-baz", ["foo.bar-baz", "foo", "bar", "baz"], id="whole-and-parts"),
        pytest.param("10.0.0.5", ["10.0.0.5", "10", "0", "0", "5"], id="address"),
        pytest.param("The cat is on the mat", ["cat", "mat"], id="stop-words"),
        pytest.param("What is IT? THE End", ["end"], id="stop-words-any-case"),
        pytest.param("to-do", ["to-do", "do"], id="stop-word-part"),
        pytest.param("Running runners connected", ["run", "runner", "connect"], id="stems"),
        pytest.param("-flag- x.", ["flag", "x"], id="outer-joiners-dropped"),
        pytest.param("pg_main", ["pg_main"], id="underscore-is-a-word-char"),
        pytest.param("Über Café", ["über", "café"], id="unicode"),
        pytest.param("", [], id="empty"),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_the_stop_list_has_forty_words() -> None:
    assert len(STOP_WORDS) == 40
    assert all(word == word.lower() for word in STOP_WORDS)


@pytest.mark.parametrize(
    ("n", "positive_only", "expected"),
    [
        pytest.param(3, False, [1, 3, 4], id="top-3-ties-in-index-order"),
        pytest.param(10, False, [1, 3, 4, 0, 2], id="all"),
        pytest.param(10, True, [1, 3, 4], id="positive-only"),
        pytest.param(0, False, [], id="none"),
    ],
)
def test_top_indices(n: int, positive_only: bool, expected: list[int]) -> None:
    assert top_indices([0.0, 2.0, -1.0, 2.0, 1.0], n, positive_only=positive_only) == expected


@pytest.mark.parametrize(
    ("dense", "keyword", "order"),
    [
        pytest.param([0, 1, 2], [2, 0], [0, 2, 1], id="both-legs"),
        pytest.param([5, 6], [6, 5], [5, 6], id="exact-tie-lower-index"),
        pytest.param([4], [2], [2, 4], id="single-leg-tie"),
        pytest.param([7, 8, 9], [9], [9, 7, 8], id="agreement-beats-a-first-place"),
        pytest.param([], [3, 1], [3, 1], id="keyword-only"),
        pytest.param([], [], [], id="nothing"),
    ],
)
def test_rrf_order(dense: list[int], keyword: list[int], order: list[int]) -> None:
    fused = rrf(dense, keyword)
    assert [f.index for f in fused] == order
    for f in fused:
        ranks = (f.dense_rank, f.keyword_rank)
        assert f.score == pytest.approx(sum(1 / (60 + r) for r in ranks if r is not None))
        assert f.dense_rank == (dense.index(f.index) + 1 if f.index in dense else None)
        assert f.keyword_rank == (keyword.index(f.index) + 1 if f.index in keyword else None)


PDF_LINES = ["Page 1", "# Not a heading", "", "body one", "Page 3", "---", "page three", "", "```", "", "after"]


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        pytest.param(
            [("Page 1", 1, 4), ("Page 3", 5, 11)],
            [(("Page 1",), 2, 4), (("Page 3",), 6, 11)],
            id="pages-apart-as-plain-text",
        ),
        pytest.param([("Page 3", 5, 7)], [(("Page 3",), 6, 7)], id="one-page"),
        pytest.param([("Page 1", 1, 1)], [], id="heading-only"),
        pytest.param([], [], id="no-pages"),
    ],
)
def test_page_chunks(pages: list[tuple[str, int, int]], expected: list[Span]) -> None:
    """A PDF's pages never share a chunk (the short ones here would be packed into one), and a page's `#`, `---`
    or fence is its text, not Markdown: no heading, frontmatter or code block starts there."""
    chunks = page_chunks(PDF_LINES, pages)
    for chunk in chunks:
        assert chunk.text == "\n".join(PDF_LINES[chunk.start_line - 1 : chunk.end_line])
    assert [(c.heading_path, c.start_line, c.end_line) for c in chunks] == expected


def test_page_chunks_pack_a_long_page_by_paragraphs() -> None:
    paragraph = "x" * (MAX_CHARS // 3)  # two fit in a chunk, three do not
    lines = ["Page 1", paragraph, "", paragraph, "", paragraph, "Page 2", "short"]
    chunks = page_chunks(lines, [("Page 1", 1, 6), ("Page 2", 7, 8)])
    assert [(c.heading_path, c.start_line, c.end_line) for c in chunks] == [
        (("Page 1",), 2, 4),
        (("Page 1",), 6, 6),
        (("Page 2",), 8, 8),
    ]
