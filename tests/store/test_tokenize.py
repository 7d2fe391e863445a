"""The keyword tokenizer: words, stop words, stems, identifiers and compounds, languages, query terms."""

from __future__ import annotations

import threading

import pytest

from askvault.errors import ConfigError
from askvault.store.text import tokenize
from askvault.store.text.tokenize import Tokenizer

ENGLISH = Tokenizer()

TABLE: list[tuple[str, str, list[str]]] = [
    # id, text, expected terms (in order, repeats kept)
    ("plain-words-stemmed", "Backups running nightly", ["backup", "run", "night"]),
    ("stop-words-dropped", "What does the Kodi maintenance workflow do?", ["kodi", "mainten", "workflow"]),
    ("casefold", "KODI Kodi kodi", ["kodi", "kodi", "kodi"]),
    ("possessive", "Kodi’s library", ["kodi", "librari"]),
    ("contraction-is-stop-word", "don't stop", ["stop"]),
    ("port-number", "Postgres listens on port 5433.", ["postgr", "listen", "port", "5433"]),
    ("random-id-whole-unstemmed", "token nANsCsF9gf975ojT", ["token", "nanscsf9gf975ojt"]),
    ("ip-address", "10.0.0.5", ["10.0.0.5", "10"]),
    ("ip-with-port", "10.0.0.5:8080", ["10.0.0.5:8080", "10.0.0.5", "10", "8080"]),
    ("dash-underscore-compound", "my-service_v2", ["my-service_v2", "servic", "v2"]),
    ("version", "v1.2.3", ["v1.2.3", "v1"]),
    ("version-number-only", "1.2.30", ["1.2.30", "30"]),
    ("date", "2024-01-15", ["2024-01-15", "2024", "01", "15"]),
    ("css-variable", "--background-primary", ["background-primary", "background", "primari"]),
    ("hostname", "nas.local", ["nas.local", "nas", "local"]),
    ("email", "alice@example.com", ["alice@example.com", "example.com", "alic", "exampl", "com"]),
    ("unix-path", "/etc/nginx/nginx.conf", ["etc/nginx/nginx.conf", "nginx.conf", "etc", "nginx", "nginx", "conf"]),
    ("windows-path", "C:\\Users\\me", ["c:\\users\\me", "user"]),
    (
        "url",
        "https://grafana.nas.local:3000/d/abc",
        [
            "https://grafana.nas.local:3000/d/abc",
            "grafana.nas.local",
            "https",
            "grafana",
            "nas",
            "local",
            "3000",
            "abc",
        ],
    ),
    ("key-value", "retries=5", ["retries=5", "retri"]),
    ("camel-case", "camelCase", ["camelcas", "camel", "case"]),
    ("pascal-case", "PascalCase", ["pascalcas", "pascal", "case"]),
    ("acronym-then-word", "HTTPServer", ["httpserver", "http", "server"]),
    ("word-acronym-word", "getHTTPResponse", ["gethttprespons", "get", "http", "respons"]),
    ("camel-trailing-digits", "myService2", ["myservice2", "servic"]),
    ("mixed-case-not-camel", "iPhone", ["iphon"]),
    ("upper-acronym", "ZFS NAS", ["zfs", "nas"]),
    ("snake-case-constant", "MAX_RETRIES", ["max_retries", "max", "retri"]),
    ("hyphenated-word", "well-known", ["well-known", "well", "known"]),
    ("single-char-parts-dropped", "a.b", ["a.b"]),
    ("standalone-digit-kept", "step 5", ["step", "5"]),
    ("unicode-nfkc", "ﬁle Ｒｅａｄｍｅ", ["file", "readm"]),
    ("unicode-casefold-eszett", "Straße", ["strass"]),
    ("unicode-accents", "Ünïcödé ÉCOLE", ["ünïcödé", "école"]),
    ("devanagari-marks-kept", "हिन्दी भाषा", ["हिन्दी", "भाषा"]),
    ("tag-hash-stripped", "#homelab", ["homelab"]),
    ("punctuation-only", "… — !? ()", []),
    ("empty", "", []),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in TABLE], ids=[i for i, _, _ in TABLE])
