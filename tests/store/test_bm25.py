"""BM25 keyword index: scores against a hand computation, tiny vaults, common terms, filters, ties, edge cases."""

from __future__ import annotations

import math

import pytest
from rank_bm25 import BM25Okapi

from askvault.errors import BadRequest
from askvault.model import TermStat
from askvault.store.keyword.bm25 import Bm25Index, lucene_idf
from askvault.store.protocol import KeywordIndex
from askvault.store.text.tokenize import Tokenizer


def index_of(*docs: tuple[str, str], k1: float = 1.5, b: float = 0.75) -> Bm25Index:
    index = Bm25Index(Tokenizer(), k1=k1, b=b)
    index.rebuild(docs)
    return index


def test_is_a_keyword_index() -> None:
    index: KeywordIndex = Bm25Index(Tokenizer())  # mypy checks the structural match
    index.rebuild(iter([("a", "kodi")]))  # any iterable, read once
    assert len(index) == 1


def test_scores_match_a_hand_computation() -> None:
    # Terms the tokenizer leaves as they are: d1 = [kodi kodi nas] (dl 3), d2 = [kodi backup] (dl 2),
    # d3 = [backup cron zfs pool] (dl 4). N = 3, avgdl = 9/3 = 3, k1 = 1.5, b = 0.75.
    index = index_of(("d1", "kodi kodi nas"), ("d2", "kodi backup"), ("d3", "backup cron zfs pool"))
    # idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)); kodi and backup both have df = 2: ln(1 + 1.5/2.5) = ln 1.6.
    idf = math.log(1.6)
    # BM25(d, q) = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 - b + b·dl/avgdl))
    d1 = idf * (2 * 2.5) / (2 + 1.5 * (0.25 + 0.75 * 3 / 3))  # kodi tf 2: 5/3.5
    d2 = idf * 2.5 / (1 + 1.5 * (0.25 + 0.75 * 2 / 3)) * 2  # kodi and backup, tf 1 each: 2.5/2.125 twice
    d3 = idf * 2.5 / (1 + 1.5 * (0.25 + 0.75 * 4 / 3))  # backup tf 1: 2.5/2.875
    result = index.search("kodi backup", limit=10)
    assert [r.chunk_id for r in result.ranked] == ["d2", "d1", "d3"]
    assert [r.score for r in result.ranked] == pytest.approx([d2, d1, d3], rel=1e-12)
    assert d2 == pytest.approx(2 * math.log(1.6) * 2.5 / 2.125)
    assert [(s.term, s.df) for s in result.terms] == [("kodi", 2), ("backup", 2)]
    assert [s.idf for s in result.terms] == pytest.approx([idf, idf])
    assert result.matched == 3


def test_rank_bm25_own_idf_fails_tiny_vaults_and_ours_does_not() -> None:
    """The quirk we guard: stock BM25Okapi scores the only chunk holding a term at or below zero."""
    one = BM25Okapi([["kodi", "librari"]])
    assert one.get_scores(["kodi"])[0] <= 0
    two = BM25Okapi([["kodi", "librari"], ["backup", "cron"]])
    assert two.get_scores(["kodi"])[0] <= 0

    single = index_of(("only", "Kodi library"))
    result = single.search("kodi", limit=5)
    assert [r.chunk_id for r in result.ranked] == ["only"]
    assert result.ranked[0].score > 0
    assert [(s.term, s.df) for s in result.terms] == [("kodi", 1)]
    assert result.terms[0].idf == pytest.approx(math.log(1 + 0.5 / 1.5))

    pair = index_of(("a", "Kodi library"), ("b", "Backup cron"))
    ranked = pair.search("kodi", limit=5).ranked
    assert [r.chunk_id for r in ranked] == ["a"]
    assert ranked[0].score > 0


def test_two_chunk_vault_ranks_the_better_match_first() -> None:
    index = index_of(("a", "backup cron nightly"), ("b", "kodi backup"))
    ranked = index.search("kodi backup", limit=5).ranked
    assert [r.chunk_id for r in ranked] == ["b", "a"]
    assert all(r.score > 0 for r in ranked)


