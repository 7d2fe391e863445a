"""When a long first index makes its notes keyword-searchable before the run ends (pure schedule)."""

from __future__ import annotations

import pytest

from askvault.index.refresh import KeywordRefresh

Step = tuple[float, int]
"""(seconds since the run started, chunks the note committed)."""


@pytest.mark.parametrize(
    ("indexed", "steps", "due"),
    [
        (0, [(10.0, 5_000)], [False]),
        (0, [(31.0, 1_999)], [False]),
        (0, [(31.0, 2_000)], [True]),
        (0, [(31.0, 3_000), (40.0, 3_000), (62.0, 3_000), (95.0, 3_000)], [True, False, True, False]),
        (50_000, [(31.0, 40_000), (50.0, 10_000)], [False, True]),
        (0, [(31.0, 0), (32.0, 0)], [False, False]),
    ],
    ids=[
        "too-early",
        "too-few",
        "first-after-half-a-minute",
        "then-at-doubling-sizes",
        "an-existing-index-must-double",
        "unchanged-notes-never",
    ],
)
def test_rebuild_schedule(indexed: int, steps: list[Step], due: list[bool]) -> None:
    refresh = KeywordRefresh(indexed, started=0.0)

    assert [refresh.due(committed, now) for now, committed in steps] == due
