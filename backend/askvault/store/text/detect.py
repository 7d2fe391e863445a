"""Which language a note or question is written in: py3langid, among the languages the keyword leg tells apart."""

from __future__ import annotations

import bisect
import functools
import itertools
import threading
from typing import cast

import py3langid  # type: ignore[import-untyped]  # ships no type information
import regex
from py3langid.langid import MODEL_FILE, LanguageIdentifier  # type: ignore[import-untyped]

from askvault.store.text.cjk import has_cjk
from askvault.store.text.languages import actionable_codes, language_code

MIN_CONFIDENCE = 0.5
"""Below this probability a text counts as undetected (the default language). Short texts score low, and a
wrong guess costs more than none: `Drucker reparieren` (0.46) stays undetected, `Fix the printer` too."""
MIN_LETTERS = 8
"""Fewer letters than this (`nginx 1.25`, `TODO`) are never detected: there is nothing to tell a language by. A
Han, kana or Hangul character counts as three, about what a syllable takes in an alphabet (`服务器备份` is five)."""
SAMPLE_CHARS = 500
"""Detection reads a note's first 500 letters (about 80 words): on the 514 notes of the sample vault, both real
corpora and the test fixtures it detects exactly what 1,000 and 3,000 do (so do 300), at 0.26 ms a note against
0.39 and 0.53; the cost stays bounded for any note."""

# Words only: numbers, punctuation, URLs' separators and code symbols carry no language and pull short notes
# towards whatever language the model has seen them in.
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}'’]*")
_HEAD_CHARS = 2 * SAMPLE_CHARS


def _sample(text: str) -> list[str] | None:
    """The words detection reads: from the start until `SAMPLE_CHARS` letters (a CJK character counting three);
    None when the whole text has fewer than `MIN_LETTERS`."""
    # Most notes reach the sample within their first few thousand characters: find the words there in one call,
    # and when none is CJK, count their letters without a loop in Python.
    head = _WORD.findall(text, 0, _HEAD_CHARS)
    if not has_cjk(text[:_HEAD_CHARS]):
        reached = bisect.bisect_left(list(itertools.accumulate(map(len, head))), SAMPLE_CHARS)
        # The last word found may be cut by the slice: only a sample that ends before it is settled.
        if reached < len(head) - 1 or len(text) <= _HEAD_CHARS:
            words = head[: reached + 1]
            return words if sum(map(len, words)) >= MIN_LETTERS else None
    words = []
    size = 0
    for match in _WORD.finditer(text):
        word = match.group()
        words.append(word)
        size += len(word) * 3 if has_cjk(word) else len(word)
        if size >= SAMPLE_CHARS:
            break
    return words if size >= MIN_LETTERS else None


def _labels(identifier: LanguageIdentifier) -> frozenset[str]:
    """py3langid's labels that name a language the keyword leg treats in its own way (`wuu` and `yue` are
    Chinese to it): a language with no stemmer of its own would be analysed as undetected anyway, and leaving
    out the 100 others keeps short English notes from turning into Frisian or Luxembourgish."""
    wanted = actionable_codes()
    labels = cast("list[str]", identifier.labels)
    return frozenset(label for label in labels if language_code(label) in wanted)


class LanguageDetector:
    """Thread-safe; the model (about 75 MB in memory, one to two seconds to load) is read on first use, once.

    The model is narrowed to `_labels` (`set_languages`: the softmax over those languages alone). The narrowed
    copy costs 8 MB beside the full table and takes about a fifth off each detection (40 columns scored, not 142).
    """

    def __init__(self, min_confidence: float = MIN_CONFIDENCE) -> None:
        self._min_confidence = min_confidence
        self._lock = threading.Lock()
        self._identifier: LanguageIdentifier | None = None
        self._labels: frozenset[str] = frozenset()

    @property
    def version(self) -> str:
        """Part of every note's fingerprint: another detector, model or threshold detects notes again."""
        return f"py3langid {py3langid.__version__} p>={self._min_confidence} letters>={MIN_LETTERS} {SAMPLE_CHARS}"

    def _model(self) -> LanguageIdentifier:
        identifier = self._identifier
        if identifier is None:
            with self._lock:
                identifier = self._identifier
                if identifier is None:
                    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
                    self._labels = _labels(identifier)
                    identifier.set_languages(sorted(self._labels))
                    self._identifier = identifier
        return identifier

    def detect(self, text: str) -> str | None:
        """The language code (`en`, `de`, `zh`…) of `text`, or None when it is too short or unclear."""
        words = _sample(text)
        if words is None:
            return None
        ranked = cast("list[tuple[str, float]]", self._model().rank(" ".join(words)))
        wanted = [(label, probability) for label, probability in ranked if label in self._labels]
        total = sum(probability for _, probability in wanted)
        if not wanted or total <= 0 or wanted[0][1] / total < self._min_confidence:
            return None
        return language_code(wanted[0][0])


@functools.cache
def shared_detector() -> LanguageDetector:
    """One detector per process: every engine (a sidecar, the evaluation's several) shares one loaded model."""
    return LanguageDetector()
