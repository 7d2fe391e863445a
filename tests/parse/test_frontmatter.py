"""Frontmatter through parse_note: title, aliases, tags, properties, opt-out, and every malformed variant."""

from __future__ import annotations

import pytest

from askvault.model import Note, Scalar
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

RESOLVER = LinkResolver(["Notes/Home.md", "Notes/Kodi.md"])


def parse(text: str, path: str = "Notes/Kodi.md") -> Note:
    return parse_note(path, text, RESOLVER)


@pytest.mark.parametrize(
    ("source", "title", "aliases", "tags"),
    [
        ("---\ntitle: Media Box\n---\nbody", "Media Box", (), ()),
        ("---\ntitle: '  '\n---\nbody", "Kodi", (), ()),
        ("# First H1\nbody", "Kodi", (), ()),
        ("---\naliases: [Kodi box, HTPC]\n---\nx", "Kodi", ("Kodi box", "HTPC"), ()),
        ("---\naliases:\n  - Kodi box\n  - HTPC\n---\nx", "Kodi", ("Kodi box", "HTPC"), ()),
        ("---\naliases: Kodi box, HTPC\n---\nx", "Kodi", ("Kodi box", "HTPC"), ()),
        ("---\nalias: Kodi box\n---\nx", "Kodi", ("Kodi box",), ()),
        ("---\ntags: [homelab, media]\n---\nx", "Kodi", (), ("homelab", "media")),
        ("---\ntags:\n  - '#Homelab'\n  - media/tv\n---\nx", "Kodi", (), ("homelab", "media/tv")),
        ("---\ntags: homelab, media\n---\nx", "Kodi", (), ("homelab", "media")),
        ("---\ntags: '#homelab #media'\n---\nx", "Kodi", (), ("homelab", "media")),
        ("---\ntag: homelab\n---\nx", "Kodi", (), ("homelab",)),
        ("---\nTags: [Seedling]\nAliases: [Box]\n---\nx", "Kodi", ("Box",), ("seedling",)),
        ("---\ntags: [2024, y2024]\n---\nx", "Kodi", (), ("y2024",)),
        ("---\ntags: [a, A, '#a']\n---\nx", "Kodi", (), ("a",)),
        ("---\ntags: [homelab]\n---\nText #media and #homelab", "Kodi", (), ("homelab", "media")),
        ("---\ntags:\n---\nx", "Kodi", (), ()),
    ],
    ids=[
        "title",
        "blank-title-falls-back",
        "h1-is-not-the-title",
        "aliases-flow-list",
        "aliases-block-list",
        "aliases-string-split-on-commas",
        "legacy-alias-key",
        "tags-list",
        "tags-with-hash",
        "tags-string-commas",
        "tags-string-spaces",
        "legacy-tag-key",
        "capitalised-keys",
        "numeric-tag-dropped",
        "tags-deduplicated",
        "frontmatter-then-inline-tags",
        "empty-tags",
    ],
)
def test_metadata(source: str, title: str, aliases: tuple[str, ...], tags: tuple[str, ...]) -> None:
    note = parse(source)
    assert (note.title, note.aliases, note.tags) == (title, aliases, tags)
    assert note.warnings == ()


@pytest.mark.parametrize(
    ("source", "properties"),
    [
        (
            "---\nport: 5433\nhost: db.lan\nok: true\nratio: 0.5\nnothing:\n---\nx",
            {"port": 5433, "host": "db.lan", "ok": True, "ratio": 0.5, "nothing": None},
        ),
        (
            "---\ncreated: 2024-01-02\nseen: 2024-01-02 10:30:00\n---\nx",
            {"created": "2024-01-02", "seen": "2024-01-02T10:30:00"},
        ),
        ("---\ncssclasses: [wide, dark]\n---\nx", {"cssclasses": "wide, dark"}),
        ("---\nnested: {a: 1}\ndeep: [[1, 2]]\n---\nx", {}),
        ("---\n1: one\n---\nx", {"1": "one"}),
        ("---\ntitle: T\naliases: [a]\ntags: [t]\naskvault: true\n---\nx", {}),
    ],
    ids=["scalars", "dates-as-iso", "list-joined", "mappings-dropped", "non-string-key", "known-keys-not-repeated"],
)
def test_properties(source: str, properties: dict[str, Scalar]) -> None:
    assert dict(parse(source).properties) == properties


