"""Inline [n] citations are found in every common form and split into valid and invalid."""

from __future__ import annotations

import pytest

from askvault.generate.citations import check_citations, find_citations


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Postgres listens on 5433 [1].", [1]),
        ("Both [1][2] agree, and [2] again.", [1, 2, 2]),
        ("Grouped [1, 3] and [2;4].", [1, 3, 2, 4]),
        ("A range [2-4] and [5–6].", [2, 3, 4, 5, 6]),
        ("Padded [ 3 ] too.", [3]),
        ("Port 5433[1].", [1]),
        ("A silly range [1-300].", [1, 300]),
        ("A reversed range [4-2].", [4, 2]),
        ("No citations, a footnote[^1], a task [x], a [link](u).", []),
        ("In code `arr[0]` and\n```\nx = a[1]\n```\nbut prose [2].", [2]),
        ("Unclosed fence [1]\n```\nrest [3]", [1]),
        ("[0] and [7]", [0, 7]),
    ],
    ids=[
        "single",
        "adjacent",
        "grouped",
        "ranges",
        "padded",
        "glued-to-word",
        "huge-range-ends-only",
        "reversed-range-ends",
        "not-citations",
        "code-ignored",
        "unclosed-fence",
        "out-of-range-kept",
    ],
)
def test_find_citations(answer: str, expected: list[int]) -> None:
    assert find_citations(answer) == expected


@pytest.mark.parametrize(
    ("answer", "sent", "valid", "invalid"),
    [
        ("A [2] B [1] C [2].", 3, (1, 2), ()),
        ("A [1] B [7] C [0].", 3, (1,), (0, 7)),
        ("Nothing cited.", 3, (), ()),
        ("Cites [1] with nothing sent.", 0, (), (1,)),
        ("[1-3]", 2, (1, 2), (3,)),
    ],
    ids=["sorted-unique", "invalid-flagged", "none", "nothing-sent", "range-split"],
)
def test_check_citations(answer: str, sent: int, valid: tuple[int, ...], invalid: tuple[int, ...]) -> None:
    result = check_citations(answer, sent)
    assert (result.valid, result.invalid) == (valid, invalid)
