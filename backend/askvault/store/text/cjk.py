"""CJK text for the keyword leg: runs of Han, kana and Hangul become overlapping character bigrams (pure)."""

from __future__ import annotations

import regex

# Chinese and Japanese write words without spaces, and Korean glues particles to its words (`김치를`), so a
# whitespace/word tokenizer makes one term of a whole clause that no query ever repeats. Overlapping bigrams
# (Lucene's CJKBigramFilter, the usual dependency-free answer) give every two-character word, and most longer
# words as their pieces, a term of its own; a query's bigrams meet the note's wherever the same characters
# stand side by side. Script_Extensions puts the prolonged sound mark `ー` and the iteration marks (`々`, `ゝ`)
# with their scripts; it also lists CJK punctuation (`。`, `、`, `「`) under them, so only letters and marks are
# taken. Han and kana share runs (`東京タワー`, `食べる`); Hangul is its own, as Korean spacing separates words.
_HAN_KANA = r"[[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]&&[\p{L}\p{M}]]"
_HANGUL = r"[\p{scx=Hangul}&&[\p{L}\p{M}]]"
_RUN = regex.compile(rf"{_HAN_KANA}+|{_HANGUL}+", regex.V1)
_ANY = regex.compile(rf"{_HAN_KANA}|{_HANGUL}", regex.V1)


def has_cjk(text: str) -> bool:
    return _ANY.search(text) is not None


def bigrams(run: str) -> list[str]:
    """`東京タワー` → 東京 京タ タワ ワー; one character stays a term of its own (`猫` → 猫)."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def split_runs(text: str) -> list[tuple[str, bool]]:
    """The text as (segment, is_cjk_run) in order, e.g. `更新Docker镜像` → (更新, True), (Docker, False),
    (镜像, True); empty segments are left out."""
    parts: list[tuple[str, bool]] = []
    start = 0
    for match in _RUN.finditer(text):
        if match.start() > start:
            parts.append((text[start : match.start()], False))
        parts.append((match.group(), True))
        start = match.end()
    if start < len(text):
        parts.append((text[start:], False))
    return parts
