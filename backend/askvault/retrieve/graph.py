"""The link graph as a weak ranking signal: notes one hop from the strongest fused notes get an RRF-like bonus."""

from __future__ import annotations

import posixpath
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from askvault.model import Chunk
from askvault.parse.links import LinkResolver
from askvault.retrieve.fusion import Fused


@dataclass(frozen=True, slots=True)
class LinkGraph:
    """Resolved note-to-note links among indexed notes: outgoing, and the backlinks derived from them."""

    out: Mapping[str, frozenset[str]]
    back: Mapping[str, frozenset[str]]

    def hop(self, path: str) -> frozenset[str]:
        """Notes one link away in either direction (the note itself left out)."""
        return (self.out.get(path, frozenset()) | self.back.get(path, frozenset())) - {path}


def resolve_graph(
    outgoing: Mapping[str, Sequence[str]],
    notes: Collection[str],
    resolve: Callable[[str, str], str | None] | None = None,
) -> LinkGraph:
    """Resolves every note's targets as written against the indexed notes, the way Obsidian does.

    Only links between two indexed notes count: an attachment, a missing note, or an excluded one resolves to
    nothing here (excluded notes are not in `notes`, so they can never be reached through the graph).
    `resolve(target, source)` defaults to a `LinkResolver` over `notes`; `GraphCache` passes a memoised one.
    """
    known = notes if isinstance(notes, frozenset | set) else frozenset(notes)
    if resolve is None:
        resolve = LinkResolver(known).resolve
    out: dict[str, frozenset[str]] = {}
    back: dict[str, set[str]] = {}
    for source, targets in outgoing.items():
        if source not in known:
            continue
        resolved = {resolve(target, source) for target in targets if target.strip()}
        found = frozenset(p for p in resolved if p is not None and p in known and p != source)
        if found:
            out[source] = found
            for target in found:
                back.setdefault(target, set()).add(source)
    return LinkGraph(out, {path: frozenset(sources) for path, sources in back.items()})


class GraphCache:
    """Resolves lazily: once per change of the link snapshot or of the notes (both swapped whole).

    Most swaps are edits that leave the set of notes as it was: then each (target, folder) already resolved
    is reused, and only a create, rename or delete (a different set of notes) starts resolution afresh.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[object, object] | None = None
        self._graph = LinkGraph({}, {})
        self._paths: frozenset[str] = frozenset()
        self._resolver = LinkResolver(())
        self._memo: dict[tuple[str, str], str | None] = {}

    def _resolve(self, target: str, source: str) -> str | None:
        # Resolution depends on the source only through its folder (relative paths, same-folder preference).
        key = (target, posixpath.dirname(source))
        if key not in self._memo:
            self._memo[key] = self._resolver.resolve(target, source)
        return self._memo[key]

    def graph(self, links: Mapping[str, Sequence[str]], notes: Mapping[str, object]) -> LinkGraph:
        """`links` and `notes` are snapshots (identity says whether they changed); `notes` is keyed by path."""
        with self._lock:
            if self._key is not None and self._key[0] is links and self._key[1] is notes:
                return self._graph
            paths = frozenset(notes)
            if paths != self._paths:
                self._paths, self._resolver, self._memo = paths, LinkResolver(paths), {}
            graph = resolve_graph(links, paths, self._resolve)
            self._key, self._graph = (links, notes), graph
            return graph


def seed_notes(ranking: Sequence[Fused], chunks: Mapping[str, Chunk], seeds: int) -> list[str]:
    """The first `seeds` distinct notes of the fused ranking."""
    found: list[str] = []
    for fused in ranking:
        chunk = chunks.get(fused.chunk_id)
        if chunk is not None and chunk.path not in found:
            found.append(chunk.path)
            if len(found) >= seeds:
                break
    return found


def link_ranking(
    ranking: Sequence[Fused],
    chunks: Mapping[str, Chunk],
    by_note: Mapping[str, Sequence[str]],
    graph: LinkGraph,
    seeds: int,
    allow: Callable[[Chunk], bool] | None = None,
) -> list[str]:
    """The third list: one chunk per note one hop from a seed note, best first.

    A linked note the legs found is represented by its best-fused chunk, in fused order; a linked note they
    did not find comes after all of those, by its first chunk (the most seeds linking to it first, then by
    path), so it only ever gains the small bonus of a low rank. `allow` applies the search's filters.
    """
    linked: dict[str, int] = {}
    for seed in seed_notes(ranking, chunks, seeds):
        for path in graph.hop(seed):
            if path in by_note:
                linked[path] = linked.get(path, 0) + 1
    if not linked:
        return []
    found: list[str] = []
    seen: set[str] = set()
    for fused in ranking:
        chunk = chunks.get(fused.chunk_id)
        if chunk is None or chunk.path not in linked or chunk.path in seen:
            continue
        if allow is None or allow(chunk):
            seen.add(chunk.path)
            found.append(chunk.id)
    rest = sorted((p for p in linked if p not in seen), key=lambda p: (-linked[p], p))
    for path in rest:
        first = chunks.get(by_note[path][0]) if by_note[path] else None
        if first is not None and (allow is None or allow(first)):
            found.append(first.id)
    return found


def add_link_bonus(ranking: Sequence[Fused], link_ids: Sequence[str], rrf_k: int, weight: float) -> list[Fused]:
    """RRF with `link_ids` as one more list of weight `weight`: each gains weight / (rrf_k + its rank).

    The order is re-sorted by score; equal scores keep their fused order, and chunks only the link list
    returned come after every chunk a leg found with the same score.
    """
    if not link_ids or weight <= 0:
        return list(ranking)
    bonus = {chunk_id: (rank, weight / (rrf_k + rank)) for rank, chunk_id in enumerate(link_ids, start=1)}
    out: list[Fused] = []
    for fused in ranking:
        entry = bonus.pop(fused.chunk_id, None)
        if entry is None:
            out.append(fused)
        else:
            rank, extra = entry
            out.append(Fused(fused.chunk_id, fused.score + extra, {**fused.ranks, "link": rank}, "link"))
    out.extend(Fused(chunk_id, extra, {"link": rank}, "link") for chunk_id, (rank, extra) in bonus.items())
    order = {f.chunk_id: n for n, f in enumerate(out)}
    return sorted(out, key=lambda f: (-f.score, order[f.chunk_id]))
