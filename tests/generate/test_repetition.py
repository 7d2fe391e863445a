"""The loop detector: the same lines (or characters) again and again at the end of an answer, and what is not."""

from __future__ import annotations

import hashlib

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
        pytest.param("".join(f"The source is:\n\n[{n}]\n\n" for n in range(1, 7)) * 3, True, id="a-twelve-line-block"),
        pytest.param("".join(f"The source is:\n\n[{n}]\n\n" for n in range(1, 7)), False, id="once-is-not-a-loop"),
        pytest.param("Intro.\n" + "A line of four\nwords each here\n" * 3, False, id="a-short-block-three-times"),
        pytest.param("[1] [2] [3] [4] [5] [6]\n\n" * 4, True, id="rows-of-citations"),
        pytest.param(
            "([4000, 6000], DEFAULT, [1]),\n([12000, 100], DEFAULT, [1]),\n" * 2,
            False,
            id="lists-in-code-keep-their-numbers",
        ),
        pytest.param(
            "".join(f"Line number {n} of the block\n" for n in range(33)) * 4, False, id="block-over-32-lines"
        ),
        pytest.param("a\nb\nc\n" * 8, False, id="a-short-block"),
        pytest.param("".join(f"{n}. Postgres-2.0.1\n" for n in range(1, 9)), True, id="a-numbered-list-of-one-item"),
        pytest.param(
            "".join(f"The rule for the books:\n\n[{n}]\n\n" for n in range(1, 5)), True, id="counting-citations"
        ),
        pytest.param(
            "".join(f"{n}. Run {n} was {5 + n % 3} km at an easy pace.\n" for n in range(1, 20)),
            False,
            id="a-numbered-list-of-different-items",
        ),
        pytest.param(
            "".join(f"| 2024-03-{n:02} | easy | {5 + n % 2} km |\n" for n in range(1, 30)), False, id="running-log"
        ),
        pytest.param("1. " + "[ ] " * 60, True, id="empty-checkboxes"),
        pytest.param(
            "".join(f"[{n}] is a [{n + 1}] and [{n + 2}] is not the same. " for n in range(12)),
            True,
            id="counting-citations-in-a-line",
        ),
        pytest.param(
            "The list is a list of n8n's execution history, which is a list of n8n's history. " * 4,
            True,
            id="a-long-phrase-again",
        ),
        pytest.param('"image": "' + "n8n-" * 60, True, id="a-unit-repeated-within-a-line"),
        pytest.param('"image": "' + "n8n-" * 50, False, id="not-yet-240-characters-of-it"),
        pytest.param("| a |" + " " * 300 + "|", False, id="table-padding"),
        pytest.param("|" + "-" * 300 + "|", False, id="table-separator"),
        pytest.param(
            " ".join(["sha256:" + hashlib.sha256(bytes([n])).hexdigest() for n in range(5)]), False, id="digests"
        ),
        pytest.param(f"{TITLE}\n" * 4 + "Then something new.\n", False, id="the-loop-broke"),
        pytest.param("Port 5433 [1]. " * 50, True, id="a-sentence-again-on-one-line"),
        pytest.param(" ".join(f"Port {5000 + n} [1]." for n in range(50)), False, id="similar-is-not-the-same"),
        pytest.param("", False, id="empty"),
        pytest.param(f"  {TITLE}  \n" * 2 + f"{TITLE}\n" * 2, True, id="spaces-aside"),
    ],
)
def test_repeats_at_end(text: str, loop: bool) -> None:
    assert repeats_at_end(text) is loop
