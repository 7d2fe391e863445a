"""The words date phrases are made of, English and German: month and weekday names, number words, periods."""

from __future__ import annotations

_MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "januar": 1, "jänner": 1,
    "february": 2, "feb": 2, "februar": 2,
    "march": 3, "mar": 3, "märz": 3, "maerz": 3,
    "april": 4, "apr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juni": 6,
    "july": 7, "jul": 7, "juli": 7,
    "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "oktober": 10, "okt": 10,
    "november": 11, "nov": 11,
    "december": 12, "dec": 12, "dezember": 12, "dez": 12,
}  # fmt: skip

AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar", "jan", "aug", "dec", "sep"})
"""Month names that are also everyday words or names: without a preposition they count only capitalised."""

MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
"""Regex alternation of every month name, longest first (no groups)."""

_WEEKDAYS: dict[str, int] = {
    "monday": 0, "montag": 0, "tuesday": 1, "dienstag": 1, "wednesday": 2, "mittwoch": 2,
    "thursday": 3, "donnerstag": 3, "friday": 4, "freitag": 4, "saturday": 5, "samstag": 5,
    "sonnabend": 5, "sunday": 6, "sonntag": 6,
}  # fmt: skip

WEEKDAY = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))

_NUMBERS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3, "few": 3,
    "einem": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
    "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12,
}  # fmt: skip

NUMBER = "|".join(sorted((n.replace(" ", r"\s+") for n in _NUMBERS), key=len, reverse=True))

PERIOD: dict[str, str] = {
    **dict.fromkeys(("day", "days", "tag", "tage", "tagen"), "day"),
    **dict.fromkeys(("week", "weeks", "woche", "wochen"), "week"),
    **dict.fromkeys(("month", "months", "monat", "monate", "monaten"), "month"),
    **dict.fromkeys(("year", "years", "jahr", "jahre", "jahren"), "year"),
}
"""A period word (English or German, any number) → day, week, month or year."""


def month_number(name: str) -> int:
    return _MONTHS[name.lower().rstrip(".")]


def weekday_number(name: str) -> int:
    return _WEEKDAYS[name.lower()]


def number_value(text: str) -> int | None:
    """'12' → 12, 'three' → 3, 'a few' → 3; None for anything else."""
    if text.isdigit():
        return int(text)
    return _NUMBERS.get(" ".join(text.lower().split()))
