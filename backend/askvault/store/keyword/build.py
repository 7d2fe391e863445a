"""BM25 snapshots and their rebuild: unchanged chunks' terms come from the last snapshot's postings, only new or
changed text is tokenized, and no text is kept."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from askvault.model import Chunk, ChunkInfo
from askvault.store.keyword.stats import Postings, Tf, bm25_weights, csr, text_digest
from askvault.store.text.multilingual import LanguageTokenizers, main_languages


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One immutable index generation; searches hold a reference to one while a rebuild makes the next."""

    ids: tuple[str, ...]
    vocab: dict[str, int]
    """Term → term number. Shared with later rebuilds, which add terms: a number past the end of `idf`, or a term
    whose postings are empty (df 0), is a term these chunks do not hold. A rebuild that renumbers the vocabulary
    (`stats.csr`) makes a new one, and this one is no longer written to."""
    idf: npt.NDArray[np.float64]
    """IDF per term number."""
    indptr: npt.NDArray[np.int64]
    """The postings of term t are positions indptr[t] to indptr[t + 1] of `docs` and `tf`."""
    docs: npt.NDArray[np.int32]
    """Chunk number of each posting, ascending within a term."""
    tf: Tf
    """Term frequency of each posting: uint16, or uint32 when some chunk holds a term more than 65,535 times."""
    norm: npt.NDArray[np.float64]
    """Per chunk number, k1·(1 − b + b·dl/avgdl). A posting's BM25 factor, tf·(k1 + 1) / (tf + norm), is computed
    when a query reads it (`weights`): 2 bytes a posting kept instead of 8, the same float64s."""
    lengths: npt.NDArray[np.uint32]
    """Per chunk number, its tokens, repeats included (rank-bm25's document length), for the next rebuild."""
    digests: npt.NDArray[np.int64]
    """Per chunk number, `text_digest` of the index text and language it was tokenized from: the next rebuild
    tokenizes a chunk again only when its text or language changed (the postings hold its terms until then)."""
    k1: float = 0.0
    """BM25's k1, which `weights` needs too (`norm` holds it and b for the rest)."""
    languages: tuple[str, ...] = ()
    """The vault's main languages (`multilingual.main_languages`): every question is analysed in each."""
    present: frozenset[str] = frozenset()
    """Every language some chunk is in: a question's own language counts only if notes are written in it."""
    words: list[str] = field(default_factory=list)
    """Term number → term (the inverse of `vocab`, shared with it the same way)."""
    numbers: Mapping[str, int] = field(default_factory=dict)
    """Chunk id → its number (position in `ids`)."""

    def weights(self, at: slice | npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """The BM25 term-frequency factors of the postings at `at`."""
        return bm25_weights(self.tf[at], self.norm[self.docs[at]], self.k1)


def empty() -> Snapshot:
    """A snapshot of no chunk, with a vocabulary of its own (the next rebuild writes to it)."""
    return Snapshot(
        ids=(),
        vocab={},
        idf=np.zeros(0, dtype=np.float64),
        indptr=np.zeros(1, dtype=np.int64),
        docs=np.zeros(0, dtype=np.int32),
        tf=np.zeros(0, dtype=np.uint16),
        norm=np.zeros(0, dtype=np.float64),
        lengths=np.zeros(0, dtype=np.uint32),
        digests=np.zeros(0, dtype=np.int64),
    )


class _Tokenized:
    """The terms (numbers in the shared vocabulary) and counts of the chunks tokenized in one rebuild, end to end
    in two flat arrays (4 bytes an entry), one run per chunk."""

    def __init__(self, tokenizers: LanguageTokenizers, vocab: dict[str, int], words: list[str]) -> None:
        self._tokenizers = tokenizers
        self._vocab = vocab
        self._words = words
        self.terms = array("i")
        self.counts = array("I")
        self.starts: list[int] = []
        self.lengths: list[int] = []
        """Per run, the chunk's tokens (repeats included)."""

    def add(self, text: str, language: str) -> int:
        """Tokenizes one chunk's text; returns its run."""
        counted = Counter(self._tokenizers.tokenize(text, language))
        vocab, words = self._vocab, self._words
        self.starts.append(len(self.terms))
        for word in counted:
            number = vocab.get(word)
            if number is None:
                number = vocab[word] = len(words)
                words.append(word)
            self.terms.append(number)
        self.counts.extend(counted.values())
        self.lengths.append(sum(counted.values()))
        return len(self.starts) - 1

    def postings(self, runs: npt.NDArray[np.int64], docs: npt.NDArray[np.int64], n_docs: int) -> Postings:
        """The postings of `runs`, each run's terms as chunk number `docs[i]`, sorted."""
        ends = np.asarray([*self.starts[1:], len(self.terms)], dtype=np.int64)
        starts = np.asarray(self.starts, dtype=np.int64)[runs]
        sizes = ends[runs] - starts
        # Each run's positions in the flat arrays: a run left out (its chunk id came again) is skipped.
        at = np.arange(int(sizes.sum()), dtype=np.int64) + np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
        terms = np.frombuffer(self.terms, dtype=np.intc).astype(np.int32)[at]
        counts = np.frombuffer(self.counts, dtype=np.uintc).astype(np.uint32)[at]
        return Postings.of(terms, np.repeat(docs, sizes).astype(np.int32), counts, n_docs)


def _kept(previous: Snapshot, old: npt.NDArray[np.int64], n_docs: int) -> Postings:
    """The previous snapshot's postings of the chunks kept, as their new numbers, sorted.

    `old[i]` is the previous number of new chunk i, or -1 when it was tokenized in this rebuild.
    """
    kept = np.flatnonzero(old >= 0)
    if not len(kept):
        return Postings(np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.uint16))
    to = np.full(len(previous.ids), -1, dtype=np.int32)
    to[old[kept]] = kept
    new_doc = to[previous.docs]
    keep = new_doc >= 0
    term = np.repeat(np.arange(len(previous.indptr) - 1, dtype=np.int32), np.diff(previous.indptr))
    postings = Postings(term[keep], new_doc[keep], previous.tf[keep])
    if len(kept) > 1 and not bool(np.all(np.diff(old[kept]) > 0)):
        # The kept chunks changed their order: their postings are no longer sorted by chunk within a term.
        return Postings.of(postings.term, postings.doc, postings.tf, n_docs)
    return postings


