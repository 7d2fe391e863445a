"""Rebuilds that reuse the last snapshot's postings score exactly like a fresh index and like rank-bm25's scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askvault.model import Chunk, ChunkInfo
from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.text.tokenize import Tokenizer
from tests.store.bm25_oracle import LuceneIdfBM25

# Digit-bearing tokens pass the tokenizer unchanged, so the reference model sees the same token lists.
VOCAB = [f"t{i}" for i in range(10)]

texts = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=12).map(" ".join)
corpora = st.dictionaries(st.sampled_from([f"c{i}" for i in range(25)]), texts, min_size=0, max_size=25)


def _everything(index: Bm25Index) -> list[tuple[str, float]]:
    result = index.search(" ".join(VOCAB), limit=100)
    return [(r.chunk_id, r.score) for r in result.ranked]


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(corpora, min_size=1, max_size=6), k1=st.sampled_from([0.5, 1.5]), b=st.sampled_from([0.0, 0.75]))
@pytest.mark.slow
def test_a_sequence_of_incremental_rebuilds_equals_a_fresh_rebuild(
    steps: list[dict[str, str]], k1: float, b: float
) -> None:
    """Each step removes, changes and adds chunks; the reused index must match one built from scratch."""
    index = Bm25Index(Tokenizer(), k1=k1, b=b)
    for corpus in steps:
        index.rebuild(corpus.items())
        fresh = Bm25Index(Tokenizer(), k1=k1, b=b)
        fresh.rebuild(corpus.items())

        assert len(index) == len(fresh) == len(corpus)
        assert _everything(index) == _everything(fresh)  # same ids, same order, bit-for-bit the same scores
        for term in [*VOCAB, "absent9"]:
            ours, theirs = index.search(term, limit=100), fresh.search(term, limit=100)
            assert ours.terms == theirs.terms
            assert ours.matched == theirs.matched
        tokenized = [text.split() for text in corpus.values()]
        if any(tokenized):
            reference = LuceneIdfBM25(tokenized, k1=k1, b=b)
            ids = list(corpus)
            for term in VOCAB:
                full = np.asarray(reference.get_scores([term]), dtype=np.float64)
                ranked = index.search(term, limit=100).ranked
                assert [r.score for r in ranked] == pytest.approx([full[ids.index(r.chunk_id)] for r in ranked])
                assert len(ranked) == int(np.count_nonzero(full))


ids = st.sampled_from([f"c{i}" for i in range(12)])
steps = st.lists(st.tuples(ids, texts, st.booleans()), min_size=0, max_size=16)


@settings(max_examples=150, deadline=None)
@given(sequence=st.lists(steps, min_size=1, max_size=5))
@pytest.mark.slow
def test_rebuilds_from_chunks_with_and_without_their_text_in_any_order_equal_a_fresh_rebuild(
    sequence: list[list[tuple[str, str, bool]]],
) -> None:
    """Each step lists chunks in any order, ids repeated (the first place, the last text), and those it marks
    unchanged given as `ChunkInfo` (without text) when the last rebuild holds them with that text."""
    index = Bm25Index(Tokenizer())
    held: dict[str, str] = {}
    for step in sequence:
        docs: list[ChunkInfo] = []
        for chunk_id, text, without_text in step:
            chunk = Chunk(chunk_id, f"{chunk_id}.md", chunk_id, (), 1, 1, text, text)
            docs.append(chunk.info() if without_text and held.get(chunk_id) == text else chunk)
        index.rebuild(docs)
        last = {chunk_id: text for chunk_id, text, _ in step}
        held = {chunk_id: last[chunk_id] for chunk_id in dict.fromkeys(c for c, _, _ in step)}
        fresh = Bm25Index(Tokenizer())
        fresh.rebuild(held.items())
        assert len(index) == len(fresh) == len(held)
        assert _everything(index) == _everything(fresh)  # same ids, same order, bit-for-bit the same scores
        for term in VOCAB:
            ours, theirs = index.search(term, limit=100), fresh.search(term, limit=100)
            assert (ours.ranked, ours.terms, ours.matched) == (theirs.ranked, theirs.terms, theirs.matched)


def test_a_kept_chunk_holding_a_term_past_uint16_keeps_its_count_beside_new_ones() -> None:
    huge = Chunk("huge", "huge.md", "huge", (), 1, 1, "spam " * 70_000 + "egg", "spam " * 70_000 + "egg")
    small = [_chunk(1, "spam egg egg"), _chunk(2, "egg bacon")]
    index = Bm25Index(Tokenizer())
    index.rebuild([small[0]])
    index.rebuild([huge, small[0].info()])
    index.rebuild([huge.info(), small[0].info(), small[1]])
    fresh = Bm25Index(Tokenizer())
    fresh.rebuild([huge, *small])
    for query in ["spam", "egg", "spam bacon"]:
        ours, theirs = index.search(query, 5), fresh.search(query, 5)
        assert (ours.ranked, ours.terms, ours.matched) == (theirs.ranked, theirs.terms, theirs.matched)


def test_a_vocabulary_mostly_gone_is_renumbered_and_still_scores_the_same() -> None:
    """Replacing every chunk with new words leaves the old terms unused; the renumbering must not mix them up."""
    old = [(f"c{i}", f"old{i}x old{i}y shared1") for i in range(3000)]
    new = [(f"c{i}", f"new{i}x shared1 shared1") for i in range(0, 3000, 3)]
    index = Bm25Index(Tokenizer())
    index.rebuild(old)
    index.rebuild(new)
    fresh = Bm25Index(Tokenizer())
    fresh.rebuild(new)

    for query in ["new300x", "old300x", "shared1", "new300x shared1 new9x"]:
        ours, theirs = index.search(query, limit=50), fresh.search(query, limit=50)
        assert (ours.ranked, ours.terms, ours.matched) == (theirs.ranked, theirs.terms, theirs.matched)
    assert index.search("old300x", limit=5).ranked == []


class _Counting(Tokenizer):
    """The real tokenizer, counting the texts it tokenizes."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def tokenize(self, text: str) -> list[str]:
        self.texts.append(text)
        return super().tokenize(text)


