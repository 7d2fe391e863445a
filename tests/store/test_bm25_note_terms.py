"""The keyword index's note-level queries: a note's most distinctive terms, and a search for analysed terms."""

from __future__ import annotations

import pytest

from askvault.model import TermStat
from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.text.tokenize import Tokenizer

# d1 = [kodi kodi nas] (dl 3), d2 = [kodi backup] (dl 2), d3 = [backup cron zfs pool] (dl 4); avgdl 3.
# tf·idf as BM25 weighs it: kodi in d1 = ln 1.6 · 5/3.5 = 0.671, nas in d1 = ln(8/3) · 1 = 0.981,
# kodi in d2 = backup in d2 = ln 1.6 · 2.5/2.125 = 0.553.
DOCS = (("d1", "kodi kodi nas"), ("d2", "kodi backup"), ("d3", "backup cron zfs pool"))


def index_of(*docs: tuple[str, str]) -> Bm25Index:
    index = Bm25Index(Tokenizer())
    index.rebuild(docs)
    return index


@pytest.mark.parametrize(
    ("docs", "chunk_ids", "limit", "expected"),
    [
        (DOCS, ["d1"], 5, ["nas", "kodi"]),
        (DOCS, ["d1", "d2"], 5, ["kodi", "nas", "backup"]),
        (DOCS, ["d1", "d2"], 2, ["kodi", "nas"]),
        (DOCS, ["d3"], 5, ["cron", "pool", "zfs", "backup"]),
        ((("a", "gamma beta alpha"),), ["a"], 5, ["alpha", "beta", "gamma"]),
        (DOCS, ["nowhere"], 5, []),
        (DOCS, ["d1"], 0, []),
        ((), ["d1"], 5, []),
    ],
    ids=[
        "rare-beats-repeated",
        "summed-over-chunks",
        "limit",
        "common-term-last",
        "ties-by-term",
        "unknown-chunk",
        "zero-limit",
        "empty-index",
    ],
)
def test_distinctive_terms(
    docs: tuple[tuple[str, str], ...], chunk_ids: list[str], limit: int, expected: list[str]
) -> None:
    assert index_of(*docs).distinctive_terms(chunk_ids, limit) == expected


def test_distinctive_terms_follow_the_current_snapshot() -> None:
    index = index_of(*DOCS)
    index.rebuild([("d2", "kodi backup"), ("d4", "nas nas nas")])
    assert index.distinctive_terms(["d1"], 5) == []
    assert index.distinctive_terms(["d4"], 5) == ["nas"]


@pytest.mark.parametrize("query", ["kodi backup", "Backups of the NAS", "zfs"], ids=["two", "stemmed", "one"])
def test_search_terms_is_search_without_the_analysis(query: str) -> None:
    index = index_of(*DOCS, ("d5", "The NAS backups run nightly"))
    assert index.search_terms(index.query_terms(query), 10) == index.search(query, 10)


def test_search_terms_reports_unknown_terms_and_filters() -> None:
    index = index_of(*DOCS)
    result = index.search_terms(["kodi", "unheard"], 10, allow=lambda chunk_id: chunk_id != "d1")
    assert [r.chunk_id for r in result.ranked] == ["d2"]
    assert result.terms[1] == TermStat(term="unheard", df=0, idf=0.0)
    assert result.matched == 1
