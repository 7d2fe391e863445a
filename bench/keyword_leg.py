"""Keyword-leg benchmark: rebuild time and search latency of Bm25Index vs rank-bm25 get_scores vs bm25s.

Run by hand: `.venv/bin/python -m bench.keyword_leg [--sizes 10000 50000] [--queries 300]`.
Synthetic chunks of ~150 tokens drawn from a Zipf vocabulary. Two query sets of 3 words: `zipf` draws them like
the text (so the commonest words, present in most chunks, appear often: the worst case for candidate scoring),
`mid` draws them uniformly from frequency ranks 200-20,000 (names, tools, topics: what people look up). All three
engines score the same token lists, produced once by our tokenizer; latencies include no tokenizing except for
Bm25Index.search, which tokenizes its query.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

import bm25s
import numpy as np
import numpy.typing as npt

from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.text.tokenize import Tokenizer
from tests.store.bm25_oracle import LuceneIdfBM25

SYLLABLES = np.array(["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fu", "ga", "hi", "jo", "pe", "se"])
LIMIT = 50


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """Distinct pseudo-words of 2-4 syllables; the trailing `x` keeps them clear of English stop words."""
    words: set[str] = set()
    while len(words) < size:
        picks = rng.integers(0, len(SYLLABLES), size=(size, 4))
        lengths = rng.integers(2, 5, size=size)
        words.update("".join(SYLLABLES[row[:n]]) + "x" for row, n in zip(picks, lengths, strict=True))
    return sorted(words)[:size]


def zipf_sampler(size: int, rng: np.random.Generator, s: float = 1.07) -> Callable[[int], npt.NDArray[np.int64]]:
    weights = 1.0 / np.arange(1, size + 1, dtype=np.float64) ** s
    cumulative = np.cumsum(weights / weights.sum())

    def sample(count: int) -> npt.NDArray[np.int64]:
        picks: npt.NDArray[np.int64] = np.searchsorted(cumulative, rng.random(count)).astype(np.int64)
        return picks

    return sample


def clock(call: Callable[[], object]) -> float:
    """Milliseconds one call takes."""
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000.0


def line(name: str, samples: Sequence[float]) -> str:
    p50, p95 = np.percentile(np.asarray(samples), [50, 95])
    return f"    {name:<42} p50 {p50:7.2f} ms   p95 {p95:7.2f} ms"


def bm25s_top(retriever: bm25s.BM25, terms: list[str]) -> object:
    known = [term for term in terms if term in retriever.vocab_dict]  # bm25s rejects unknown tokens
    if not known:
        return None
    return retriever.retrieve([known], k=LIMIT, show_progress=False, n_threads=1)


def full_top(model: LuceneIdfBM25, terms: list[str]) -> list[int]:
    scores = model.get_scores(terms)
    top: list[int] = np.argsort(-scores, kind="stable")[:LIMIT].tolist()
    return [i for i in top if scores[i] > 0]


def run(size: int, n_queries: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    words = vocabulary(60_000, rng)
    sample = zipf_sampler(len(words), rng)
    lengths = np.clip(rng.normal(150, 40, size=size).astype(np.int64), 20, 400)
    texts = [" ".join(words[i] for i in sample(int(n)).tolist()) for n in lengths]
    docs = [(f"note-{i // 4}.md#{i % 4}", text) for i, text in enumerate(texts)]
    query_sets = {
        "zipf": [" ".join(words[i] for i in sample(3).tolist()) for _ in range(n_queries)],
        "mid": [" ".join(words[i] for i in rng.integers(200, 20_000, size=3).tolist()) for _ in range(n_queries)],
    }

    gc.collect()
    index = Bm25Index(Tokenizer())
    cold_s = clock(lambda: index.rebuild(docs)) / 1000
    warm_s = clock(lambda: index.rebuild(docs)) / 1000  # later rebuilds find the tokenizer's cache warm
    tokenizer = Tokenizer()
    start = time.perf_counter()
    corpus = [tokenizer.tokenize(text) for text in texts]
    tokenize_s = time.perf_counter() - start
    start = time.perf_counter()
    model = LuceneIdfBM25(corpus)
    model_s = time.perf_counter() - start
    retriever = bm25s.BM25(method="lucene")
    bm25s_s = clock(lambda: retriever.index(corpus, show_progress=False)) / 1000
    snap = index._snapshot  # a benchmark may look inside
    postings_mb = (snap.idf.nbytes + snap.indptr.nbytes + snap.docs.nbytes + snap.tf.nbytes + snap.norm.nbytes) / 1e6

    print(f"\n== {size:,} chunks, {int(lengths.sum()):,} tokens, {len(model.idf):,} distinct terms ==")
    print(f"  Bm25Index.rebuild: {cold_s:.2f} s cold tokenizer cache, {warm_s:.2f} s warm")
    print(f"    parts, measured apart: tokenize {tokenize_s:.2f} s (cold), rank-bm25 BM25Okapi stats {model_s:.2f} s")
    print(f"    postings arrays kept: {postings_mb:.0f} MB; bm25s index on the same tokens: {bm25s_s:.2f} s")
    print(f"  peak RSS of this process so far: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")

    half = {doc_id for doc_id, _ in docs[::2]}
    for name, queries in query_sets.items():
        terms = [tokenizer.query_terms(q) for q in queries]
        results = [index.search(q, LIMIT) for q in queries]
        agree = sum(
            [docs[i][0] for i in full_top(model, t)][:20] == [r.chunk_id for r in result.ranked[:20]]
            for t, result in zip(terms, results, strict=True)
        )
        candidates = [result.matched for result in results]
        print(
            f"  {name} queries: candidates p50 {statistics.median(candidates):,.0f} / max {max(candidates):,};"
            f" top-20 equal to rank-bm25 get_scores in {agree}/{len(queries)}"
        )
        print(line("Bm25Index.search (tokenizes the query)", [clock(partial(index.search, q, LIMIT)) for q in queries]))
        print(
            line(
                "Bm25Index.search, allow() passes half",
                [clock(partial(index.search, q, LIMIT, half.__contains__)) for q in queries],
            )
        )
        print(line("rank-bm25 get_scores + argsort", [clock(partial(full_top, model, t)) for t in terms]))
        print(line("bm25s retrieve (numpy backend)", [clock(partial(bm25s_top, retriever, t)) for t in terms]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for size in args.sizes:
        run(size, args.queries, args.seed)


if __name__ == "__main__":
    main()
