"""CommonMark's inline link syntax, read as a renderer reads it: a `(destination "title")` tail, a `[reference]`."""

from __future__ import annotations

import re
from typing import NamedTuple

# ASCII punctuation: what a backslash can escape.
PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")


class Tail(NamedTuple):
    """An inline link's `(destination "title")`: where it ends (exclusive) and its raw destination."""

    end: int
    destination: str


def char_at(text: str, at: int) -> str:
    """The character at `at`, or "" past either end (JavaScript's `text[at] ?? ""`)."""
    return text[at] if 0 <= at < len(text) else ""


def escapable(c: str) -> bool:
    return c != "" and PUNCTUATION.fullmatch(c) is not None


def inline_tail(text: str, at: int) -> Tail | None:
    """The inline link tail `(destination "title")` starting at `at`, or None when there is none."""
    if char_at(text, at) != "(":
        return None
    i = _skip_space(text, at + 1)
    if char_at(text, i) == "<":
        close = _angle_end(text, i + 1)
        if close == -1:
            return None
        destination = text[i : close + 1]
        i = close + 1
    else:
        start = i
        depth = 0
        while i < len(text):
            c = text[i]
            if c == "\\" and escapable(char_at(text, i + 1)):
                i += 1
            elif c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            elif ord(c) <= 0x20 or c == "\x7f":
                break
            i += 1
        if depth != 0:
            return None
        destination = text[start:i]
    after_destination = i
    i = _skip_space(text, i)
    if char_at(text, i) == ")":
        return Tail(i + 1, destination)
    if i == after_destination:
        return None  # a title needs space before it
    opener = char_at(text, i)
    closer = ")" if opener == "(" else opener if opener in ('"', "'") else None
    if closer is None:
        return None
    i += 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 1
        elif c == closer:
            break
        elif (opener == "(" and c == "(") or (c == "\n" and char_at(text, i + 1) == "\n"):
            return None  # a `(` title holds no `(`; no title spans a blank line
        i += 1
    if i >= len(text):
        return None
    i = _skip_space(text, i + 1)
    return Tail(i + 1, destination) if char_at(text, i) == ")" else None


def _skip_space(text: str, at: int) -> int:
    """Past spaces and tabs, and at most one line break."""
    i = at
    newlines = 0
    while i < len(text):
        c = text[i]
        if c == "\n":
            newlines += 1
            if newlines > 1:
                break
        elif c not in " \t":
            break
        i += 1
    return i


def _angle_end(text: str, start: int) -> int:
    i = start
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 1
        elif c == ">":
            return i
        elif c in "<\n":
            return -1
        i += 1
    return -1


def reference_end(text: str, at: int) -> int:
    """The end of a `[label]` right at `at` (no nested brackets), read as a reference; -1 when there is none."""
    if char_at(text, at) != "[":
        return -1
    i = at + 1
    while i < len(text) and i - at < 1000:
        c = text[i]
        if c == "\\":
            i += 1
        elif c == "[":
            return -1
        elif c == "]":
            return i + 1
        i += 1
    return -1


def run_end(text: str, at: int, char: str = "`") -> int:
    """The end of the run of `char` starting at `at`."""
    i = at
    while i < len(text) and text[i] == char:
        i += 1
    return i


def closing_run(text: str, start: int, length: int) -> int:
    """Where the backtick run of `length` closing a code span opened before `start` begins, on its line; else -1."""
    i = start
    while i < len(text) and text[i] != "\n":
        if text[i] != "`":
            i += 1
            continue
        end = run_end(text, i)
        if end - i == length:
            return i
        i = end
    return -1
