"""Language tags as notes and people write them → ISO 639-1 codes, and each code's Snowball stemmer."""

from __future__ import annotations

import pytest
import Stemmer

from askvault.store.text.languages import actionable_codes, code_of_algorithm, language_code, snowball_algorithm

CODES: list[tuple[str, str, str | None]] = [
    ("two-letter", "de", "de"),
    ("upper-case", "DE", "de"),
    ("region", "de-DE", "de"),
    ("posix-locale", "de_AT", "de"),
    ("script-and-region", "zh-Hant-TW", "zh"),
    ("three-letter-terminology", "deu", "de"),
    ("three-letter-bibliographic", "ger", "de"),
    ("english-name", "German", "de"),
    ("native-name", "Deutsch", "de"),
    ("snowball-name", "german", "de"),
    ("porter-is-english", "porter", "en"),
    ("padded", "  English ", "en"),
    ("native-cjk-name", "中文", "zh"),
    ("japanese-name", "Japanese", "ja"),
    ("korean-native", "한국어", "ko"),
    ("norwegian-bokmal", "nb-NO", "no"),
    ("cantonese-is-chinese", "yue", "zh"),
    ("unknown-but-well-formed", "vi", "vi"),
    ("word-of-three-letters", "yes", None),
    ("undetermined", "und", None),
    ("no-linguistic-content", "zxx", None),
    ("number", "42", None),
    ("sentence", "in German please", None),
    ("empty", "", None),
]


@pytest.mark.parametrize(("value", "code"), [(v, c) for _, v, c in CODES], ids=[i for i, _, _ in CODES])
def test_language_code(value: str, code: str | None) -> None:
    assert language_code(value) == code


ALGORITHMS: list[tuple[str, str, str | None]] = [
    ("german", "de", "german"),
    ("english", "en", "english"),
    ("norwegian", "no", "norwegian"),
    ("chinese-has-none", "zh", None),
    ("japanese-has-none", "ja", None),
    ("korean-has-none", "ko", None),
    ("unknown-has-none", "vi", None),
]


@pytest.mark.parametrize(("code", "algorithm"), [(c, a) for _, c, a in ALGORITHMS], ids=[i for i, _, _ in ALGORITHMS])
def test_snowball_algorithm(code: str, algorithm: str | None) -> None:
    assert snowball_algorithm(code) == algorithm


def test_every_stemmer_named_is_one_pystemmer_has() -> None:
    named = {snowball_algorithm(code) for code in actionable_codes()} - {None}
    assert named <= set(Stemmer.algorithms())


@pytest.mark.parametrize("algorithm", sorted(Stemmer.algorithms()))
def test_every_snowball_algorithm_has_a_language(algorithm: str) -> None:
    """`stem_language` may name any algorithm; a note detected in that language must get the same one."""
    assert language_code(code_of_algorithm(algorithm)) == code_of_algorithm(algorithm)
