"""The loop detector: the same lines written again and again at the end of an answer, and what is not a loop."""

from __future__ import annotations

import pytest

from askvault.generate.repetition import repeats_at_end

TITLE = "The Greatest Story Ever Told"


@pytest.mark.parametrize(
    ("text", "loop"),
    [
        pytest.param(f"{TITLE}\n\n" * 4, True, id="one-line-four-times"),
        pytest.param(f"{TITLE}\n\n" * 3, False, id="three-times-is-not-yet"),
        pytest.param(f"{TITLE}\n" * 3 + TITLE, False, id="the-fourth-copy-is-unfinished"),
        pytest.param("Intro.\n" + "The answer is:\nThe heap keeps getting bigger.\n" * 4, True, id="two-line-block"),
        pytest.param("- yes\n" * 10, False, id="short-lines-repeat-in-lists"),
        pytest.param("| Mon | rest | 0 km |\n| Tue | easy | 5 km |\n| Wed | rest | 0 km |\n", False, id="table"),
        pytest.param("a\nb\nc\nd\ne\n" * 4, False, id="block-longer-than-four-lines"),
        pytest.param(f"{TITLE}\n" * 4 + "Then something new.\n", False, id="the-loop-broke"),
        pytest.param("Port 5433 [1]. " * 50, False, id="one-long-line-is-left-to-the-cap"),
        pytest.param("", False, id="empty"),
        pytest.param(f"  {TITLE}  \n" * 2 + f"{TITLE}\n" * 2, True, id="spaces-aside"),
    ],
)
def test_repeats_at_end(text: str, loop: bool) -> None:
    assert repeats_at_end(text) is loop