def test_terms_in_half_the_chunks_or_more_still_count() -> None:
    docs = [(f"c{i}", "docker compose stack") for i in range(6)] + [("c6", "docker kodi"), ("c7", "nginx proxy")]
    index = index_of(*docs)
    result = index.search("docker kodi", limit=10)
    stats = {s.term: s for s in result.terms}
    assert stats["docker"].df == 7
    assert 0 < stats["docker"].idf < stats["kodi"].idf
    assert stats["docker"].idf == pytest.approx(lucene_idf(8, 7))
    assert result.ranked[0].chunk_id == "c6"
    assert len(result.ranked) == 7
    assert all(r.score > 0 for r in result.ranked)
    # A term in every chunk still scores positively rather than vanishing.
    everywhere = index_of(*[(f"c{i}", "docker") for i in range(4)])
    assert all(r.score > 0 for r in everywhere.search("docker", limit=10).ranked)


@pytest.mark.parametrize(
    ("terms", "chunk_ids", "held"),
    [
        pytest.param(
            ["kodi", "backup"], ["a", "b", "c"], {"a": {"kodi"}, "b": {"kodi", "backup"}, "c": set()}, id="each"
        ),
        pytest.param(["kodi"], ["gone", "a"], {"a": {"kodi"}}, id="an-unindexed-chunk-is-left-out"),
        pytest.param(["never", "cron"], ["a", "c"], {"a": set(), "c": {"cron"}}, id="unknown-term"),
        pytest.param(["kodi", "kodi"], ["b", "b"], {"b": {"kodi"}}, id="repeats"),
        pytest.param(["kodi"], [], {}, id="no-chunks"),
        pytest.param([], ["a"], {"a": set()}, id="no-terms"),
    ],
)
def test_held_terms(terms: list[str], chunk_ids: list[str], held: dict[str, set[str]]) -> None:
    index = index_of(("a", "Kodi library"), ("b", "kodi backup"), ("c", "cron nightly"))
    assert index.held_terms(terms, chunk_ids) == {cid: frozenset(found) for cid, found in held.items()}


def test_held_terms_read_the_postings_at_every_position() -> None:
    # Postings long enough that a binary search lands on the first, last and past-the-end places.
    docs = [(f"c{i:03}", "kodi backup" if i % 3 == 0 else "kodi" if i % 3 == 1 else "cron") for i in range(300)]
    index = index_of(*docs)
    found = index.held_terms(["kodi", "backup", "cron"], [cid for cid, _ in docs])
    for cid, text in docs:
        assert found[cid] == frozenset(Tokenizer().tokenize(text)), cid
    assert index.terms_in(["backup", "cron"], ["c001", "c004"]) == set()
    assert index.terms_in(["backup", "cron"], ["c001", "c297"]) == {"backup"}
    assert index.terms_in(["backup", "cron"], ["c001", "c299"]) == {"cron"}


def test_held_terms_follow_a_rebuild() -> None:
    index = index_of(("a", "kodi library"), ("b", "kodi backup"))
    index.rebuild([("a", "cron nightly"), ("b", "kodi backup")])
    assert index.held_terms(["kodi", "cron"], ["a", "b"]) == {"a": frozenset({"cron"}), "b": frozenset({"kodi"})}


def test_filter_applies_before_truncation() -> None:
    best = [(f"private/{i}", "kodi kodi kodi") for i in range(5)]
    rest = [(f"public/{i}", "kodi backup notes") for i in range(5)]
    index = index_of(*best, *rest)
    unfiltered = index.search("kodi", limit=3)
    assert all(r.chunk_id.startswith("private/") for r in unfiltered.ranked)
    filtered = index.search("kodi", limit=3, allow=lambda chunk_id: chunk_id.startswith("public/"))
    assert [r.chunk_id for r in filtered.ranked] == ["public/0", "public/1", "public/2"]
    assert filtered.matched == 5
    assert unfiltered.matched == 10


def test_filter_that_allows_nothing() -> None:
    index = index_of(("a", "kodi"), ("b", "kodi"))
    result = index.search("kodi", limit=5, allow=lambda _: False)
    assert result.ranked == []
    assert result.matched == 0
    assert result.terms[0].df == 2


