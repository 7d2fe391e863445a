"""Candidate scoring equals rank-bm25's full `get_scores`; snapshots swap safely under concurrent searches."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askvault.store.keyword.bm25 import Bm25Index, lucene_idf
from askvault.store.text.tokenize import Tokenizer
from tests.store.bm25_oracle import LuceneIdfBM25

# Tokens the tokenizer keeps exactly as written (a digit: never stemmed, never a stop word), so the reference
# model can be fed the same token lists the index builds from.
VOCAB = [f"t{i}" for i in range(12)]

corpora = st.lists(st.lists(st.sampled_from(VOCAB), min_size=0, max_size=15), min_size=1, max_size=30)
queries = st.lists(st.sampled_from([*VOCAB, "absent9"]), min_size=1, max_size=5)
params = st.tuples(st.sampled_from([0.0, 0.5, 1.2, 1.5, 2.0]), st.sampled_from([0.0, 0.3, 0.75, 1.0]))


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, query=queries, kb=params, limit=st.integers(min_value=1, max_value=40))
@pytest.mark.slow
def test_candidate_scores_equal_full_get_scores(
    corpus: list[list[str]], query: list[str], kb: tuple[float, float], limit: int
) -> None:
    k1, b = kb
    tokenizer = Tokenizer()
    index = Bm25Index(tokenizer, k1=k1, b=b)
    index.rebuild((f"c{i}", " ".join(tokens)) for i, tokens in enumerate(corpus))
    terms = tokenizer.query_terms(" ".join(query))
    assert terms == list(dict.fromkeys(query))

    result = index.search(" ".join(query), limit=limit)

    if all(not tokens for tokens in corpus):
        assert result.ranked == []
        return
    reference = LuceneIdfBM25(corpus, k1=k1, b=b)
    full = _term_by_term(lambda term: reference.get_scores([term]), terms, len(corpus))
    # Stock rank-bm25 scoring on the chunks we treat as candidates gives the same numbers.
    candidates = [int(r.chunk_id[1:]) for r in result.ranked]
    if candidates:
        batch = _term_by_term(lambda term: reference.get_batch_scores([term], candidates), terms, len(candidates))
        assert [r.score for r in result.ranked] == pytest.approx(batch.tolist(), rel=1e-9)

    matching = [i for i in range(len(corpus)) if full[i] > 0]
    assert result.matched == len(matching)
    expected = sorted(matching, key=lambda i: (-full[i], i))[:limit]
    # Same formula, same operation order: the floats agree bit for bit, so even near-ties order the same.
    assert [int(r.chunk_id[1:]) for r in result.ranked] == expected
    assert [r.score for r in result.ranked] == pytest.approx([full[i] for i in expected], rel=1e-9)
    for stat in result.terms:
        df = sum(stat.term in tokens for tokens in corpus)
        assert stat.df == df
        assert stat.idf == (pytest.approx(lucene_idf(len(corpus), df)) if df else 0.0)


def _term_by_term(score: Callable[[str], object], terms: list[str], size: int) -> npt.NDArray[np.float64]:
    """rank-bm25's sum, one term at a time in the same order: it divides 0 by 0 for a term missing from a chunk
    when k1 = 0 (or b = 1 and the chunk is empty), which poisons the whole sum, though that term adds 0."""
    total = np.zeros(size, dtype=np.float64)
    for term in terms:
        with np.errstate(invalid="ignore"):
            total += np.nan_to_num(np.asarray(score(term), dtype=np.float64))
    return total


def test_searches_during_rebuilds_always_see_one_whole_snapshot() -> None:
    """Rebuilds alternate between two corpora while searches run; every result must come entirely from one."""
    corpus_a = [(f"a{i}", f"alpha shared {'kodi ' * (i % 5)}") for i in range(400)]
    corpus_b = [(f"b{i}", f"alpha shared beta {'kodi ' * (i % 3)}") for i in range(250)]
    index = Bm25Index(Tokenizer())
    index.rebuild(corpus_a)
    stop = threading.Event()
    seen: list[tuple[str, int, int]] = []
    errors: list[BaseException] = []

    def searcher() -> None:
        try:
            while not stop.is_set():
                result = index.search("alpha kodi", limit=20)
                prefixes = {r.chunk_id[0] for r in result.ranked}
                seen.append(("".join(sorted(prefixes)), result.matched, result.terms[0].df))
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=searcher) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        for round_number in range(30):
            index.rebuild(corpus_b if round_number % 2 == 0 else corpus_a)
    finally:
        stop.set()
        for thread in threads:
            thread.join()

    assert errors == []
    assert seen
    # Each search saw either all of A (400 chunks hold "alpha") or all of B (250), never a mix.
    assert set(seen) <= {("a", 400, 400), ("b", 250, 250)}
