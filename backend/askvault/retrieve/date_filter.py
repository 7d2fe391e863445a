"""A question's date scope as a retrieval filter: which date a note has, and the scope's plan for one search."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from functools import lru_cache

from askvault.model import ChunkInfo, DateScopeReport, RankedId, SearchFilters
from askvault.query.dates import DateScope
from askvault.store.protocol import VectorStore

BASIS = "note_date_then_mtime"
"""How a note is dated (docs/api.md): a YYYY-MM-DD in its file name or folders, else its modification time."""
EXPLICIT_FILTER = "explicit_filter"
"""The request set modified_after/modified_before itself; those win over a phrase in the question."""
NOTHING_IN_RANGE = "nothing_in_range"
"""No note falls in the range (or none matched there): the search ran without the scope."""

_PATH_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?!\d)")


@lru_cache(maxsize=65536)
def path_date(path: str) -> date | None:
    """The daily-note date of a vault path: the last valid YYYY-MM-DD in the file name, else in its folders.

    `Daily/2024-03-06.md`, `Journal/2024-02-11 Talk with Tomas.md`, `Daily/2024/2024-03-06 Wed.md` all have one.
    """
    folders, _, name = path.rpartition("/")
    for part in (name, folders):
        for match in reversed(list(_PATH_DATE.finditer(part))):
            try:
                return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
            except ValueError:
                continue
    return None


def note_day(chunk: ChunkInfo, now: datetime) -> date:
    """The day a chunk's note counts as written: its path date, else its mtime's day in `now`'s time zone.

    Synced or checked-out vaults have meaningless mtimes, so a date the user wrote into the path comes first.
    (A frontmatter `date:` would come between the two; chunks do not carry frontmatter properties yet.)
    """
    day = path_date(chunk.path)
    if day is not None:
        return day
    return datetime.fromtimestamp(chunk.mtime, tz=now.tzinfo).date()


@dataclass(frozen=True, slots=True)
class DatePlan:
    """What one search does with the question's date phrase: `accept` narrows both legs when applied."""

    report: DateScopeReport | None
    accept: Callable[[ChunkInfo], bool] | None = None


NO_PLAN = DatePlan(report=None)


def _report(scope: DateScope, applied: bool, notes: int, reason: str | None) -> DateScopeReport:
    return DateScopeReport(scope.phrase, scope.start, scope.end, applied, BASIS, notes, reason)


def plan_date_scope(
    scope: DateScope | None, filters: SearchFilters, notes: Iterable[ChunkInfo], now: datetime
) -> DatePlan:
    """The scope of the question's date phrase (`AnalysedQuery.date_scope`), checked against the notes: applied
    only when a note is in it.

    `notes` needs one chunk of each note (a note's chunks share its path, tags and mtime, so one decides for all;
    more do no harm); it is only iterated when the query holds a date phrase. An explicit
    modified_after/modified_before in `filters` wins (the phrase is reported, not applied). `now` gives the
    zone an mtime's day is read in.
    """
    if scope is None:
        return NO_PLAN
    if filters.modified_after is not None or filters.modified_before is not None:
        return DatePlan(_report(scope, False, 0, EXPLICIT_FILTER))
    # Epoch bounds of the range in `now`'s zone: an mtime is compared as a number, not converted per chunk.
    low, high = (
        None if d is None else datetime.combine(d, time(), now.tzinfo).timestamp() for d in (scope.start, scope.end)
    )
    in_range: set[str] = set()
    for chunk in notes:
        if not filters.accepts(chunk):
            continue
        day = path_date(chunk.path)
        if day is not None:
            hit = scope.contains(day)
        else:
            hit = (low is None or chunk.mtime >= low) and (high is None or chunk.mtime < high)
        if hit:
            in_range.add(chunk.path)
    if not in_range:
        return DatePlan(_report(scope, False, 0, NOTHING_IN_RANGE))

    def accept(chunk: ChunkInfo) -> bool:
        return chunk.path in in_range

    return DatePlan(_report(scope, True, len(in_range), None), accept)


def without_scope(plan: DatePlan) -> DatePlan:
    """The plan for the retry when the scoped search found nothing: reported, not applied."""
    if plan.report is None:
        return plan
    r = plan.report
    return DatePlan(DateScopeReport(r.phrase, r.start, r.end, False, r.basis, r.notes, NOTHING_IN_RANGE))


def keep_accepted(
    ranked: Sequence[RankedId], chunks: Mapping[str, ChunkInfo], accept: Callable[[ChunkInfo], bool]
) -> list[RankedId]:
    """The entries whose chunk the scope accepts, order kept."""
    kept: list[RankedId] = []
    for entry in ranked:
        chunk = chunks.get(entry.chunk_id)
        if chunk is not None and accept(chunk):
            kept.append(entry)
    return kept


async def scoped_dense_search(
    store: VectorStore,
    vector: Sequence[float],
    limit: int,
    filters: SearchFilters,
    chunks: Mapping[str, ChunkInfo],
    accept: Callable[[ChunkInfo], bool],
) -> list[RankedId]:
    """The top `limit` accepted chunks by cosine: the store is asked for more until `limit` pass or it runs dry.

    The store filters by payload only, and a path date is not in the payload; asking again with a larger limit
    keeps the result exact (the same as filtering inside the store), at the cost of a longer list when the
    range is narrow.
    """
    fetch = limit * 4
    while True:
        ranked = await store.search(vector, fetch, filters)
        kept = keep_accepted(ranked, chunks, accept)
        if len(kept) >= limit or len(ranked) < fetch:
            return kept[:limit]
        fetch *= 4
