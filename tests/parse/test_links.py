"""Links: resolution the way Obsidian resolves them, each link form's readable text and metadata."""

from __future__ import annotations

import pytest

from askvault.model import Link
from askvault.parse.links import LinkResolver, split_wikilink, url_values
from askvault.parse.note import parse_note

VAULT = [
    "Home.md",
    "Homelab/Postgres.md",
    "Homelab/Backups.md",
    "Archive/Backups.md",
    "Archive/Old/Postgres.md",
    "Projects/Alpha/Plan.md",
    "Projects/Beta/Plan.md",
    "Notes/Note Name.md",
    "Notes/Café ☕.md",
    "Notes/v1.2 release.md",
    "Assets/diagram.png",
    "Plan.md",
]
RESOLVER = LinkResolver(VAULT)


@pytest.mark.parametrize(
    ("target", "source", "expected"),
    [
        ("Home", "Homelab/Postgres.md", "Home.md"),
        ("Home.md", "Homelab/Postgres.md", "Home.md"),
        ("home", "x.md", "Home.md"),
        ("HOMELAB/POSTGRES", "x.md", "Homelab/Postgres.md"),
        ("Homelab/Postgres", "x.md", "Homelab/Postgres.md"),
        ("/Homelab/Postgres.md", "x.md", "Homelab/Postgres.md"),
        ("Postgres", "x.md", "Homelab/Postgres.md"),
        ("Postgres", "Archive/Old/Index.md", "Archive/Old/Postgres.md"),
        ("Old/Postgres", "x.md", "Archive/Old/Postgres.md"),
        ("Backups", "Archive/Index.md", "Archive/Backups.md"),
        ("Backups", "Homelab/Index.md", "Homelab/Backups.md"),
        ("Backups", "Other/Index.md", "Archive/Backups.md"),
        ("Plan", "Projects/Beta/Index.md", "Plan.md"),
        ("Plan.md", "Projects/Beta/Index.md", "Plan.md"),
        ("Beta/Plan", "x.md", "Projects/Beta/Plan.md"),
        ("./Postgres.md", "Homelab/Index.md", "Homelab/Postgres.md"),
        ("../Home.md", "Homelab/Index.md", "Home.md"),
        ("../../Home.md", "Homelab/Index.md", None),
        ("Note Name", "x.md", "Notes/Note Name.md"),
        ("Café ☕", "x.md", "Notes/Café ☕.md"),
        ("v1.2 release", "x.md", "Notes/v1.2 release.md"),
        ("diagram.png", "x.md", "Assets/diagram.png"),
        ("Missing", "x.md", None),
        ("lab/Postgres", "x.md", None),
        ("", "Homelab/Postgres.md", "Homelab/Postgres.md"),
    ],
    ids=[
        "by-name",
        "with-md",
        "case-insensitive",
        "path-case-insensitive",
        "exact-path",
        "leading-slash",
        "shortest-path-wins",
        "same-folder-wins",
        "partial-path",
        "same-folder-over-shortest",
        "same-folder-other",
        "shortest-then-alphabetical",
        "exact-vault-path-first",
        "exact-vault-path-with-md",
        "partial-path-disambiguates",
        "dot-relative",
        "dotdot-relative",
        "outside-vault",
        "spaces",
        "unicode",
        "dot-in-name",
        "attachment",
        "missing",
        "partial-segment-does-not-match",
        "empty-is-self",
    ],
)
def test_resolve(target: str, source: str, expected: str | None) -> None:
    assert RESOLVER.resolve(target, source) == expected


@pytest.mark.parametrize(
    ("inner", "parts"),
    [
        ("Note", ("Note", None, None, None)),
        ("Note|Alias", ("Note", None, None, "Alias")),
        ("Note#Heading", ("Note", "Heading", None, None)),
        ("Note#H1#H2", ("Note", "H2", None, None)),
        ("Note#^abc-1", ("Note", None, "abc-1", None)),
        ("#Heading", ("", "Heading", None, None)),
        ("Note#Heading|Alias", ("Note", "Heading", None, "Alias")),
        ("Note\\|Alias", ("Note", None, None, "Alias")),
        ("Note|", ("Note", None, None, None)),
        (" Note | A ", ("Note", None, None, "A")),
    ],
    ids=[
        "plain",
        "alias",
        "heading",
        "nested-heading",
        "block",
        "same-note",
        "heading-alias",
        "table-escaped",
        "empty-alias",
        "spaces",
    ],
)
def test_split_wikilink(inner: str, parts: tuple[str, str | None, str | None, str | None]) -> None:
    got = split_wikilink(inner)
    assert (got.target, got.heading, got.block, got.alias) == parts


SOURCE = "Homelab/Index.md"


