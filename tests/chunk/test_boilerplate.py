"""Template, link and query lines: their signatures, the vault's threshold, each line's kind and each chunk's shares."""

from __future__ import annotations

import pytest

from askvault.chunk import chunk_note
from askvault.chunk.boilerplate import (
    annotate,
    body_lines,
    line_kinds,
    min_notes,
    note_signatures,
    template_signatures,
)
from askvault.chunk.line_rules import is_link_line, normalise, signature
from askvault.config import ChunkParams
from askvault.model import Chunk, Note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

FOOTER = (
    "## This note in GitHub\n\n"
    '<span class="git-footer">[Edit In GitHub](https://github.dev/org/wiki/blob/main/{slug}.md "edit") | '
    "[Copy this note](https://raw.githubusercontent.com/org/wiki/main/{slug}.md)</span>\n\n"
    "Was this page helpful?\n"
)


def parsed(path: str, text: str, paths: tuple[str, ...] = ()) -> tuple[Note, list[str]]:
    return parse_note(path, text, LinkResolver({path, *paths})), text.split("\n")


def annotated(path: str, text: str, templates: frozenset[int] = frozenset()) -> list[Chunk]:
    note, source = parsed(path, text)
    return annotate(chunk_note(note, ChunkParams()), note, source, templates)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Edit In GitHub (github.dev/org/wiki/blob/main/Kappa.md)",
            "Edit in GitHub (github.dev/org/wiki/blob/main/Lambda.md)",
        ),
        ("<< 2024-03-01 | 2024-03-03 >>", "<< 2024-03-14 | 2024-03-16 >>"),
        ("Mood:: 3", "mood::   7"),
        ("- [x] Check backup status", "- [ ] check backup status"),
        ("See https://example.com/a?b=1 for more", "See http://example.org/x for more"),
    ],
)
def test_lines_that_differ_only_in_urls_digits_case_or_ticks_match(a: str, b: str) -> None:
    assert signature(a) == signature(b) is not None


@pytest.mark.parametrize(
    "line", ["", "   ", "| --- | --- |", "```", "---", "· · ·", "https://example.com/a", "- <https://example.org/b>"]
)
def test_a_line_without_words_has_no_signature(line: str) -> None:
    assert normalise(line) == ""
    assert signature(line) is None


def test_signatures_fit_sqlite_integers() -> None:
    assert all(0 <= (signature(f"line {word}") or 0) < 2**63 for word in ("a", "b", "kappa", "lambda", "ü"))


@pytest.mark.parametrize(
    ("notes", "floor"),
    [(0, 3), (1, 3), (9, 3), (10, 4), (20, 5), (185, 14), (20_000, 142)],
)
def test_the_threshold_grows_with_the_square_root_of_the_vault(notes: int, floor: int) -> None:
    assert min_notes(notes) == floor


def test_template_signatures_take_the_lines_held_by_enough_notes() -> None:
    counts = {1: 20, 2: 5, 3: 4, 4: 1}
    assert template_signatures(counts, 20) == frozenset({1, 2})
    assert template_signatures({}, 0) == frozenset()


@pytest.mark.parametrize(
    ("line", "links"),
    [
        ("- [[Data Lake]]", True),
        ("* [[Data Mesh|the mesh]]", True),
        ("[[Home]] · [[Index]] · [[Inbox]]", True),
        ("<< [[2024-03-01]] | [[2024-03-03]] >>", True),
        ("Related: [[Kodi]], [[Jellyfin]]", True),
        ("- [AWS Reference Architecture Examples](https://aws.amazon.com/architecture/)", True),
        ("| [[Alpha]] | [[Beta]] |", True),
        ("https://example.com/only-a-url", True),
        ("Kodi scans the library every night, see [[Jellyfin]] for the other one.", False),
        ("- Only need to maintain a much smaller codebase.", False),
        ("A plain sentence.", False),
        ("", False),
    ],
)
def test_link_lines_are_links_and_next_to_no_prose(line: str, links: bool) -> None:
    assert is_link_line(line) is links


def test_query_blocks_and_templater_lines_are_query_lines_other_code_is_not() -> None:
    text = (
        "# Day\n\nToday I fixed the fence.\n\n"
        "```dataview\nTABLE file.mtime FROM #daily\nSORT file.name DESC\n```\n\n"
        "```tasks\nnot done\ndue before tomorrow\n```\n\n"
        "```python\nprint('kept')\n```\n\n"
        "Created <% tp.date.now() %>\n"
    )
    note, source = parsed("Daily/d.md", text)
    kinds = line_kinds(note, source, frozenset())
    assert [kinds[n] for n in range(5, 9)] == ["query"] * 4
    assert [kinds[n] for n in range(10, 14)] == ["query"] * 4
    assert [kinds[n] for n in range(15, 18)] == ["prose"] * 3
    assert kinds[3] == "prose"
    assert kinds[19] == "query"


def test_a_query_fence_inside_a_longer_fence_does_not_close_it() -> None:
    text = "# Doc\n\n````markdown\n```tasks\nnot done\n```\n````\n\nAfter.\n"
    note, source = parsed("d.md", text)
    kinds = line_kinds(note, source, frozenset())
    assert {kinds[n] for n in range(3, 8)} == {"prose"}  # an example of a query, shown as code, is the note's text
    assert kinds[9] == "prose"


