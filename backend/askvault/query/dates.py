"""Date phrases in a question ("last week", "in March", "since 2025-01") → a day range (pure, English and German)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from askvault.query.date_words import (
    AMBIGUOUS_MONTHS,
    MONTH,
    NUMBER,
    PERIOD,
    WEEKDAY,
    month_number,
    number_value,
    weekday_number,
)

_NOW: ContextVar[datetime | None] = ContextVar("askvault_query_now", default=None)


def current_now() -> datetime:
    """The moment relative phrases count from: the pinned one (evaluation questions carry their `now`), else now."""
    pinned = _NOW.get()
    return pinned if pinned is not None else datetime.now().astimezone()


@contextmanager
def reference_now(now: datetime) -> Iterator[None]:
    """Pins `current_now()` for the code inside (per task/context), so date questions are reproducible."""
    token = _NOW.set(now)
    try:
        yield
    finally:
        _NOW.reset(token)


@dataclass(frozen=True, slots=True)
class DateScope:
    """A date phrase found in a question and the days it means: [start, end), either side open when None."""

    phrase: str
    """As written in the question."""
    start: date | None
    end: date | None
    """Exclusive."""
    query: str
    """What to search for: the question, phrase kept (stripping it was not measured better)."""

    def contains(self, day: date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day < self.end)


Span = tuple[date, date]
"""[first day, day after the last)."""


def _month_span(year: int, month: int) -> Span:
    nxt = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return date(year, month, 1), nxt


def _day_span(day: date) -> Span:
    return day, day + timedelta(days=1)


def _months_back(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    last = (_month_span(year, month)[1] - timedelta(days=1)).day
    return date(year, month, min(day.day, last))


def _recent_year(month: int, day: int, today: date) -> int:
    """The year of the most recent (month, day) that is not in the future."""
    return today.year if (month, day) <= (today.month, today.day) else today.year - 1


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


# One date expression ("X"), alternatives tried longest first. Named groups tell them apart.
_EDGE_L = r"(?<![\w.:/\\-])"
_EDGE_R = r"(?![\w:/\\]|[.-]\w)"
_YEAR = r"(?:19|20)\d\d"
_ISO_DAY = rf"(?P<iy>{_YEAR})-(?P<im>0[1-9]|1[0-2])-(?P<id>0[1-9]|[12]\d|3[01])"
_ISO_MONTH = rf"(?P<my>{_YEAR})-(?P<mm>0[1-9]|1[0-2])"
_DMY = rf"(?P<dd>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th|\.)?\s+(?:of\s+)?(?P<dmon>{MONTH})\.?(?:,?\s+(?P<dy>{_YEAR}))?"
_MDY = rf"(?P<mdmon>{MONTH})\.?\s+(?P<md>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?(?!\d)(?:,?\s+(?P<mdy>{_YEAR}))?"
_MON_YEAR = rf"(?P<mymon>{MONTH})\.?,?\s+(?:of\s+)?(?P<myy>{_YEAR})"
_MON = rf"(?P<mon>{MONTH})"
_BARE_YEAR = rf"(?P<year>{_YEAR})"
_X_FORMS = (_ISO_DAY, _ISO_MONTH, _DMY, _MDY, _MON_YEAR, _MON, _BARE_YEAR)


def _x(tag: str) -> str:
    """The date-expression pattern with its group names suffixed, so one regex can hold two of them."""
    body = "|".join(f"(?:{form})" for form in _X_FORMS)
    return f"(?P<{tag}>" + re.sub(r"\(\?P<(\w+)>", lambda m: f"(?P<{m.group(1)}_{tag}>", body) + ")"


def _resolve(groups: dict[str, str | None], tag: str, today: date) -> Span | None:
    """The days the date expression `tag` of a match covers; None when it is no valid date."""

    def g(name: str) -> str | None:
        return groups.get(f"{name}_{tag}")

    if g("iy"):
        day = _safe_date(int(g("iy") or 0), int(g("im") or 0), int(g("id") or 0))
        return _day_span(day) if day else None
    if g("my"):
        return _month_span(int(g("my") or 0), int(g("mm") or 0))
    for mon, dd, yy in (("dmon", "dd", "dy"), ("mdmon", "md", "mdy")):
        if g(mon):
            month, day_no = month_number(g(mon) or ""), int(g(dd) or 0)
            year = int(g(yy) or 0) or _recent_year(month, day_no, today)
            day = _safe_date(year, month, day_no)
            return _day_span(day) if day else None
    if g("mymon"):
        return _month_span(int(g("myy") or 0), month_number(g("mymon") or ""))
    if g("mon"):
        month = month_number(g("mon") or "")
        return _month_span(_recent_year(month, 1, today), month)
    if g("year"):
        # A bare number is a year only when it is a plausible one ("up to 2048 connections" is not).
        year = int(g("year") or 0)
        return (date(year, 1, 1), date(year + 1, 1, 1)) if 1970 <= year <= today.year + 1 else None
    return None


def _bare_ok(groups: dict[str, str | None], tag: str) -> bool:
    """Without a preposition only a full date or month + year counts ("March of the penguins", "may", "2024")."""
    if groups.get(f"mon_{tag}") or groups.get(f"year_{tag}"):
        return False
    month = groups.get(f"dmon_{tag}") or groups.get(f"mdmon_{tag}") or groups.get(f"mymon_{tag}")
    return month is None or month.lower() not in AMBIGUOUS_MONTHS or month[0].isupper()


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    build: Callable[[dict[str, str | None], date, int], Span | tuple[date | None, date | None] | None]


def _compile(text: str) -> re.Pattern[str]:
    return re.compile(_EDGE_L + text + _EDGE_R, re.IGNORECASE)


def _relative(groups: dict[str, str | None], today: date, week_start: int) -> Span | None:
    word = (groups.get("rel") or "").lower()
    if word in ("today", "heute"):
        return _day_span(today)
    if word in ("yesterday", "gestern"):
        return _day_span(today - timedelta(days=1))
    if word in ("the day before yesterday", "vorgestern"):
        return _day_span(today - timedelta(days=2))
    return None


def _this_last(groups: dict[str, str | None], today: date, week_start: int) -> Span | None:
    which = (groups.get("which") or "").lower()
    unit = PERIOD[(groups.get("unit") or "").lower()]
    if which == "past":  # "the past week": the last seven days, not the previous calendar week
        return _last_n({"n": "1", "nunit": unit}, today, week_start)
    back = 0 if which.startswith(("this", "dies", "current")) else 1
    if unit == "week":
        monday = today - timedelta(days=(today.weekday() - week_start) % 7) - timedelta(weeks=back)
        return monday, monday + timedelta(weeks=1)
    if unit == "month":
        first = _months_back(today.replace(day=1), back)
        return _month_span(first.year, first.month)
    if unit == "year":
        return date(today.year - back, 1, 1), date(today.year - back + 1, 1, 1)
    return _day_span(today - timedelta(days=back))


def _last_n(groups: dict[str, str | None], today: date, week_start: int) -> Span | None:
    count = number_value(groups.get("n") or "1")
    unit = PERIOD[(groups.get("nunit") or "").lower()]
    if count is None or count < 1 or count > 1000:
        return None
    end = today + timedelta(days=1)
    if unit == "day":
        return today - timedelta(days=count), end
    if unit == "week":
        return today - timedelta(weeks=count), end
    if unit == "month":
        return _months_back(today, count), end
    return _months_back(today, 12 * count), end


def _last_weekday(groups: dict[str, str | None], today: date, week_start: int) -> Span | None:
    back = (today.weekday() - weekday_number(groups.get("wd") or "")) % 7 or 7
    return _day_span(today - timedelta(days=back))


def _prefixed(kind: str) -> Callable[[dict[str, str | None], date, int], tuple[date | None, date | None] | None]:
    def build(groups: dict[str, str | None], today: date, week_start: int) -> tuple[date | None, date | None] | None:
        span = _resolve(groups, "a", today)
        if span is None or (kind == "on" and span[1] - span[0] != timedelta(days=1)):
            return None
        if kind in ("in", "on"):
            return span
        if kind == "since":
            return span[0], None
        if kind == "after":
            return span[1], None
        if kind == "before":
            return None, span[0]
        return None, span[1]  # until: the named period included

    return build


def _between(groups: dict[str, str | None], today: date, week_start: int) -> Span | None:
    first, last = _resolve(groups, "a", today), _resolve(groups, "b", today)
    if first is None or last is None:
        return None
    return min(first[0], last[0]), max(first[1], last[1])  # written the other way round, it means the same


def _bare(groups: dict[str, str | None], today: date, week_start: int) -> Span | None:
    return _resolve(groups, "a", today) if _bare_ok(groups, "a") else None


_PREPOSITIONS = {
    "in": r"in(?:\s+the\s+year)?|im(?:\s+jahr)?|during|throughout|last",
    "on": r"on|am",
    "since": r"since|seit|from|ab|starting(?:\s+from|\s+in)?",
    "after": r"after|nach",
    "before": r"before|prior\s+to|earlier\s+than",
    "until": r"until|till|through|bis(?:\s+zum|\s+zur)?",
}
_RULES: tuple[_Rule, ...] = (
    _Rule(
        _compile(rf"(?:between|zwischen|from|von)\s+{_x('a')}\s+(?:and|und|to|until|till|bis)\s+{_x('b')}"), _between
    ),
    *(
        _Rule(_compile(rf"(?:{words})\s+(?:the\s+)?{_x('a')}"), _prefixed(kind))
        for kind, words in _PREPOSITIONS.items()
    ),
    _Rule(_compile(r"(?P<rel>today|yesterday|the\s+day\s+before\s+yesterday|heute|gestern|vorgestern)"), _relative),
    _Rule(
        _compile(
            r"(?P<which>this|last|previous|current|past|dies(?:e[nrs]?)?|letzte[nrs]?|vergangene[nrs]?|vorige[nrs]?)"
            r"\s+(?P<unit>week|month|year|woche|monat|jahr)"
        ),
        _this_last,
    ),
    _Rule(
        _compile(
            rf"(?:(?:in\s+)?(?:the\s+)?(?:last|past|previous)|(?:in\s+den\s+)?(?:letzten|vergangenen))\s+"
            rf"(?P<n>\d{{1,3}}|{NUMBER})\s+(?P<nunit>days?|weeks?|months?|years?|tagen?|wochen?|monaten?|jahren?)"
        ),
        _last_n,
    ),
    _Rule(_compile(rf"(?:last|letzten|vergangenen)\s+(?P<wd>{WEEKDAY})"), _last_weekday),
    _Rule(_compile(_x("a")), _bare),
)


def find_date_scope(question: str, now: datetime, week_start: int = 0) -> DateScope | None:
    """The first date phrase in `question` (earliest, then longest) as a day range counted from `now`.

    `week_start` is the first day of a week (0 = Monday … 6 = Sunday). None when no phrase is found.
    """
    today = now.date()
    best: tuple[int, int, str, date | None, date | None] | None = None
    for rule in _RULES:
        for match in rule.pattern.finditer(question):
            span = rule.build(match.groupdict(), today, week_start)
            if span is None or (best is not None and (match.start(), -len(match.group())) >= best[:2]):
                continue
            phrase = match.group().strip()
            best = (match.start(), -len(phrase), phrase, span[0], span[1])
    if best is None:
        return None
    return DateScope(phrase=best[2], start=best[3], end=best[4], query=question)