def test_ties_follow_chunk_order_and_survive_truncation() -> None:
    docs = [("z-last-id", "nas backup"), ("a-first-id", "nas backup"), ("m", "nas backup"), ("other", "cron")]
    index = index_of(*docs)
    assert [r.chunk_id for r in index.search("nas", limit=2).ranked] == ["z-last-id", "a-first-id"]
    assert [r.chunk_id for r in index.search("nas", limit=10).ranked] == ["z-last-id", "a-first-id", "m"]


def test_or_semantics_partial_matches_are_returned() -> None:
    index = index_of(("a", "kodi library"), ("b", "backup cron"), ("c", "nothing relevant"))
    result = index.search("kodi backup zfs", limit=10)
    assert {r.chunk_id for r in result.ranked} == {"a", "b"}
    assert result.matched == 2
    assert result.terms[-1] == TermStat("zfs", 0, 0.0)


@pytest.mark.parametrize(
    ("query", "expected_terms"),
    [("what is it", []), ("", []), ("?!", []), ("unknownterm", ["unknownterm"])],
    ids=["stop-words-only", "empty", "punctuation", "absent-term"],
)
def test_queries_that_match_nothing(query: str, expected_terms: list[str]) -> None:
    index = index_of(("a", "kodi library"))
    result = index.search(query, limit=5)
    assert result.ranked == []
    assert result.matched == 0
    assert [s.term for s in result.terms] == expected_terms


def test_empty_index() -> None:
    index = Bm25Index(Tokenizer())
    assert len(index) == 0
    assert index.search("kodi", limit=5).ranked == []
    index.rebuild([])
    assert len(index) == 0
    assert index.search("kodi", limit=5).terms == [TermStat("kodi", 0, 0.0)]


def test_chunks_without_terms_are_indexed_but_never_match() -> None:
    index = index_of(("empty", "the of and"), ("blank", ""))
    assert len(index) == 2
    assert index.search("the kodi", limit=5).ranked == []


def test_rebuild_replaces_everything() -> None:
    index = index_of(("a", "kodi"), ("b", "backup"))
    index.rebuild([("c", "nginx proxy")])
    assert len(index) == 1
    assert index.search("kodi", limit=5).ranked == []
    assert [r.chunk_id for r in index.search("nginx", limit=5).ranked] == ["c"]


def test_repeated_chunk_id_keeps_one_entry_with_the_last_text() -> None:
    index = index_of(("a", "kodi"), ("b", "cron"), ("a", "nginx"))
    assert len(index) == 2
    assert index.search("kodi", limit=5).ranked == []
    assert [r.chunk_id for r in index.search("nginx cron", limit=5).ranked] == ["a", "b"]


@pytest.mark.parametrize("limit", [0, -1], ids=["zero", "negative"])
def test_limit_must_be_positive(limit: int) -> None:
    with pytest.raises(BadRequest, match="limit"):
        index_of(("a", "kodi")).search("kodi", limit=limit)


@pytest.mark.parametrize(
    ("k1", "b"), [(-0.1, 0.75), (math.inf, 0.75), (1.5, 1.1), (1.5, -0.1)], ids=["k1<0", "k1-inf", "b>1", "b<0"]
)
def test_parameters_are_checked(k1: float, b: float) -> None:
    with pytest.raises(ValueError, match=r"k1|b"):
        Bm25Index(Tokenizer(), k1=k1, b=b)


def test_b_zero_ignores_length_and_k1_zero_ignores_frequency() -> None:
    no_length = index_of(("short", "kodi"), ("long", "kodi library cleanup thumbnails cache prune weekly"), b=0.0)
    scores = [r.score for r in no_length.search("kodi", limit=5).ranked]
    assert scores[0] == pytest.approx(scores[1])
    no_tf = index_of(("many", "kodi kodi kodi"), ("one", "kodi"), k1=0.0)
    scores = [r.score for r in no_tf.search("kodi", limit=5).ranked]
    assert scores[0] == pytest.approx(scores[1])