def _chunk(n: int, text: str, language: str = "") -> Chunk:
    return Chunk(f"c{n}", f"n{n}.md", f"n{n}", (), 1, 1, text, text, language=language)


def test_chunks_given_without_their_text_keep_what_the_last_rebuild_counted() -> None:
    chunks = [_chunk(0, "kodi libreelec kodi"), _chunk(1, "postgres port 5433"), _chunk(2, "kodi remote")]
    tokenizer = _Counting()
    index = Bm25Index(tokenizer)
    index.rebuild(chunks)
    changed = _chunk(2, "kodi remote batteries")
    tokenizer.texts.clear()
    index.rebuild([chunks[0].info(), chunks[1].info(), changed, _chunk(3, "new kodi note")])
    assert tokenizer.texts == ["kodi remote batteries", "new kodi note"]  # only new or changed text

    fresh = Bm25Index(Tokenizer())
    fresh.rebuild([chunks[0], chunks[1], changed, _chunk(3, "new kodi note")])
    for query in ["kodi", "batteries", "postgres 5433", "remote note"]:
        ours, theirs = index.search(query, 10), fresh.search(query, 10)
        assert (ours.ranked, ours.terms, ours.matched) == (theirs.ranked, theirs.terms, theirs.matched)


def test_the_same_text_in_another_language_is_tokenized_again() -> None:
    tokenizer = _Counting()
    index = Bm25Index(tokenizer)
    index.rebuild([_chunk(0, "running runners")])
    tokenizer.texts.clear()
    index.rebuild([_chunk(0, "running runners")])
    assert tokenizer.texts == []
    assert index.distinctive_terms(["c0"], 5) == ["run", "runner"]
    index.rebuild([_chunk(0, "running runners", language="de")])
    assert index.distinctive_terms(["c0"], 5) == ["runn", "running"]  # German stems: counted again


def test_a_chunk_without_its_text_that_no_rebuild_counted_is_refused() -> None:
    index = Bm25Index(Tokenizer())
    index.rebuild([_chunk(0, "kodi")])
    with pytest.raises(ValueError, match="c1"):
        index.rebuild([_chunk(0, "kodi").info(), _chunk(1, "postgres").info()])
    assert [r.chunk_id for r in index.search("kodi", 5).ranked] == ["c0"]  # the last good snapshot still serves
