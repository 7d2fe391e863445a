"""chunk_note: heading-aware chunks, merging, splitting, overlap, caps, accurate lines and stable ids."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askvault.chunk import CHUNKER_VERSION, chunk_note
from askvault.config import ChunkParams
from askvault.model import Chunk, Note, Section
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Homelab/Server.md"])
SMALL = ChunkParams(max_chars=300, min_chars=60, hard_cap_chars=800)


def chunks_of(source: str, params: ChunkParams = SMALL, path: str = "Homelab/Server.md") -> list[Chunk]:
    return chunk_note(parse_note(path, source, RESOLVER), params)


def para(word: str, count: int) -> str:
    return " ".join(f"{word}{i}" for i in range(count))


def line_of(source: str, needle: str) -> int:
    return source[: source.index(needle)].count("\n") + 1


def test_version_is_a_string() -> None:
    assert isinstance(CHUNKER_VERSION, str)
    assert CHUNKER_VERSION


@pytest.mark.parametrize(
    ("source", "index_text"),
    [
        ("# Storage\n## Backups\n" + para("restic", 20), "Server\nStorage › Backups\n" + para("restic", 20)),
        (para("intro", 20) + "\n# Later\n" + para("x", 20), "Server\n" + para("intro", 20)),
        ("---\ntitle: Home Server\n---\n" + para("word", 20), "Home Server\n" + para("word", 20)),
    ],
    ids=["trail", "before-first-heading", "frontmatter-title"],
)
def test_index_text_format(source: str, index_text: str) -> None:
    assert chunks_of(source)[0].index_text == index_text


def test_chunk_carries_note_metadata() -> None:
    note = parse_note("Homelab/Server.md", "---\ntags: [homelab]\n---\n# A\n" + para("w", 20) + " #media", RESOLVER)
    (chunk,) = chunk_note(note, SMALL, mtime=1_700_000_000.5)
    assert (chunk.path, chunk.title, chunk.heading_path) == ("Homelab/Server.md", "Server", ("A",))
    assert chunk.tags == ("homelab", "media")
    assert chunk.mtime == 1_700_000_000.5
    assert re.fullmatch(r"[0-9a-f]{32}", chunk.id)


def test_heading_only_parent_is_named_by_the_child_trail() -> None:
    (chunk,) = chunks_of("# Storage\n\n## Backups\n" + para("restic", 20))
    assert chunk.heading_path == ("Storage", "Backups")
    assert (chunk.start_line, chunk.end_line) == (3, 4)
    assert chunk.text == para("restic", 20)


def test_tiny_sections_merge_forward_keeping_their_heading() -> None:
    source = "# Top\nabout\n## Ports\nssh 22\n## Disks\n" + para("disk", 30)
    (chunk,) = chunks_of(source)
    assert chunk.heading_path == ("Top",)
    assert chunk.text == "about\n\nPorts\n\nssh 22\n\nDisks\n\n" + para("disk", 30)
    assert (chunk.start_line, chunk.end_line) == (1, 6)


def test_tiny_last_section_merges_back() -> None:
    source = "# Big\n" + para("big", 30) + "\n# Tail\nend"
    (chunk,) = chunks_of(source)
    assert chunk.heading_path == ("Big",)
    assert chunk.text.endswith("Tail\n\nend")
    assert (chunk.start_line, chunk.end_line) == (1, 4)


def test_sections_big_enough_stay_apart() -> None:
    source = "# A\n" + para("a", 20) + "\n# B\n" + para("b", 20)
    chunks = chunks_of(source)
    assert [(c.heading_path, c.start_line, c.end_line) for c in chunks] == [(("A",), 1, 2), (("B",), 3, 4)]
    assert chunks[0].text == para("a", 20)  # the section's own heading is in the trail, not repeated


def test_heading_only_note_keeps_the_heading_as_text() -> None:
    (chunk,) = chunks_of("# Lonely heading")
    assert chunk.text == "Lonely heading"
    assert chunk.heading_path == ("Lonely heading",)


def test_big_section_splits_at_paragraphs_with_overlap() -> None:
    paragraphs = [para(f"p{n}x", 12) for n in range(8)]  # ~100 chars each
    source = "# Long\n\n" + "\n\n".join(paragraphs)
    chunks = chunks_of(source)
    assert len(chunks) > 2
    assert all(len(c.text) <= SMALL.max_chars for c in chunks)
    assert all(c.heading_path == ("Long",) for c in chunks)
    for before, after in itertools.pairwise(chunks):
        last_paragraph = before.text.split("\n\n")[-1]
        assert after.text.startswith(last_paragraph)  # one paragraph of overlap
        assert after.start_line == line_of(source, last_paragraph)
    for chunk in chunks:
        first, last = chunk.text.split("\n\n")[0], chunk.text.split("\n\n")[-1]
        assert chunk.end_line == line_of(source, last)
        assert chunk.start_line in (line_of(source, first), 1)
    every = "\n\n".join(c.text for c in chunks)
    assert all(p in every for p in paragraphs)


def test_code_block_is_not_cut_when_it_fits() -> None:
    code = "```sh\n" + "\n".join(f"docker run --name svc{i} -p 80{i}:80 image" for i in range(5)) + "\n```"
    source = "# Deploy\n" + para("intro", 25) + "\n\n" + code + "\n\nafter"
    chunks = chunks_of(source)
    holding = [c for c in chunks if "```sh" in c.text]
    assert len(holding) == 1
    assert code in holding[0].text
    assert holding[0].start_line <= line_of(source, "```sh")
    assert holding[0].end_line >= line_of(source, "after") - 2


def test_huge_code_block_splits_between_lines_repeating_the_fence() -> None:
    body = [f"echo line-{i:03d} with some padding text" for i in range(40)]
    source = "# Script\n```bash\n" + "\n".join(body) + "\n```\n"
    chunks = chunks_of(source)
    assert len(chunks) > 2
    seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[0] == "```bash"
        assert lines[-1] == "```"
        assert len(chunk.text) <= SMALL.max_chars
        seen.extend(lines[1:-1])
        assert chunk.start_line == (1 if lines[1] == body[0] else line_of(source, lines[1]))
        assert chunk.end_line == (line_of(source, lines[-2]) + (1 if lines[-2] == body[-1] else 0))
    assert seen == body


def test_huge_table_repeats_header_and_separator() -> None:
    rows = [f"| host{i:02d} | 10.0.0.{i} | {5000 + i} |" for i in range(40)]
    source = "# Hosts\n| name | ip | port |\n|---|---|---|\n" + "\n".join(rows)
    chunks = chunks_of(source)
    assert len(chunks) > 2
    seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[:2] == ["| name | ip | port |", "|---|---|---|"]
        seen.extend(lines[2:])
        assert chunk.end_line == line_of(source, lines[-1])
    assert seen == rows
    assert chunks[0].start_line == 1
    assert chunks[1].start_line == line_of(source, chunks[1].text.split("\n")[2])


def test_table_right_after_a_paragraph_line_is_its_own_block() -> None:
    rows = [f"| vm{i} | {8000 + i} |" for i in range(30)]
    source = "# Ports\nThe services and their ports:\n| vm | port |\n| :-- | --: |\n" + "\n".join(rows)
    chunks = chunks_of(source)
    assert chunks[0].text.startswith("The services and their ports:\n\n| vm | port |\n| :-- | --: |")
    assert all(c.text.split("\n")[:2] == ["| vm | port |", "| :-- | --: |"] for c in chunks[1:])


@pytest.mark.parametrize(
    "line",
    ["word " * 2_000_000, "x" * 100_000, "https://example.com/" + "a" * 50_000, "Sentence one. " * 5_000],
    ids=["10mb-words", "no-whitespace", "long-url", "sentences"],
)
def test_hard_cap_holds_for_any_line(line: str) -> None:
    params = ChunkParams()
    chunks = chunks_of("# H\n" + line, params)
    assert all(len(c.index_text) <= params.hard_cap_chars for c in chunks)
    assert chunks[0].start_line == 1  # the first chunk opens at the heading
    assert all(c.end_line == 2 for c in chunks)
    assert all(c.start_line == 2 for c in chunks[1:])
    assert sum(len(c.text.replace(" ", "")) for c in chunks) >= len(line.replace(" ", "")) - 100


def test_cuts_prefer_sentence_ends_then_whitespace() -> None:
    text = "Alpha beta gamma. " * 100
    chunks = chunks_of("# H\n" + text.strip())
    assert all(c.text.endswith(".") for c in chunks[:-1])


def test_title_and_trail_are_capped() -> None:
    params = ChunkParams(max_chars=1500, min_chars=0, hard_cap_chars=1000)
    source = (
        "---\ntitle: "
        + "T" * 250
        + "\n---\n"
        + "".join(f"{'#' * i} {'h' * 190}\n" for i in range(1, 7))
        + para("w", 300)
    )
    chunks = chunks_of(source, params)
    assert all(len(c.index_text) <= 1000 for c in chunks)
    assert len(chunks[-1].index_text.split("\n")[0]) == 200
    assert len(chunks[-1].index_text.split("\n")[1]) == 400


@pytest.mark.parametrize(
    ("note", "text"),
    [
        (Note("Inbox/Empty.md", "Empty"), "Empty"),
        (
            Note("a.md", "Kodi", aliases=("HTPC", "Media box"), tags=("media",)),
            "Kodi\nAliases: HTPC, Media box\nTags: #media",
        ),
        (Note("a.md", "Blank", sections=(Section((), 0, "  \n", 1, 2),)), "Blank"),
    ],
    ids=["empty", "aliases-and-tags", "only-whitespace"],
)
def test_note_without_text_is_findable_by_name(note: Note, text: str) -> None:
    (chunk,) = chunk_note(note, SMALL)
    assert chunk.text == text
    assert chunk.index_text == text
    assert (chunk.start_line, chunk.end_line) == (1, 1)


def test_malformed_section_lines_are_clamped() -> None:
    note = Note("a.md", "A", sections=(Section(("H",), 1, "H\n" + "\n".join(para("x", 9) for _ in range(20)), 5, 6),))
    chunks = chunk_note(note, SMALL)
    assert all(5 <= c.start_line <= c.end_line <= 6 for c in chunks)


BASE = "# Intro\n" + para("intro", 20) + "\n# Setup\n" + para("setup", 60) + "\n# Usage\n" + para("usage", 20) + "\n"


@pytest.mark.parametrize(
    ("edited", "section"),
    [
        (BASE.replace("setup3 ", "setup3 changed words here "), "Setup"),
        (BASE.replace("# Setup\n", "# Setup\n" + para("extra", 80) + "\n\n"), "Setup"),
        (BASE.replace("# Usage\n", "# Usage\nnew line\n"), "Usage"),
        (BASE.replace("intro1 ", ""), "Intro"),
        ("---\ntags: [x]\n---\n" + BASE, None),
    ],
    ids=["edit-text", "grow-section", "edit-last-section", "edit-first-section", "add-frontmatter"],
)
def test_ids_stable_when_other_sections_change(edited: str, section: str | None) -> None:
    def ids(source: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for chunk in chunks_of(source):
            found.setdefault(chunk.heading_path[0], []).append(chunk.id)
        return found

    before, after = ids(BASE), ids(edited)
    assert len(before["Setup"]) > 1  # the edited section itself is split
    for heading in ("Intro", "Setup", "Usage"):
        if heading != section:
            assert after[heading] == before[heading], heading
    assert after[section or "Setup"][0] == before[section or "Setup"][0]


def test_ids_differ_per_path_and_ordinal() -> None:
    source = "# Same\n" + para("a", 30) + "\n# Same\n" + para("b", 30)
    first, second = chunks_of(source)
    assert first.heading_path == second.heading_path
    assert first.id != second.id
    assert chunks_of(source, path="Other.md")[0].id != first.id


WORDS = st.text(alphabet="abcdefghij", min_size=1, max_size=8)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[tuple[int, str]], list[str]]:
    """A note built from blocks; returns the source, its (line, text) prose lines, and comment words."""
    lines: list[str] = []
    prose: list[tuple[int, str]] = []
    comments: list[str] = []
    for index in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["heading", "para", "para", "code", "table", "long", "comment", "blank"]))
        if kind == "heading":
            lines.append("#" * draw(st.integers(1, 6)) + " " + draw(WORDS))
        elif kind == "para":
            for row in range(draw(st.integers(1, 4))):
                text = f"p{index}r{row} " + " ".join(draw(st.lists(WORDS, min_size=1, max_size=10)))
                lines.append(text)
                prose.append((len(lines), text))
            lines.append("")
        elif kind == "code":
            lines.extend(["```", *draw(st.lists(WORDS, min_size=0, max_size=5)), "```", ""])
        elif kind == "table":
            lines.extend(["| key | value |", "|---|---|"])
            for row in range(draw(st.integers(0, 30))):
                text = f"| t{index}r{row} | {draw(WORDS)} |"
                lines.append(text)
                prose.append((len(lines), text))
            lines.append("")
        elif kind == "long":
            lines.extend([" ".join(draw(st.lists(WORDS, min_size=50, max_size=600))), ""])
        elif kind == "comment":
            secret = f"zzsecret{index}"
            comments.append(secret)
            lines.extend(["%%", secret, "%%", ""])
        else:
            lines.append("")
    return "\n".join(lines), prose, comments


PARAMS = st.builds(
    ChunkParams,
    max_chars=st.integers(100, 2000),
    min_chars=st.integers(0, 300),
    hard_cap_chars=st.integers(400, 4000),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents(), params=PARAMS)
@pytest.mark.slow
def test_properties(document: tuple[str, list[tuple[int, str]], list[str]], params: ChunkParams) -> None:
    source, prose, comments = document
    chunks = chunks_of(source, params)
    line_count = source.count("\n") + 1
    assert chunks
    assert len({c.id for c in chunks}) == len(chunks)
    for chunk in chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= line_count
        assert len(chunk.index_text) <= params.hard_cap_chars
        assert not any(secret in chunk.index_text for secret in comments)
    for line, text in prose:
        assert any(text in c.text and c.start_line <= line <= c.end_line for c in chunks), (line, text)


NOISE = st.lists(
    st.sampled_from([*"ab #>-|`:\n\t", "[[x]]", "%%", "```", "| a | b |\n|---|---|\n", "# h\n", "word " * 40]),
    max_size=200,
).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.one_of(NOISE, st.text(max_size=500)), params=PARAMS)
def test_any_text_chunks_within_the_file_and_the_cap(source: str, params: ChunkParams) -> None:
    chunks = chunks_of(source, params)
    line_count = source.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert chunks
    for chunk in chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= line_count
        assert len(chunk.index_text) <= params.hard_cap_chars


@pytest.mark.timeout(5)
def test_table_delimiter_check_is_linear_on_trailing_spaces() -> None:
    # Once quadratic: a `|---` row followed by 40,000 spaces and a letter took seconds to chunk.
    text = "a | b\n|---" + " " * 40_000 + "x\n"
    note = parse_note("a.md", text, LinkResolver(["a.md"]))
    chunks = chunk_note(note, ChunkParams())
    assert "".join(c.text for c in chunks).strip().startswith("a | b")
