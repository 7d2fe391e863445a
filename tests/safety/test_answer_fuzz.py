"""Random hostile Markdown through the neutraliser, judged by a real renderer: nothing live comes out, ever twice."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askvault.safety.answer import neutralise_answer
from tests.safety.markdown_oracle import FRAGMENTS, live

answers = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=30).map("".join)


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("![x](https://evil.com/p.png)", id="image"),
        pytest.param("[x](javascript:alert(1))", id="javascript-link"),
        pytest.param("<img src=x>", id="html"),
        pytest.param("see www.evil.com/x", id="www"),
        pytest.param("see //evil.com/x", id="protocol-relative"),
        pytest.param("[r]\n\n[r]: //evil.com", id="reference"),
        pytest.param("```dataview\nLIST\n```", id="runnable-fence"),
        pytest.param("`= this.file.name`", id="dataview-query"),
        pytest.param("![[Private/Diary]]", id="embed"),
        pytest.param("![x](Note.md)", id="markdown-embed"),
    ],
)
def test_the_judge_sees_live_constructs_in_raw_input(raw: str) -> None:
    assert live(raw) != []


def test_the_judge_passes_inert_text() -> None:
    assert live("[[a]] `https://x` [b](c.md) ![d](e.png) config.py a@b.com [1]") == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers)
def test_nothing_live_comes_out(answer: str) -> None:
    safe = neutralise_answer(answer).text
    assert live(safe) == []
    assert neutralise_answer(safe).text == safe
