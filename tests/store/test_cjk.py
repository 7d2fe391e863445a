"""CJK text in the keyword leg: runs of Han, kana and Hangul as character bigrams, in any note's language."""

from __future__ import annotations

import pytest

from askvault.store.text.cjk import bigrams, has_cjk, split_runs
from askvault.store.text.tokenize import Tokenizer

RUNS: list[tuple[str, str, list[tuple[str, bool]]]] = [
    ("chinese-with-latin", "更新Docker镜像", [("更新", True), ("Docker", False), ("镜像", True)]),
    ("japanese-kanji-and-kana-one-run", "東京タワーに", [("東京タワーに", True)]),
    ("prolonged-mark-stays-in-run", "コーヒー", [("コーヒー", True)]),
    ("iteration-mark-stays-in-run", "時々", [("時々", True)]),
    ("hangul-separate-from-han", "한국어中文", [("한국어", True), ("中文", True)]),
    ("ideographic-full-stop-splits", "猫。犬", [("猫", True), ("。", False), ("犬", True)]),
    ("latin-only", "plain text", [("plain text", False)]),
    ("empty", "", []),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in RUNS], ids=[i for i, _, _ in RUNS])
def test_split_runs(text: str, expected: list[tuple[str, bool]]) -> None:
    assert split_runs(text) == expected
    assert has_cjk(text) == any(cjk for _, cjk in expected)


BIGRAMS: list[tuple[str, str, list[str]]] = [
    ("two-characters", "镜像", ["镜像"]),
    ("overlapping", "東京タワー", ["東京", "京タ", "タワ", "ワー"]),
    ("one-character-is-a-unigram", "猫", ["猫"]),
    ("empty", "", []),
]


@pytest.mark.parametrize(("run", "expected"), [(r, e) for _, r, e in BIGRAMS], ids=[i for i, _, _ in BIGRAMS])
def test_bigrams(run: str, expected: list[str]) -> None:
    assert bigrams(run) == expected


TERMS: list[tuple[str, str, list[str]]] = [
    ("chinese-sentence", "服务器备份失败。", ["服务", "务器", "器备", "备份", "份失", "失败"]),
    ("chinese-fullwidth-comma-nfkc", "红烧肉，五花肉", ["红烧", "烧肉", "五花", "花肉"]),
    ("chinese-latin-stemmed-between", "更新了Docker镜像", ["更新", "新了", "docker", "镜像"]),
    ("japanese-mixed-scripts", "カレーを作る", ["カレ", "レー", "ーを", "を作", "作る"]),
    ("japanese-halfwidth-katakana-nfkc", "ｶﾚｰ", ["カレ", "レー"]),
    ("korean-words-and-particles", "김치찌개를 먹었다", ["김치", "치찌", "찌개", "개를", "먹었", "었다"]),
    ("english-words-around", "backups 备份 running", ["backup", "备份", "run"]),
    ("identifier-next-to-han", "服务器v2", ["服务", "务器", "v2"]),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in TERMS], ids=[i for i, _, _ in TERMS])
def test_cjk_terms_in_every_tokenizer(text: str, expected: list[str]) -> None:
    """Bigrams do not depend on the note's language: a Japanese phrase in an English note is still found."""
    assert Tokenizer().tokenize(text) == expected
    unstemmed = Tokenizer(None).tokenize(text)
    assert [term for term in unstemmed if has_cjk(term)] == [term for term in expected if has_cjk(term)]


@pytest.mark.parametrize(
    ("query", "note"),
    [
        ("备份", "服务器备份失败，需要检查硬盘空间。"),
        ("东京塔", "我们昨天去了东京塔看夜景。"),
        ("カレーの作り方", "今日はカレーの作り方を書いておく。"),
        ("김치찌개", "어제 김치찌개를 끓였다."),
    ],
    ids=["zh-word-in-sentence", "zh-three-characters", "ja-phrase", "ko-word-with-particle"],
)
def test_a_cjk_query_shares_terms_with_its_note(query: str, note: str) -> None:
    tokenizer = Tokenizer()
    assert set(tokenizer.query_terms(query)) <= set(tokenizer.tokenize(note))