def test_headings_are_not_counted_as_template_lines() -> None:
    note, _ = parsed("n.md", "# Title\n\n## Tasks\n\n- [ ] water the plants\n")
    assert signature("Tasks") not in note_signatures(note)
    assert signature("- [ ] water the plants") in note_signatures(note)
    assert 3 not in body_lines(note)
    assert 5 in body_lines(note)


KAPPA = (
    "# Kappa\n\nKappa architecture treats all arriving data as a stream, with no batch layer by design. It relies on "
    "a stream processing engine alone, replays the log when the logic changes, and keeps one codebase to maintain, "
    "develop and debug instead of two. Its risks: stream processing at scale is hard, and data loss needs a storage "
    "and recovery strategy of its own.\n\n"
)


def test_a_footer_chunk_is_all_template_and_leaves_the_index_text_the_prose_stays() -> None:
    text = KAPPA + FOOTER.format(slug="Kappa")
    templates = note_signatures(parsed("Kappa.md", text)[0]) - note_signatures(parsed("K.md", KAPPA)[0])
    chunks = annotated("Kappa.md", text, templates)
    prose, footer = chunks
    assert prose.noise.informative == 100
    assert (footer.noise.template, footer.noise.informative) == (100, 0)
    assert "Was this page helpful" in footer.text  # shown and cited as written
    assert "helpful" not in footer.index_text
    assert "Edit In GitHub" not in footer.index_text
    assert footer.index_text == ""  # in neither leg: reduced to the title it would outrank the note's own passages


def test_a_link_list_is_links_and_stays_in_the_index_text() -> None:
    text = "# Data Architecture\n\n## Patterns\n\n- [[Data Lake]]\n- [[Data Mesh]]\n- [[Kappa Architecture]]\n"
    (chunk,) = annotated("Data Architecture.md", text)
    assert (chunk.noise.links, chunk.noise.informative) == (100, 0)
    assert "Data Mesh" in chunk.index_text


def test_mixed_shares_are_by_characters_and_never_add_up_past_100() -> None:
    text = "# N\n\nA long line of the note's own prose that says something.\n- [[Other note]]\nMood:: 3\n"
    templates = frozenset({s for s in (signature("Mood:: 3"),) if s is not None})
    (chunk,) = annotated("N.md", text, templates)
    noise = chunk.noise
    assert noise.template > 0
    assert noise.links > 0
    assert noise.query == 0
    assert 0 < noise.informative < 100
    assert noise.template + noise.links + noise.informative <= 100
    assert "Mood" in chunk.index_text  # a template line inside a passage of its own stays (measured)
    assert "Other note" in chunk.index_text


@pytest.mark.parametrize(
    "text",
    [
        "# Stub\n\n" + FOOTER.format(slug="Stub"),  # a note that is only a footer
        "# Q\n\n```dataview\nLIST FROM #daily\n```\n",  # a note that is only a query
        "",  # an empty note
    ],
)
def test_a_note_with_nothing_else_keeps_all_of_its_text(text: str) -> None:
    note, source = parsed("Stub.md", text)
    templates = note_signatures(note)  # every line of it is a template line
    plain = chunk_note(note, ChunkParams())
    kept = annotate(plain, note, source, templates)
    assert [c.index_text for c in kept] == [c.index_text for c in plain]
    assert all(c.noise.informative in (0, 100) for c in kept)  # reported as it is, never a division by zero


def test_without_templates_nothing_changes_but_the_noise() -> None:
    text = "# Plain\n\nJust prose, twice over.\n\nAnd a second paragraph of prose.\n"
    note, source = parsed("Plain.md", text)
    plain = chunk_note(note, ChunkParams())
    assert annotate(plain, note, source, frozenset()) == plain


def test_a_code_block_is_template_only_when_all_of_it_repeats() -> None:
    daily = "# Day\n\nFixed the fence.\n\n```dataview\nLIST FROM #daily\n```\n"
    docs = "# Filters\n\nShow what is left:\n\n```tasks\nnot done\ndue before tomorrow\n```\n"
    day, day_source = parsed("Daily/d.md", daily)
    doc, doc_source = parsed("Docs/f.md", docs)
    # The vault repeats the daily block whole, and the docs' `not done` line in many examples (never whole blocks).
    templates = frozenset(s for s in (signature("LIST FROM #daily"), signature("not done")) if s is not None)
    day_kinds = line_kinds(day, day_source, templates)
    assert [day_kinds[n] for n in (5, 6, 7)] == ["template"] * 3  # fences go with their block
    doc_kinds = line_kinds(doc, doc_source, templates)
    assert [doc_kinds[n] for n in (5, 6, 7, 8)] == ["query"] * 4  # an example of its own, kept in the index
    (chunk,) = annotate(chunk_note(doc, ChunkParams()), doc, doc_source, templates)
    assert "not done" in chunk.index_text


def test_fences_and_table_headers_are_never_counted_as_template_lines() -> None:
    note, _ = parsed("n.md", "# N\n\n```text\ncode\n```\n\n| Status | Next |\n| --- | --- |\n| x | y |\n")
    counted = note_signatures(note)
    assert signature("```text") not in counted
    assert signature("| Status | Next |") not in counted
    assert signature("code") in counted
    assert signature("| x | y |") in counted


def test_lines_past_the_cap_are_neither_template_nor_link_lines() -> None:
    long_line = "[[a]] " * 400  # 2,400 characters of links
    assert signature(long_line) is None
    assert is_link_line(long_line) is False
    assert is_link_line("[" * 100_000) is False  # and it returns at once: no regular expression sees it
