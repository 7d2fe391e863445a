"""find_date_scope: date phrases in English and German → day ranges, and the phrases that must not count."""

from __future__ import annotations

import asyncio
from datetime import date, datetime

import pytest

from askvault.query.dates import current_now, find_date_scope, reference_now

NOW = datetime(2024, 3, 20, 12, 0)
"""A Wednesday."""

D = date


FOUND = [
    # (question, phrase, start, end) — end exclusive, None = open
    ("what did I do today", "today", D(2024, 3, 20), D(2024, 3, 21)),
    ("what did I do yesterday?", "yesterday", D(2024, 3, 19), D(2024, 3, 20)),
    ("the day before yesterday", "the day before yesterday", D(2024, 3, 18), D(2024, 3, 19)),
    ("what did I cook last week", "last week", D(2024, 3, 11), D(2024, 3, 18)),
    ("notes from the previous week", "previous week", D(2024, 3, 11), D(2024, 3, 18)),
    ("what's planned this week", "this week", D(2024, 3, 18), D(2024, 3, 25)),
    ("in the past week", "past week", D(2024, 3, 13), D(2024, 3, 21)),
    ("this month's runs", "this month", D(2024, 3, 1), D(2024, 4, 1)),
    ("bills from last month", "last month", D(2024, 2, 1), D(2024, 3, 1)),
    ("what I read last year", "last year", D(2023, 1, 1), D(2024, 1, 1)),
    ("goals this year", "this year", D(2024, 1, 1), D(2025, 1, 1)),
    ("runs in the last 10 days", "in the last 10 days", D(2024, 3, 10), D(2024, 3, 21)),
    ("the last two weeks", "the last two weeks", D(2024, 3, 6), D(2024, 3, 21)),
    ("past 3 months of spending", "past 3 months", D(2023, 12, 20), D(2024, 3, 21)),
    ("in the last few days", "in the last few days", D(2024, 3, 17), D(2024, 3, 21)),
    ("what happened in March", "in March", D(2024, 3, 1), D(2024, 4, 1)),
    ("what happened in April", "in April", D(2023, 4, 1), D(2023, 5, 1)),
    ("trips in may", "in may", D(2023, 5, 1), D(2023, 6, 1)),
    ("in March 2023", "in March 2023", D(2023, 3, 1), D(2023, 4, 1)),
    ("March 2024 budget", "March 2024", D(2024, 3, 1), D(2024, 4, 1)),
    ("during Feb 2024", "during Feb 2024", D(2024, 2, 1), D(2024, 3, 1)),
    ("what did I do in 2023", "in 2023", D(2023, 1, 1), D(2024, 1, 1)),
    ("notes since 2025-01", "since 2025-01", D(2025, 1, 1), None),
    ("since March", "since March", D(2024, 3, 1), None),
    ("since 2024-03-15", "since 2024-03-15", D(2024, 3, 15), None),
    ("from 2024-03-05 on", "from 2024-03-05", D(2024, 3, 5), None),
    ("after March 10", "after March 10", D(2024, 3, 11), None),
    ("before 2024-03-10", "before 2024-03-10", None, D(2024, 3, 10)),
    ("before March", "before March", None, D(2024, 3, 1)),
    ("until March 5", "until March 5", None, D(2024, 3, 6)),
    ("up until 2024-02", "until 2024-02", None, D(2024, 3, 1)),
    ("between 2024-03-01 and 2024-03-05", "between 2024-03-01 and 2024-03-05", D(2024, 3, 1), D(2024, 3, 6)),
    ("between 2024-03-05 and 2024-03-01", "between 2024-03-05 and 2024-03-01", D(2024, 3, 1), D(2024, 3, 6)),
    ("from March to April 2024", "from March to April 2024", D(2024, 3, 1), D(2024, 5, 1)),
    ("on 2024-03-06", "on 2024-03-06", D(2024, 3, 6), D(2024, 3, 7)),
    ("what about 2024-03-06?", "2024-03-06", D(2024, 3, 6), D(2024, 3, 7)),
    ("6 March 2024", "6 March 2024", D(2024, 3, 6), D(2024, 3, 7)),
    ("the 6th of March 2024", "6th of March 2024", D(2024, 3, 6), D(2024, 3, 7)),
    ("March 6, 2024", "March 6, 2024", D(2024, 3, 6), D(2024, 3, 7)),
    ("on March 6th", "on March 6th", D(2024, 3, 6), D(2024, 3, 7)),
    ("run on 24 March", "on 24 March", D(2023, 3, 24), D(2023, 3, 25)),
    ("last Saturday's maintenance", "last Saturday", D(2024, 3, 16), D(2024, 3, 17)),
    ("last Wednesday", "last Wednesday", D(2024, 3, 13), D(2024, 3, 14)),
    ("Was habe ich letzte Woche gekocht?", "letzte Woche", D(2024, 3, 11), D(2024, 3, 18)),
    ("diese Woche", "diese Woche", D(2024, 3, 18), D(2024, 3, 25)),
    ("letzten Monat", "letzten Monat", D(2024, 2, 1), D(2024, 3, 1)),
    ("heute", "heute", D(2024, 3, 20), D(2024, 3, 21)),
    ("gestern gescannt", "gestern", D(2024, 3, 19), D(2024, 3, 20)),
    ("im März", "im März", D(2024, 3, 1), D(2024, 4, 1)),
    ("im Februar 2024", "im Februar 2024", D(2024, 2, 1), D(2024, 3, 1)),
    ("seit März", "seit März", D(2024, 3, 1), None),
    ("seit 2024-03-10", "seit 2024-03-10", D(2024, 3, 10), None),
    ("bis 2024-03-10", "bis 2024-03-10", None, D(2024, 3, 11)),
    ("zwischen 2024-03-01 und 2024-03-03", "zwischen 2024-03-01 und 2024-03-03", D(2024, 3, 1), D(2024, 3, 4)),
    ("am 6. März 2024", "am 6. März 2024", D(2024, 3, 6), D(2024, 3, 7)),
    ("in den letzten 3 Tagen", "in den letzten 3 Tagen", D(2024, 3, 17), D(2024, 3, 21)),
    ("in den letzten zwei Wochen", "in den letzten zwei Wochen", D(2024, 3, 6), D(2024, 3, 21)),
    ("last week or in March", "last week", D(2024, 3, 11), D(2024, 3, 18)),
]


