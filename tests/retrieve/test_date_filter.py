"""Which day a note counts as written, and the plan a date phrase makes for one search (pure parts)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from askvault.model import Chunk, RankedId, SearchFilters
from askvault.query.dates import DateScope, find_date_scope
from askvault.retrieve.date_filter import (
    BASIS,
    EXPLICIT_FILTER,
    NOTHING_IN_RANGE,
    keep_accepted,
    note_day,
    path_date,
    plan_date_scope,
    without_scope,
)

NOW = datetime(2024, 3, 20, 12, tzinfo=UTC)
IN_MARCH = datetime(2024, 3, 12, 9, tzinfo=UTC).timestamp()
IN_2026 = datetime(2026, 11, 29, 9, tzinfo=UTC).timestamp()

PATHS = [
    ("Daily/2024-03-06.md", date(2024, 3, 6)),
    ("Journal/2024-02-11 Talk with Tomas.md", date(2024, 2, 11)),
    ("Daily/2024/03/2024-03-06 Wednesday.md", date(2024, 3, 6)),
    ("Daily/2024-03-06/Notes.md", date(2024, 3, 6)),
    ("Archive/2023-01-01/2024-03-06.md", date(2024, 3, 6)),
    ("Meetings/2024-03-06 to 2024-03-08 offsite.md", date(2024, 3, 8)),
    ("Homelab/Postgres.md", None),
    ("Daily/2024-02-30.md", None),
    ("Builds/build-20240306.md", None),
    ("Versions/v12024-03-06.md", None),
    ("Notes/2024-13-01.md", None),
]


@pytest.mark.parametrize(("path", "day"), PATHS, ids=[p for p, _ in PATHS])
def test_path_date_is_the_last_valid_date_in_the_name_then_the_folders(path: str, day: date | None) -> None:
    assert path_date(path) == day


def _chunk(path: str, mtime: float, cid: str | None = None, tags: tuple[str, ...] = ()) -> Chunk:
    return Chunk(cid or path, path, path, (), 1, 2, "text", "text", tags, mtime)


DAYS = [
    pytest.param("Daily/2024-03-06.md", IN_2026, date(2024, 3, 6), id="path-date-beats-a-checkout-mtime"),
    pytest.param("Homelab/Postgres.md", IN_MARCH, date(2024, 3, 12), id="no-path-date-uses-mtime"),
    pytest.param("Homelab/Postgres.md", 0.0, date(1970, 1, 1), id="unknown-mtime-is-the-epoch"),
]


@pytest.mark.parametrize(("path", "mtime", "day"), DAYS)
def test_note_day_prefers_the_path_date(path: str, mtime: float, day: date) -> None:
    assert note_day(_chunk(path, mtime), NOW) == day


def _scope(question: str) -> DateScope | None:
    return find_date_scope(question, NOW)


CATALOG = {
    c.id: c
    for c in (
        _chunk("Daily/2024-03-12.md", IN_2026, "d12a"),
        _chunk("Daily/2024-03-12.md", IN_2026, "d12b"),
        _chunk("Daily/2024-03-19.md", IN_2026, "d19"),
        _chunk("Homelab/Postgres.md", IN_MARCH, "pg", ("homelab",)),
        _chunk("Cooking/Bread.md", IN_2026, "bread"),
    )
}


def test_a_phrase_with_notes_in_range_is_applied_to_those_notes() -> None:
    plan = plan_date_scope(_scope("what did I do last week"), SearchFilters(), CATALOG.values(), NOW)

    assert plan.report is not None
    assert plan.accept is not None
    report = plan.report
    assert (report.phrase, report.start, report.end) == ("last week", date(2024, 3, 11), date(2024, 3, 18))
    assert (plan.report.applied, plan.report.basis, plan.report.notes) == (True, BASIS, 2)
    assert plan.report.fallback_reason is None
    assert sorted(c.id for c in CATALOG.values() if plan.accept(c)) == ["d12a", "d12b", "pg"]


def test_other_filters_narrow_the_notes_counted() -> None:
    plan = plan_date_scope(_scope("last week"), SearchFilters(tag="homelab"), CATALOG.values(), NOW)

    assert plan.report is not None
    assert plan.report.notes == 1


PLANS = [
    pytest.param("what is the postgres port", SearchFilters(), None, id="no-phrase"),
    pytest.param("what did I do in 2019", SearchFilters(), NOTHING_IN_RANGE, id="nothing-in-range"),
    pytest.param("last week", SearchFilters(modified_after=0.0), EXPLICIT_FILTER, id="explicit-after-wins"),
    pytest.param("last week", SearchFilters(modified_before=IN_2026), EXPLICIT_FILTER, id="explicit-before-wins"),
    pytest.param("last week", SearchFilters(folder="Cooking"), NOTHING_IN_RANGE, id="nothing-in-range-in-folder"),
]


@pytest.mark.parametrize(("query", "filters", "reason"), PLANS)
def test_a_phrase_that_cannot_apply_is_reported_not_applied(
    query: str, filters: SearchFilters, reason: str | None
) -> None:
    plan = plan_date_scope(_scope(query), filters, CATALOG.values(), NOW)

    assert plan.accept is None
    if reason is None:
        assert plan.report is None
    else:
        assert plan.report is not None
        assert (plan.report.applied, plan.report.notes, plan.report.fallback_reason) == (False, 0, reason)


def test_without_scope_keeps_the_phrase_and_says_why() -> None:
    plan = without_scope(plan_date_scope(_scope("last week"), SearchFilters(), CATALOG.values(), NOW))

    assert plan.accept is None
    assert plan.report is not None
    report = plan.report
    assert (report.phrase, report.applied, report.fallback_reason) == ("last week", False, NOTHING_IN_RANGE)


def test_keep_accepted_keeps_order_and_drops_unknown_ids() -> None:
    ranked = [RankedId("d19", 0.9), RankedId("gone", 0.8), RankedId("pg", 0.7), RankedId("d12a", 0.6)]

    kept = keep_accepted(ranked, CATALOG, lambda c: c.path != "Daily/2024-03-19.md")

    assert [r.chunk_id for r in kept] == ["pg", "d12a"]
