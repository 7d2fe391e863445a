"""A question's `[[Note]]` / `#tag` mentions resolved like Obsidian, and their guaranteed places in the ranking."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from askvault.model import ChunkInfo
from askvault.parse.links import LinkResolver
from askvault.query.mentions import Mention
from askvault.retrieve.fusion import Fused


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().casefold()


def resolve_note(
    target: str, resolver: LinkResolver, titles: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> str | None:
    """The note a link target names, as Obsidian resolves a link (`parse.links.LinkResolver`: the vault path, then
    the file name, ignoring case, the shortest path first), else the note whose `title` is the target (a question
    may name a note by its frontmatter title), else the note with that alias. `titles` maps path → title,
    `aliases` casefolded alias → path (see `alias_index`)."""
    name = unicodedata.normalize("NFC", target).strip()
    if not name:
        return None
    found = resolver.resolve(name, "")
    if found is not None and found.lower().endswith(".md"):
        return found
    wanted = _key(name.removesuffix(".md"))
    matches = [path for path, title in titles.items() if _key(title) == wanted]
    if matches:
        return min(matches, key=_path_order)
    return (aliases or {}).get(wanted)


def _path_order(path: str) -> tuple[int, int, str]:
    return (path.count("/"), len(path), path)


def alias_index(chunks: Mapping[str, ChunkInfo]) -> dict[str, str]:
    """Casefolded alias → note path, from the chunks' `aliases` (the note's frontmatter). Two notes sharing an
    alias: the shorter path wins, as for names."""
    found: dict[str, str] = {}
    for chunk in chunks.values():
        for alias in chunk.aliases:
            key, held = _key(alias), found.get(_key(alias))
            if held is None or _path_order(chunk.path) < _path_order(held):
                found[key] = chunk.path
    return found


def has_tag(chunk: ChunkInfo, tag: str) -> bool:
    """True when the chunk's note carries the tag or a tag nested under it (`#homelab` covers `homelab/network`)."""
    return any(own == tag or own.startswith(tag + "/") for own in chunk.tags)


def heading_matches(chunk: ChunkInfo, heading: str | None) -> bool:
    return heading is None or any(_key(part) == _key(heading) for part in chunk.heading_path)


def best_of(
    ranking: Sequence[Fused], chunks: Mapping[str, ChunkInfo], mention: Mention, path: str | None
) -> Fused | None:
    """The mention's best-fused chunk: the first in the ranking from the note (under the linked heading when one
    is given and any such chunk ranks, else any of the note's) or carrying the tag; None when none ranks."""

    def belongs(chunk: ChunkInfo | None) -> bool:
        if chunk is None:
            return False
        return chunk.path == path if mention.kind == "note" else has_tag(chunk, mention.target)

    members = [f for f in ranking if belongs(chunks.get(f.chunk_id))]
    if mention.heading is not None:
        under = [f for f in members if heading_matches(chunks[f.chunk_id], mention.heading)]
        if under:
            return under[0]
    return members[0] if members else None


def promote(ranking: Sequence[Fused], wanted: Sequence[Fused], top: int) -> tuple[list[Fused], set[str]]:
    """`ranking` with every wanted entry within the first max(top, len(wanted)) places, and the ids that moved.

    A wanted entry already inside keeps its place; each missing one (from lower down, or from outside the ranking)
    takes the next place after the others inside, so only as many entries as must are pushed down, by one place
    each, and nothing leaves the ranking.
    """
    wanted_ids = list(dict.fromkeys(f.chunk_id for f in wanted))
    if top < 1 or not wanted_ids:
        return list(ranking), set()
    window = max(top, len(wanted_ids))
    inside = {f.chunk_id for f in ranking[:window]}
    missing_ids = [chunk_id for chunk_id in wanted_ids if chunk_id not in inside]
    if not missing_ids:
        return list(ranking), set()
    entry = {f.chunk_id: f for f in wanted}
    rest = [f for f in ranking if f.chunk_id not in missing_ids]
    head, tail = rest[:window], rest[window:]
    # The lowest entries of the window that were not asked for make room, in their order, right below it.
    room = len(missing_ids) - (window - len(head))
    evicted: list[Fused] = []
    for position in range(len(head) - 1, -1, -1):
        if room <= 0:
            break
        if head[position].chunk_id not in entry:
            evicted.insert(0, head.pop(position))
            room -= 1
    moved = [entry[chunk_id] for chunk_id in missing_ids]
    return head + moved + evicted + tail, set(missing_ids)
