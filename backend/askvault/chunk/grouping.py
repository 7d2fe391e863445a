"""Chunk stage: which of a note's sections are chunked together (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from askvault.model import Section


def groups(sections: Sequence[Section], min_chars: int, apart: Sequence[bool] = ()) -> list[list[int]]:
    """Indices of sections chunked together: short ones join the next (the last short one the previous).

    A section that is only its heading, followed by one of its subsections, is left out: the subsection's
    trail already names it, and the chunk then cites the subsection, where the text is. Sections flagged in
    `apart` (all template lines, `chunk.boilerplate`) are never grouped with the others: a short intro stays its
    own chunk rather than one with the footer after it.
    """
    flags = list(apart) or [False] * len(sections)
    runs: list[list[int]] = []
    for index, flag in enumerate(flags):
        if runs and flags[runs[-1][0]] == flag:
            runs[-1].append(index)
        else:
            runs.append([index])
    return [group for run in runs for group in _groups(sections, run, min_chars)]


def _groups(sections: Sequence[Section], indices: Sequence[int], min_chars: int) -> list[list[int]]:
    groups: list[list[int]] = []
    current: list[int] = []
    size = 0
    for place, index in enumerate(indices):
        section = sections[index]
        following = sections[indices[place + 1]].heading_path if place + 1 < len(indices) else ()
        only_heading = section.level > 0 and "\n" not in section.text.strip()
        child = (
            len(following) > len(section.heading_path)
            and following[: len(section.heading_path)] == section.heading_path
        )
        if only_heading and child and not current:
            continue
        current.append(index)
        size += len(section.text.strip())
        if size >= min_chars:
            groups.append(current)
            current, size = [], 0
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return groups
