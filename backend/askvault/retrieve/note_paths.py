"""The indexed note paths closest to one that names no note, and the sentence that suggests them."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher

SUGGESTIONS = 3
SIMILAR_ENOUGH = 0.6
"""difflib's own default cutoff: below it, suggestions are more noise than help."""


def closest_paths(path: str, known: Iterable[str], limit: int = SUGGESTIONS) -> list[str]:
    """The indexed paths most like `path`, case-insensitively, best first. A bare name is compared with note names
    (`Kodi` finds `Homelab/Kodi.md`); a path with a folder counts the name as much as the whole path, so a shared
    folder alone does not make every note in it look close."""
    wanted = _stem(path)
    wanted_name = wanted.rsplit("/", 1)[-1]
    scored: list[tuple[float, str]] = []
    for candidate in known:
        stem = _stem(candidate)
        score = SequenceMatcher(None, wanted_name, stem.rsplit("/", 1)[-1]).ratio()
        if "/" in wanted:
            score = (score + SequenceMatcher(None, wanted, stem).ratio()) / 2
        if score >= SIMILAR_ENOUGH:
            scored.append((score, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [candidate for _, candidate in scored[:limit]]


def not_found_message(path: str, known: Iterable[str]) -> str:
    """One sentence for a path no indexed note has: the closest paths when some are close, else what to give."""
    close = closest_paths(path, known)
    if close:
        return f"no indexed note at {path}; did you mean {_either(close)}?"
    return (
        f"no indexed note at {path}; give its path inside the vault, such as Folder/Note.md "
        "(a new note needs `askvault index` first)"
    )


def _stem(path: str) -> str:
    return path.strip().lower().removesuffix(".md")


def _either(paths: list[str]) -> str:
    if len(paths) == 1:
        return paths[0]
    return ", ".join(paths[:-1]) + " or " + paths[-1]
