"""Explicit mentions in a question: `[[Note]]` links and `#tags`, as written (pure; resolving them is retrieval's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import regex

from askvault.parse.links import split_wikilink

_WIKILINK = regex.compile(r"!?\[\[([^\[\]]*)\]\]")
# Obsidian's tag characters; a tag needs one character that is not a digit (`#1` is not a tag), and `#` must not
# follow a word character (`C#`, `page#section`).
_TAG = regex.compile(r"(?<![\p{L}\p{N}_#&/])#([\p{L}\p{N}_/\-]+)")
_DIGITS = regex.compile(r"[\p{N}/\-_]+")


@dataclass(frozen=True, slots=True)
class Mention:
    """One note or tag a query names explicitly."""

    kind: Literal["note", "tag"]
    target: str
    """The link target as written (`Homelab/Postgres`), or the tag lowercased without `#` (`homelab/network`)."""
    heading: str | None = None
    """The heading of `[[Note#Heading]]`, when given."""

    @property
    def label(self) -> str:
        """How the inspector names it: `mention:[[Postgres]]`, `tag:#homelab`."""
        if self.kind == "tag":
            return f"tag:#{self.target}"
        return f"mention:[[{self.target}]]"


def parse_mentions(query: str) -> list[Mention]:
    """Every `[[link]]` (also `![[embed]]`, `[[Note#Heading]]`, `[[Note|shown text]]`) and `#tag` in the query,
    in order, each once. A link's `#Heading` is its heading, not a tag; a link to a block keeps no heading."""
    mentions: list[Mention] = []
    for match in _WIKILINK.finditer(query):
        link = split_wikilink(match.group(1))
        if link.target:
            mentions.append(Mention("note", link.target, link.heading))
    rest = _WIKILINK.sub(" ", query)
    for match in _TAG.finditer(rest):
        tag = match.group(1).strip("/").lower()
        if tag and _DIGITS.fullmatch(tag) is None:
            mentions.append(Mention("tag", tag))
    return list(dict.fromkeys(mentions))