def test_property_links_are_links_but_property_hashes_are_not_tags() -> None:
    note = parse('---\nup: "[[Home]]"\nrelated: ["[[Kodi#Setup]]", "see #later"]\n---\nbody')
    assert [(link.target, link.resolved, link.heading) for link in note.links] == [
        ("Home", "Notes/Home.md", None),
        ("Kodi", "Notes/Kodi.md", "Setup"),
    ]
    assert note.tags == ()


@pytest.mark.parametrize(
    ("source", "opted_out"),
    [
        ("---\naskvault: false\n---\nsecret", True),
        ("---\naskvault: no\n---\nsecret", True),
        ("---\naskvault: 'off'\n---\nsecret", True),
        ("---\nAskVault: False\n---\nsecret", True),
        ("---\naskvault: 0\n---\nsecret", True),
        ("---\naskvault: true\n---\nfine", False),
        ("---\naskvault: maybe\n---\nfine", False),
        ("---\nother: false\n---\nfine", False),
        ("askvault: false\n\nfine", False),
    ],
    ids=["false", "yaml-no", "string-off", "key-case", "zero", "true", "other-value", "other-key", "not-frontmatter"],
)
def test_opt_out(source: str, opted_out: bool) -> None:
    note = parse(source)
    assert note.opted_out is opted_out
    if opted_out:
        # Nothing of an opted-out note is rendered, so nothing can leak into the index.
        assert note.sections == ()
        assert note.links == ()


def test_custom_opt_out_key() -> None:
    assert parse_note("a.md", "---\nprivate: false\n---\nx", RESOLVER, opt_out_key="private").opted_out
    assert not parse_note("a.md", "---\naskvault: false\n---\nx", RESOLVER, opt_out_key="private").opted_out


BOMB = "---\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


# Blocks that cannot be read (and their notices) are in test_frontmatter_problems.py.


@pytest.mark.parametrize(
    ("source", "properties"),
    [
        ("---\nwhen: 2023-02-30\nok: yes\n---\nbody", {"when": "2023-02-30", "ok": "yes"}),
        ("---\nq: [what?, why?]\nflag: false\n---\nbody", {"q": "what?, why?", "flag": False}),
        ("---\nq: [a?, b]\nlist:\n  - one\n  - 'two'\n---\nbody", {"q": "a?, b", "list": "one, two"}),
    ],
    ids=["impossible-date", "question-marks", "block-list"],
)
def test_lenient_fallback_keeps_simple_properties(source: str, properties: dict[str, Scalar]) -> None:
    note = parse(source)
    assert dict(note.properties) == properties
    assert "simple key: value" in note.warnings[0]


def test_alias_bomb_is_never_expanded() -> None:
    # 9 levels of 9 aliases would be 9**9 strings if walked; only flat lists of scalars are read.
    note = parse(BOMB + "tags: *i\naliases: *i\nother: *i\n---\nbody")
    assert note.tags == ()
    assert note.aliases == ()
    assert "other" not in note.properties
    assert note.sections[0].text == "body"


def test_yaml_pyyaml_rejects_but_obsidian_reads_is_read_leniently() -> None:
    note = parse("---\nAliases: [Am I a Data Engineer?, Am I doing it?]\nTags: [incubating]\npublish: true\n---\nbody")
    assert note.aliases == ("Am I a Data Engineer?", "Am I doing it?")
    assert note.tags == ("incubating",)
    assert note.properties == {"publish": True}
    assert note.warnings
    assert "simple key: value" in note.warnings[0]
    assert note.sections[0].text == "body"
    assert note.sections[0].start_line == 6


@pytest.mark.parametrize(
    ("source", "start_line"),
    [
        ("---\ntitle: T\n---\nbody", 4),
        ("---\r\ntitle: T\r\n---\r\nbody", 4),
        ("\ufeff---\ntitle: T\n---\nbody", 4),
        ("---  \ntitle: T\n---\t\n\n\nbody", 6),
        ("---\n---\nbody", 3),
    ],
    ids=["lf", "crlf", "bom", "trailing-space-delimiters", "empty-frontmatter"],
)
def test_body_line_numbers_count_frontmatter(source: str, start_line: int) -> None:
    note = parse(source)
    assert note.sections[-1].end_line == source.count("\n") + 1
    assert note.sections[0].start_line == start_line


def test_frontmatter_only_on_the_first_line() -> None:
    # Like Obsidian: not frontmatter, but a rule and a setext heading.
    note = parse("\n---\ntitle: T\n---\nbody")
    assert note.title == "Kodi"
    assert note.properties == {}
    assert [(s.heading_path, s.start_line, s.end_line) for s in note.sections] == [(("title: T",), 3, 5)]