def test_tokenize(text: str, expected: list[str]) -> None:
    assert ENGLISH.tokenize(text) == expected


QUERIES: list[tuple[str, str, list[str]]] = [
    ("unique-first-seen-order", "kodi backup kodi Backups", ["kodi", "backup"]),
    ("all-stop-words-no-terms", "what is it", []),
    ("stop-words-and-punctuation", "Is it?! What... was that", []),
    ("ip-shares-prefix-term", "10.0.0.5 and 10.0.0.6", ["10.0.0.5", "10", "10.0.0.6"]),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in QUERIES], ids=[i for i, _, _ in QUERIES])
def test_query_terms(text: str, expected: list[str]) -> None:
    assert ENGLISH.query_terms(text) == expected


def test_index_and_query_agree_on_exact_values() -> None:
    """A value typed in a question yields its whole form, and so does the note that holds it."""
    note = ENGLISH.tokenize("Set `--background-primary: #1e1e2e;` on nas.local (v1.2.3) for id nANsCsF9gf975ojT.")
    for value in ["--background-primary", "nas.local", "v1.2.3", "nANsCsF9gf975ojT", "NANSCSF9GF975OJT"]:
        whole = ENGLISH.query_terms(value)[0]
        assert whole in note, value


def test_stop_words_come_from_the_snowball_list() -> None:
    stop = ENGLISH.stop_words
    assert {"the", "what", "does", "is", "it", "do"} <= stop
    # Words a vault is searched for stay (a 1,300-word list would drop these).
    assert not {"home", "system", "computer", "copy", "fix", "test", "run", "free"} & stop


LANGUAGES: list[tuple[str, str, str, list[str]]] = [
    ("german", "german", "Die Häuser und die Straßen", ["haus", "strass"]),
    ("french-elision", "french", "L'école est fermée", ["écol", "ferm"]),
    ("spanish", "spanish", "Las casas de los servidores", ["cas", "servidor"]),
    ("case-insensitive-name", " English ", "The running servers", ["run", "server"]),
    ("porter-uses-english-stop-words", "porter", "the running servers", ["run", "server"]),
    ("finnish-stems-without-stop-list", "finnish", "talossa ja talot", ["talo", "ja", "talo"]),
    ("tamil-marks-kept-and-stemmed", "tamil", "தமிழ் மொழிகள்", ["தமிழ்", "மொழி"]),
]


@pytest.mark.parametrize(
    ("language", "text", "expected"), [(lang, t, e) for _, lang, t, e in LANGUAGES], ids=[i for i, *_ in LANGUAGES]
)
def test_languages(language: str, text: str, expected: list[str]) -> None:
    assert Tokenizer(language).tokenize(text) == expected


def test_language_is_normalised() -> None:
    assert Tokenizer(" German").language == "german"


@pytest.mark.parametrize("language", ["klingon", "", "en_US"], ids=["unknown", "empty", "locale"])
def test_unknown_language_is_a_config_error_naming_it(language: str) -> None:
    with pytest.raises(ConfigError, match=f"unknown stemming language '{language}'") as caught:
        Tokenizer(language)
    assert "english" in caught.value.message


def test_tokenizing_from_many_threads_matches_one_thread() -> None:
    """Each thread stems with its own PyStemmer object; results must not depend on interleaving."""
    texts = [f"Running backups of service{i} on host-{i}.lan with camelCaseNames and stemmed words" for i in range(300)]
    expected = [Tokenizer().tokenize(text) for text in texts]
    shared = Tokenizer()
    results: dict[int, list[list[str]]] = {}

    def work(worker: int) -> None:
        results[worker] = [shared.tokenize(text) for text in texts]

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == expected for result in results.values())


def test_a_full_cache_stops_growing_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Kodi kodi nas.local 10.0.0.5 camelCase the backups 5433 kodi NAS.local"
    expected = Tokenizer().tokenize(text)
    monkeypatch.setattr(tokenize, "_CACHE_LIMIT", 3)
    small = Tokenizer()
    assert small.tokenize(text) == expected
    assert small.tokenize(text) == expected
    assert len(small._cache) == 3
