"""Explicit mentions in a question: `[[links]]` (with heading, alias, embed) and `#tags`, as written."""

from __future__ import annotations

import pytest

from askvault.query.mentions import Mention, parse_mentions

PARSE: list[tuple[str, str, list[Mention]]] = [
    ("none", "What does the Kodi maintenance workflow do?", []),
    ("plain-link", "What port does [[Postgres]] use?", [Mention("note", "Postgres")]),
    (
        "link-with-alias",
        "Compare [[Home Assistant|HA]] and [[Zigbee]]",
        [Mention("note", "Home Assistant"), Mention("note", "Zigbee")],
    ),
    ("link-with-path", "See [[Homelab/Services/Postgres]]", [Mention("note", "Homelab/Services/Postgres")]),
    ("link-with-heading", "Risks in [[Kitchen renovation#Risks]]?", [Mention("note", "Kitchen renovation", "Risks")]),
    ("link-to-block", "the line [[Daily#^abc123]]", [Mention("note", "Daily")]),
    ("nested-heading-last-part", "[[Kitchen#Plan#Risks]]", [Mention("note", "Kitchen", "Risks")]),
    ("escaped-pipe-in-table", "[[Kitchen\\|the kitchen]]", [Mention("note", "Kitchen")]),
    ("embed", "![[Home]]", [Mention("note", "Home")]),
    ("same-note-heading-only", "[[#Risks]] here", []),
    ("repeated-once", "[[A]] and [[A]]", [Mention("note", "A")]),
    ("tag", "What is open in #homelab?", [Mention("tag", "homelab")]),
    ("nested-tag-lowercased", "notes in #Homelab/Network please", [Mention("tag", "homelab/network")]),
    ("number-is-not-a-tag", "issue #1 and #2024", []),
    ("sharp-in-word-is-not", "I write C# and see page#anchor", []),
    (
        "heading-is-not-a-tag",
        "[[Kitchen#Risks]] and #kitchen",
        [Mention("note", "Kitchen", "Risks"), Mention("tag", "kitchen")],
    ),
]


@pytest.mark.parametrize(("query", "expected"), [(q, e) for _, q, e in PARSE], ids=[i for i, _, _ in PARSE])
def test_parse_mentions(query: str, expected: list[Mention]) -> None:
    assert parse_mentions(query) == expected