@pytest.mark.parametrize(("question", "phrase", "start", "end"), FOUND, ids=[row[0] for row in FOUND])
def test_phrases_map_to_day_ranges(question: str, phrase: str, start: date | None, end: date | None) -> None:
    scope = find_date_scope(question, NOW)

    assert scope is not None
    assert (scope.phrase, scope.start, scope.end) == (phrase, start, end)
    assert scope.query == question  # the phrase stays in the search text


NOT_DATES = [
    "March of the penguins notes",
    "may I restart pg-main on port 5433",
    "it may be the backup job",
    "spring cleaning checklist",
    "IP 10.0.0.2024 port 2024",
    "which service listens on 2024?",
    "set max connections up to 2048",
    "container v2024-03 tag",
    "image build-2024-03-06 digest",
    "What does the Kodi maintenance workflow do?",
    "What's for dinner on Wednesday evening?",
    "the 404 on route 2019a",
    "march the containers to the new host",
    "price 2024.50 euros",
    "in 3045",
    "on 2024-02-30",
    "",
]


@pytest.mark.parametrize("question", NOT_DATES, ids=[q or "empty" for q in NOT_DATES])
def test_words_that_only_look_like_dates_are_ignored(question: str) -> None:
    assert find_date_scope(question, NOW) is None


WEEK_STARTS = [
    pytest.param(0, D(2024, 3, 11), id="monday"),
    pytest.param(6, D(2024, 3, 10), id="sunday"),
    pytest.param(5, D(2024, 3, 9), id="saturday"),
]


@pytest.mark.parametrize(("week_start", "start"), WEEK_STARTS)
def test_last_week_follows_the_first_day_of_the_week(week_start: int, start: date) -> None:
    scope = find_date_scope("last week", NOW, week_start=week_start)

    assert scope is not None
    assert (scope.start, scope.end) == (start, D(start.year, start.month, start.day + 7))


MONTH_ENDS = [
    pytest.param(datetime(2024, 1, 10), "last month", D(2023, 12, 1), D(2024, 1, 1), id="january-last-month"),
    pytest.param(datetime(2024, 12, 31), "this month", D(2024, 12, 1), D(2025, 1, 1), id="december"),
    pytest.param(datetime(2024, 3, 31), "past 1 month", D(2024, 2, 29), D(2024, 4, 1), id="leap-day-clamped"),
    pytest.param(datetime(2024, 1, 1), "yesterday", D(2023, 12, 31), D(2024, 1, 1), id="new-year"),
]


@pytest.mark.parametrize(("now", "question", "start", "end"), MONTH_ENDS)
def test_ranges_cross_month_and_year_ends(now: datetime, question: str, start: date, end: date) -> None:
    scope = find_date_scope(question, now)

    assert scope is not None
    assert (scope.start, scope.end) == (start, end)


def test_contains_is_half_open() -> None:
    scope = find_date_scope("last week", NOW)

    assert scope is not None
    assert [scope.contains(D(2024, 3, d)) for d in (10, 11, 17, 18)] == [False, True, True, False]


def test_reference_now_pins_the_clock_only_inside() -> None:
    pinned = datetime(2024, 3, 20, 12)

    with reference_now(pinned):
        assert current_now() == pinned
    assert current_now() != pinned
    assert current_now().tzinfo is not None


def test_reference_now_is_per_task() -> None:
    async def read(pin: datetime) -> datetime:
        with reference_now(pin):
            await asyncio.sleep(0)
            return current_now()

    async def both() -> list[datetime]:
        return list(await asyncio.gather(read(datetime(2024, 1, 1)), read(datetime(2025, 1, 1))))

    assert asyncio.run(both()) == [datetime(2024, 1, 1), datetime(2025, 1, 1)]
