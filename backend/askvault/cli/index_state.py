"""What a reading command says when the vault has no index yet, or a path names no indexed note."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from askvault.cli.hints import suggest
from askvault.errors import NotFound, NotIndexed

if TYPE_CHECKING:
    from askvault.wiring import Engine  # imported by the commands that open the index, not by every command

SUGGESTIONS = 3
SIMILAR_ENOUGH = 0.6
"""difflib's own default cutoff: below it, suggestions are more noise than help."""


def require_indexed(engine: Engine) -> None:
    """NotIndexed when nothing was ever indexed for this vault: an empty result would read as "no match"."""
    if engine.manifest.count_notes() == 0:
        config = engine.config
        if next(config.vault.root.rglob("*.md"), None) is None:
            # Indexing would not help: say what is missing instead of sending the user round in a circle.
            raise NotIndexed(
                f"the vault {config.vault.root} holds no notes (.md files) yet; is --vault the right folder?"
            )
        raise NotIndexed(
            f"nothing is indexed for the vault {config.vault.root} yet; run `{suggest('index', config)}` first"
        )


def visible_note_paths(engine: Engine) -> list[str]:
    """Indexed notes that may be shown now (an excluded note's path is never suggested)."""
    return [path for path in engine.manifest.note_stats() if engine.guard.path_rule(path) is None]


def resolve_note(path: str, engine: Engine) -> str:
    """`path` as the index knows it: as given, or with `.md` added; NotFound naming the closest indexed paths."""
    known = set(visible_note_paths(engine))
    for candidate in (path, path + ".md"):
        if candidate in known:
            return candidate
    close = closest_paths(path, known)
    if close:
        raise NotFound(f"no indexed note at {path}; did you mean {_either(close)}?")
    raise NotFound(
        f"no indexed note at {path}; give its path inside the vault, such as Folder/Note.md "
        "(a new note needs `askvault index` first)"
    )


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


def _stem(path: str) -> str:
    lowered = path.strip().lower()
    return lowered.removesuffix(".md")


def _either(paths: list[str]) -> str:
    if len(paths) == 1:
        return paths[0]
    return ", ".join(paths[:-1]) + " or " + paths[-1]