def build(
    previous: Snapshot,
    tokenizers: LanguageTokenizers,
    docs: Iterable[tuple[str, str] | ChunkInfo],
    k1: float,
    b: float,
) -> Snapshot:
    """The next snapshot: `docs` in their order (a repeated id keeps its first place and its last text), each
    `Chunk` or (id, text) pair tokenized unless the previous snapshot holds it with the same text and language, each
    `ChunkInfo` (no text) as the previous snapshot holds it (ValueError when it does not). The statistics are
    recounted over all of them, so the result equals a first rebuild of the same chunks."""
    vocab, words = (previous.vocab, previous.words) if previous.ids else ({}, [])
    tokenized = _Tokenized(tokenizers, vocab, words)
    place: dict[str, int] = {}
    old: list[int] = []
    """Per new chunk number: its previous number, or -1 when tokenized now."""
    run: list[int] = []
    """Per new chunk number: its run in `tokenized`, or -1 when kept."""
    digests: list[int] = []
    lengths: list[int] = []
    note_of: dict[str, str] = {}
    """Note (path) → language; a plain (id, text) pair is a note of its own in the default language."""
    for doc in docs:
        if isinstance(doc, ChunkInfo):
            chunk_id, text, language = doc.id, doc.index_text if isinstance(doc, Chunk) else None, doc.language
            note_of[doc.path] = language
        else:
            (chunk_id, text), language = doc, ""
            note_of["\x00" + chunk_id] = ""  # no path starts with NUL
        before = previous.numbers.get(chunk_id, -1)
        if text is None:
            if before < 0:
                raise ValueError(f"chunk {chunk_id!r} comes without its text and was not in the last rebuild")
            digest, fresh = int(previous.digests[before]), -1
        else:
            digest = text_digest(text, language)
            fresh = -1 if before >= 0 and int(previous.digests[before]) == digest else tokenized.add(text, language)
        if fresh >= 0:
            before = -1
        length = tokenized.lengths[fresh] if fresh >= 0 else int(previous.lengths[before])
        at = place.setdefault(chunk_id, len(old))
        if at == len(old):
            old.append(before)
            run.append(fresh)
            digests.append(digest)
            lengths.append(length)
        else:
            old[at], run[at], digests[at], lengths[at] = before, fresh, digest, length
    if not old:
        return empty()

    n_docs = len(old)
    runs = np.asarray(run, dtype=np.int64)
    fresh_docs = np.flatnonzero(runs >= 0)
    postings = _kept(previous, np.asarray(old, dtype=np.int64), n_docs).merged(
        tokenized.postings(runs[fresh_docs], fresh_docs, n_docs), n_docs
    )
    stats = csr(postings, np.asarray(lengths, dtype=np.int64), words, k1, b)
    if stats.words is not words:  # renumbered: a vocabulary of its own from here on
        words, vocab = stats.words, {word: number for number, word in enumerate(stats.words)}
    notes: Counter[str] = Counter()
    for language, n in Counter(note_of.values()).items():
        notes[tokenizers.code(language)] += n
    ids = tuple(place)
    return Snapshot(
        ids=ids,
        vocab=vocab,
        idf=stats.idf,
        indptr=stats.indptr,
        docs=stats.docs,
        tf=stats.tf,
        norm=stats.norm,
        lengths=np.asarray(lengths, dtype=np.uint32),
        digests=np.asarray(digests, dtype=np.int64),
        k1=k1,
        languages=main_languages(notes),
        present=frozenset(tokenizers.code(language) for language in set(note_of.values())),
        words=words,
        numbers=place,
    )
