"""Language tags: what a note's `lang` says (`de`, `de-DE`, `German`, `Deutsch`…) → one ISO 639-1 code, and
which Snowball stemmer each code has (pure)."""

from __future__ import annotations

import regex

# Code → (Snowball algorithm or None, names people write in frontmatter, English first). Only languages the
# keyword leg treats differently need a name here: a Snowball stemmer, or CJK (bigrams, no stemmer). Any other
# well-formed code (`vi`, `th`) is still accepted as it is and gets no stemming.
_TABLE: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "ar": ("arabic", ("arabic", "العربية")),
    "ca": ("catalan", ("catalan", "català")),
    "cs": ("czech", ("czech", "čeština")),
    "da": ("danish", ("danish", "dansk")),
    "de": ("german", ("german", "deutsch")),
    "el": ("greek", ("greek", "ελληνικά")),
    "en": ("english", ("english",)),
    "eo": ("esperanto", ("esperanto",)),
    "es": ("spanish", ("spanish", "español", "castellano")),
    "et": ("estonian", ("estonian", "eesti")),
    "eu": ("basque", ("basque", "euskara")),
    "fa": ("persian", ("persian", "farsi", "فارسی")),
    "fi": ("finnish", ("finnish", "suomi")),
    "fr": ("french", ("french", "français")),
    "ga": ("irish", ("irish", "gaeilge")),
    "hi": ("hindi", ("hindi", "हिन्दी")),
    "hu": ("hungarian", ("hungarian", "magyar")),
    "hy": ("armenian", ("armenian", "հայերեն")),
    "id": ("indonesian", ("indonesian", "bahasa indonesia")),
    "it": ("italian", ("italian", "italiano")),
    "ja": (None, ("japanese", "日本語")),
    "ko": (None, ("korean", "한국어")),
    "lt": ("lithuanian", ("lithuanian", "lietuvių")),
    "ne": ("nepali", ("nepali", "नेपाली")),
    "nl": ("dutch", ("dutch", "nederlands")),
    "no": ("norwegian", ("norwegian", "norsk", "bokmål", "nynorsk")),
    "pl": ("polish", ("polish", "polski")),
    "pt": ("portuguese", ("portuguese", "português")),
    "ro": ("romanian", ("romanian", "română")),
    "ru": ("russian", ("russian", "русский")),
    "sr": ("serbian", ("serbian", "српски", "srpski")),
    "st": ("sesotho", ("sesotho", "sotho")),
    "sv": ("swedish", ("swedish", "svenska")),
    "ta": ("tamil", ("tamil", "தமிழ்")),
    "tr": ("turkish", ("turkish", "türkçe")),
    "yi": ("yiddish", ("yiddish", "ייִדיש")),
    "zh": (None, ("chinese", "中文", "汉语", "漢語", "普通话", "mandarin")),
}

# ISO 639-2/3 codes and macro-language members people (and detectors) use for the languages above.
_ALIASES: dict[str, str] = {
    "ara": "ar", "cat": "ca", "ces": "cs", "cze": "cs", "dan": "da", "deu": "de", "ger": "de", "gsw": "de",
    "ell": "el", "gre": "el", "eng": "en", "epo": "eo", "spa": "es", "est": "et", "eus": "eu", "baq": "eu",
    "fas": "fa", "per": "fa", "fin": "fi", "fra": "fr", "fre": "fr", "gle": "ga", "hin": "hi", "hun": "hu",
    "hye": "hy", "arm": "hy", "ind": "id", "ita": "it", "jpn": "ja", "kor": "ko", "lit": "lt", "nep": "ne",
    "nld": "nl", "dut": "nl", "nor": "no", "nob": "no", "nno": "no", "nb": "no", "nn": "no", "pol": "pl",
    "por": "pt", "ron": "ro", "rum": "ro", "rus": "ru", "srp": "sr", "sot": "st", "swe": "sv", "tam": "ta",
    "tur": "tr", "yid": "yi", "zho": "zh", "chi": "zh", "cmn": "zh", "yue": "zh", "wuu": "zh",
}  # fmt: skip

_SNOWBALL_CODES: dict[str, str] = {"porter": "en", "dutch_porter": "nl"}
"""Snowball algorithms that are a variant of a language's main one."""

_NAMES: dict[str, str] = {name: code for code, (_, names) in _TABLE.items() for name in names}
_NAMES.update({algorithm: code for code, (algorithm, _) in _TABLE.items() if algorithm is not None})
_TAG = regex.compile(r"(?<primary>[a-z]{2,3})(?:[-_][a-z0-9]{1,8})*")
"""BCP 47 / POSIX locale shape: a primary language subtag, then script, region or variant subtags."""


def language_code(value: str) -> str | None:
    """One ISO 639-1 code for what a note or a person calls a language: `de`, `DE`, `de-DE`, `de_AT`, `deu`,
    `German`, `Deutsch`, `german` (a Snowball name) → `de`; `zh-Hant-TW`, `中文` → `zh`; `vi` stays `vi`. None for
    anything that is not a language tag or a known name (`yes`, `42`, `zxx`)."""
    folded = " ".join(value.split()).casefold()
    if not folded:
        return None
    named = _NAMES.get(folded)
    if named is not None:
        return named
    if folded in _SNOWBALL_CODES:
        return _SNOWBALL_CODES[folded]
    match = _TAG.fullmatch(folded)
    if match is None:
        return None
    primary = match["primary"]
    if primary in _ALIASES:
        return _ALIASES[primary]
    # Any two letters are an ISO 639-1 code; three letters could as well be a word (`yes`, `und`), so only the
    # three-letter codes of the table's languages are taken.
    return primary if len(primary) == 2 else None


def snowball_algorithm(code: str) -> str | None:
    """The Snowball stemmer for a code from `language_code`; None when Snowball has none (CJK, `vi`, …)."""
    entry = _TABLE.get(code)
    return entry[0] if entry is not None else None


def code_of_algorithm(algorithm: str) -> str:
    """The language a Snowball algorithm stems: `german` → `de`, `porter` → `en`."""
    code = _SNOWBALL_CODES.get(algorithm) or _NAMES.get(algorithm)
    if code is None:
        raise ValueError(f"{algorithm!r} is not a Snowball algorithm of a known language")
    return code


def actionable_codes() -> frozenset[str]:
    """Every code the keyword leg treats in its own way (a stemmer, or CJK): what detection chooses among."""
    return frozenset(_TABLE)
