"""Every relative link in README.md and docs/*.md points at a file of the repository (and at a heading, with `#`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def _prose(text: str) -> str:
    """The page without code blocks and code spans, where a `[x](y)` is an example, not a link."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def links(text: str) -> list[str]:
    """The targets of the page's inline links and images."""
    return [match.group(1).strip("<>") for match in _LINK.finditer(_prose(text))]


def anchors(text: str) -> set[str]:
    """The fragment ids GitHub gives the page's headings (lowercased, punctuation dropped, spaces to hyphens,
    repeats numbered)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", text)):
        plain = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken(page: Path) -> list[str]:
    problems: list[str] = []
    for target in links(page.read_text(encoding="utf-8")):
        if _EXTERNAL.match(target):
            continue
        path_part, _, fragment = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        if not resolved.exists():
            problems.append(f"{target}: no such file")
        elif not resolved.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved.read_text(encoding="utf-8")):
            problems.append(f"{target}: no heading #{fragment} in {resolved.relative_to(ROOT)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("[a](docs/x.md) ![b](img.png)", ["docs/x.md", "img.png"], id="link-and-image"),
        pytest.param('[a](<with space.md> "title")', ["with space.md"], id="angle-brackets-and-title"),
        pytest.param("`[a](code.md)` and\n```\n[b](fence.md)\n```\n", [], id="code-is-not-a-link"),
        pytest.param("[`label`](x.md#part)", ["x.md#part"], id="code-in-label"),
    ],
)
def test_links_are_found_in_prose_only(text: str, expected: list[str]) -> None:
    assert links(text) == expected


def test_anchors_follow_github_slugs() -> None:
    text = "# Ask Vault\n## A 30-second tour\n## What's new?\n## What's new?\n```\n# not a heading\n```\n"
    assert anchors(text) == {"ask-vault", "a-30-second-tour", "whats-new", "whats-new-1"}
