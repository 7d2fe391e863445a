"""Language detection of notes and questions: py3langid among the languages the keyword leg tells apart."""

from __future__ import annotations

import random
import threading

import pytest
import regex

from askvault.store.text.cjk import has_cjk
from askvault.store.text.detect import MIN_LETTERS, SAMPLE_CHARS, LanguageDetector, _sample, shared_detector

DETECTOR = shared_detector()

# Short, mixed notes of the kind a vault holds (written for these tests).
TEXTS: list[tuple[str, str, str | None]] = [
    ("en-errand", "Bought milk, eggs and bread. Call mum.", "en"),
    ("en-with-commands", "docker compose pull && docker compose up -d, then check Uptime Kuma", "en"),
    ("en-with-german-word", "Grandma's recipe for Apfelkuchen is in the Rezepte folder.", "en"),
    ("de-errand", "Morgen Zahnarzt um 9 Uhr, danach Einkaufen: Milch, Brot, Kartoffeln.", "de"),
    ("de-with-english-tech", "Traefik Config angepasst, jetzt läuft das Dashboard wieder über HTTPS.", "de"),
    ("de-recipe-step", "Kartoffeln schälen und in Würfel schneiden", "de"),
    ("fr", "Acheter du pain et du fromage pour le dîner de samedi.", "fr"),
    ("es", "Llamar al fontanero por la fuga del baño, viene el martes.", "es"),
    ("nl", "Boodschappen: melk, kaas, brood en appels voor de taart.", "nl"),
    ("zh", "服务器备份失败，需要检查硬盘空间。", "zh"),
    ("zh-with-latin", "更新了Docker镜像", "zh"),
    ("ja", "カレーの作り方：玉ねぎを炒めて、肉と野菜を入れて煮込む。", "ja"),
    ("ja-with-latin", "Dockerのイメージを更新した。", "ja"),
    ("ko", "서버 백업이 실패해서 디스크 용량을 확인해야 한다.", "ko"),
    ("too-short", "TODO", None),
    ("numbers-and-symbols", "10.0.0.5:8080 -> 443 ## 2024-03-01", None),
    ("two-words-unsure", "Drucker reparieren", None),
    ("empty", "", None),
]


@pytest.mark.parametrize(("text", "code"), [(t, c) for _, t, c in TEXTS], ids=[i for i, _, _ in TEXTS])
def test_detect(text: str, code: str | None) -> None:
    assert DETECTOR.detect(text) == code


def test_a_huge_note_is_read_only_as_far_as_it_needs() -> None:
    note = "Die Kartoffeln werden geschält und gewürfelt. " * 200_000 + "The end."
    assert DETECTOR.detect(note) == "de"


@pytest.mark.slow
def test_one_detector_is_shared_and_threads_agree() -> None:
    assert shared_detector() is DETECTOR
    texts = [text for _, text, _ in TEXTS] * 5
    expected = [DETECTOR.detect(text) for text in texts]
    fresh = LanguageDetector()
    results: dict[int, list[str | None]] = {}

    def work(worker: int) -> None:
        results[worker] = [fresh.detect(text) for text in texts]

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == expected for result in results.values())


def test_the_version_names_what_decides() -> None:
    assert DETECTOR.version.startswith("py3langid 0.4.0 ")
    assert LanguageDetector(min_confidence=0.9).version != DETECTOR.version


def sample_by_loop(text: str) -> list[str] | None:
    """The sample as first written: words one by one until enough letters, a CJK character counting three."""
    words: list[str] = []
    size = 0
    for word in regex.findall(r"\p{L}[\p{L}\p{M}'’]*", text):
        words.append(word)
        size += len(word) * 3 if has_cjk(word) else len(word)
        if size >= SAMPLE_CHARS:
            break
    return words if size >= MIN_LETTERS else None


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("nginx 1.25", id="too-few-letters"),
        pytest.param("word " * 400, id="long-ascii"),
        pytest.param("x" * (2 * SAMPLE_CHARS - 3) + " tail words here", id="a-word-cut-by-the-head"),
        pytest.param("a " * SAMPLE_CHARS + "long", id="reached-on-the-last-word-of-the-head"),
        pytest.param("Küche und Straße " * 60, id="non-ascii-letters"),
        pytest.param("服务器备份 " * 60 + "english after", id="cjk"),
        pytest.param("`code` 123 " * 300 + "finally some words", id="letters-only-after-the-head"),
    ],
)
def test_sample_is_the_loop(text: str) -> None:
    assert _sample(text) == sample_by_loop(text)


@pytest.mark.parametrize("seed", range(10))
def test_sample_is_the_loop_on_random_texts(seed: int) -> None:
    draw = random.Random(seed)
    pieces = ["word", "Ünïcode", "服务", "x", "'s", "12", " ", "\n", "-", "’", "é"]
    for _ in range(50):
        text = "".join(draw.choice(pieces) for _ in range(draw.randint(0, 900)))
        assert _sample(text) == sample_by_loop(text)