@pytest.mark.parametrize(
    ("markdown", "text", "links"),
    [
        ("See [[Postgres]].", "See Postgres.", [Link("Postgres", "Homelab/Postgres.md")]),
        ("See [[Postgres|the db]].", "See the db.", [Link("Postgres", "Homelab/Postgres.md", alias="the db")]),
        ("[[Postgres#Backups]]", "Postgres › Backups", [Link("Postgres", "Homelab/Postgres.md", heading="Backups")]),
        ("[[Postgres#^b1]]", "Postgres", [Link("Postgres", "Homelab/Postgres.md", block="b1")]),
        ("[[#Local part]]", "Local part", [Link("", SOURCE, heading="Local part")]),
        ("[[Homelab/Postgres.md]]", "Postgres", [Link("Homelab/Postgres.md", "Homelab/Postgres.md")]),
        ("![[Postgres]]", "Postgres", [Link("Postgres", "Homelab/Postgres.md", embed=True)]),
        (
            "![[Postgres#Backups]]",
            "Postgres › Backups",
            [Link("Postgres", "Homelab/Postgres.md", heading="Backups", embed=True)],
        ),
        ("a ![[diagram.png|300]] b", "a  b", [Link("diagram.png", "Assets/diagram.png", embed=True)]),
        ("[[Nowhere]]", "Nowhere", [Link("Nowhere", None)]),
        ("[text](Postgres.md)", "text", [Link("Postgres.md", "Homelab/Postgres.md", alias="text")]),
        (
            "[t](../Notes/Note%20Name.md#Part%202)",
            "t",
            [Link("../Notes/Note Name.md", "Notes/Note Name.md", heading="Part 2", alias="t")],
        ),
        ("[t](<Notes/Note Name.md>)", "t", [Link("Notes/Note Name.md", "Notes/Note Name.md", alias="t")]),
        (
            "[](Postgres.md#Backups)",
            "Postgres › Backups",
            [Link("Postgres.md", "Homelab/Postgres.md", heading="Backups")],
        ),
        ("[jump](#Setup)", "jump", [Link("", SOURCE, heading="Setup", alias="jump")]),
        ('[t](Postgres.md "Title")', "t", [Link("Postgres.md", "Homelab/Postgres.md", alias="t")]),
        (
            "![alt](../Assets/diagram.png)",
            "alt",
            [Link("../Assets/diagram.png", "Assets/diagram.png", alias="alt", embed=True)],
        ),
        ("[[ ]] and [[]]", "[[ ]] and [[]]", []),
        (
            "[[Postgres#[V](http://x.org/)|variant]]",
            "variant",
            [Link("Postgres", "Homelab/Postgres.md", heading="[V](http://x.org/)", alias="variant")],
        ),
        ("[[a [b] c]]", "a [b] c", [Link("a [b] c", None)]),
        ("`[[Postgres]]` stays", "`[[Postgres]]` stays", []),
        (
            "[a `code` label](Postgres.md)",
            "a `code` label",
            [Link("Postgres.md", "Homelab/Postgres.md", alias="a `code` label")],
        ),
    ],
    ids=[
        "wikilink",
        "alias",
        "heading",
        "block-ref",
        "same-note-heading",
        "full-path",
        "embed-note",
        "embed-section",
        "embed-image-dropped",
        "unresolved",
        "md-link",
        "md-link-relative-encoded-heading",
        "md-link-angle-brackets",
        "md-link-no-text",
        "md-link-same-note",
        "md-link-title",
        "md-image",
        "empty-wikilinks-literal",
        "markdown-link-inside-wikilink",
        "single-brackets-inside",
        "in-code-span",
        "code-in-label",
    ],
)
def test_link_forms(markdown: str, text: str, links: list[Link]) -> None:
    note = parse_note(SOURCE, markdown, RESOLVER)
    assert note.sections[0].text == text
    assert list(note.links) == links


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        (
            "[Grafana](http://192.168.1.10:3000/d/nANsCsF9gf975ojT?orgId=1#panel)",
            "Grafana (192.168.1.10:3000/d/nANsCsF9gf975ojT)",
        ),
        ("[NAS](https://admin:hunter2@nas.local:5001/)", "NAS (nas.local:5001)"),
        ("[https://example.com](https://example.com)", "https://example.com"),
        ("[example.com docs](https://example.com/)", "example.com docs"),
        ("[](https://example.com/a%20b)", "example.com/a b"),
        ("[mail me](mailto:me@example.com)", "mail me (me@example.com)"),
        ("[Style](obsidian://show-plugin?id=x)", "Style"),
        ("![logo](https://example.com/logo.png)", "logo"),
        ("Plain https://example.com/#anchor stays", "Plain https://example.com/#anchor stays"),
        ("<https://example.com/x>", "https://example.com/x"),
        ("[v6](http://[::1]:8080/)", "v6 ([::1]:8080)"),
    ],
    ids=[
        "host-port-path",
        "credentials-dropped",
        "text-is-url",
        "host-in-text",
        "no-text",
        "mailto",
        "other-scheme",
        "image",
        "bare-url",
        "autolink",
        "ipv6",
    ],
)
def test_external_links(markdown: str, text: str) -> None:
    note = parse_note("a.md", markdown, RESOLVER)
    assert note.sections[0].text == text
    assert note.links == ()


def test_long_url_is_cut_at_a_path_boundary() -> None:
    values = url_values("https://github.com/" + "segment/" * 30 + "end")
    assert len(values) <= 100
    assert values.endswith("segment")
