"""A renderer as the judge of inert answers: what markdown-it (CommonMark + GFM tables + linkify) makes live.

Independent of the neutraliser's own reading of Markdown: the text is rendered by markdown-it-py and its tokens
are inspected. Every link is let through (no `javascript:` filter) so the judge sees what a laxer renderer shows.
Also home of the hostile fragments the fuzzers build answers from.
"""

from __future__ import annotations

import random
import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from askvault.safety.answer import SAFE_LANGUAGES

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_IMAGE = re.compile(r"\.(?:png|jpe?g|gif|bmp|svg|webp|avif|ico|tiff?)(?:[?#|].*)?", re.IGNORECASE)


def _embed_rule(state: StateInline, silent: bool) -> bool:
    """Obsidian's `![[note]]` embed, which markdown-it does not know: a token, so the judge can see it."""
    if not state.src.startswith("![[", state.pos):
        return False
    end = state.src.find("]]", state.pos + 3)
    if end == -1 or "\n" in state.src[state.pos : end] or not state.src[state.pos + 3 : end].strip():
        return False  # Obsidian embeds nothing for `![[]]`
    if not silent:
        state.push("obsidian_embed", "", 0).content = state.src[state.pos + 3 : end]
    state.pos = end + 2
    return True


class _EveryLink(MarkdownIt):
    """markdown-it that keeps `javascript:` and other links it would drop: the judge sees what laxer renderers show."""

    def validateLink(self, url: str) -> bool:
        return True


def renderer() -> MarkdownIt:
    md = _EveryLink("commonmark", {"linkify": True}).enable(["linkify", "table"])
    md.inline.ruler.before("link", "obsidian_embed", _embed_rule)
    return md


_MD = renderer()


def external(url: str) -> bool:
    """A URL as a browser reads it: a scheme or a `//host` (backslashes are slashes) is not a vault path."""
    url = re.sub(r"[\t\n\r]|%0[9AD]", "", url, flags=re.IGNORECASE).lstrip("".join(chr(c) for c in range(0x21)))
    url = re.sub(r"%5C", "/", url, flags=re.IGNORECASE).replace("\\", "/")
    return _SCHEME.match(url) is not None or url.startswith("//")


def _linked_by_gfm(text: str, href: str) -> bool:
    """A linkify match GFM and Obsidian link too: not a bare domain (`config.py`) or a bare e-mail address."""
    shown = text.lower()
    if shown.startswith("www."):
        return True
    if href.startswith("mailto:") and not shown.startswith("mailto:"):
        return False
    return not (href.startswith("http://") and not shown.startswith("http://"))


def _walk(tokens: list[Token], problems: list[str]) -> None:
    for i, token in enumerate(tokens):
        if token.type in ("html_block", "html_inline"):
            problems.append(f"html {token.content[:60]!r}")
        elif token.type == "image":
            src = str(token.attrs.get("src", ""))
            if external(src):
                problems.append(f"image {src[:80]!r}")
            elif not _IMAGE.search(src):
                problems.append(f"embed {src[:80]!r}")
        elif token.type == "link_open":
            href = str(token.attrs.get("href", ""))
            text = tokens[i + 1].content if i + 1 < len(tokens) else ""
            if external(href) and (token.markup != "linkify" or _linked_by_gfm(text, href)):
                problems.append(f"link {href[:80]!r}")
        elif token.type == "obsidian_embed":
            problems.append(f"embed [[{token.content[:60]}]]")
        elif token.type == "fence":
            words = token.info.split()
            if words and words[0].lower() not in SAFE_LANGUAGES:
                problems.append(f"code {words[0]!r}")
        elif token.type == "code_inline" and token.content.lstrip().startswith(("=", "$=")):
            problems.append(f"query {token.content[:60]!r}")
        if token.children:
            _walk(token.children, problems)


def live(markdown: str) -> list[str]:
    """What would render live from `markdown`: remote images, embeds, external links, raw HTML, runnable code."""
    problems: list[str] = []
    _walk(_MD.parse(markdown), problems)
    return problems


EVIL = "https://evil.com/p.png?q=secret"
FRAGMENTS: tuple[str, ...] = (
    # The plugin's fuzz atoms.
    "![", "[", "]", "(", ")", EVIL, "//evil.com/p", "`", "``", "```", "\n", "\n\n", " ", "x", "<", ">",
    "img src=", "\\", "$", "%%", "[[", "]]", "|", "---", "> ", "- ", "    ", "&#58;", '"t"', "'", "~~~",
    "dataview", "!", ":", "[r]: ", "<https://evil.com>", "www.evil.com", "\t", "= x", "[1]", "javascript:x",
    # Fences of every length and indent, closers longer than openers.
    "````", "`````", "~~~~", " ```", "   ```", "  ~~~", "```dataviewjs\n", "````\n", "\n```\n",
    # Alt text and labels over lines, nested brackets, escapes.
    "![a\nb](", "![a [b] c](", "[a\nb]", "\\]", "\\[", "\\!", "](", "][", "]: ", "]:\n", "[^1]",
    # Schemes hidden by references, escapes and whitespace.
    "&#x68;ttps://evil.com/x", "&#104;ttps:", "javascript&colon;alert(1)", "https&#58;//evil.com", "&Tab;",
    "&colon;", "&#x2F;&#x2F;evil.com", "https\\://evil.com", "<ht\ttps://evil.com>", "&amp;", "&nope;",
    # Definitions, references, autolinks, HTML, bare addresses.
    "[x]: https://evil.com/d", "[x]: //evil.com", "[x]:\n  <//evil.com/a b>", "[x]", "[a][x]", "[x][]",
    "<img src=//evil.com/p>", "<div>", "</div>", "<!-- c -->", "<?php", "<a href='//evil.com'>",
    "<mailto:a@evil.com>", "WWW.EVIL.COM/x", "mailto:a@evil.com", "ftp://evil.com", "obsidian://open?v=x",
    "data:image/png;base64,AA", "(//evil.com)", "(<https://evil.com>)", "(x.md)", "(a.png)", "(Note.md \"t\")",
    # Containers, tables and line ends renderers read differently.
    "1. ", "10. ", "* ", "-|-", "| a |", "\r", "\r\n", "\u00a0", " \n", "\\\n", "  \n", "${x}", "=",
    "- ```\n", "> ```\n", "  ```\n", "\n  ~~~dataview\n", "\n\t", "*", "_", "&#x5B;", "&#93;", "#", "==",
)  # fmt: skip


def hostile(rng: random.Random, most: int = 30) -> str:
    """A random answer built from hostile fragments."""
    return "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, most)))
