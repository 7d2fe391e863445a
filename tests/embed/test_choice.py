"""Which embedder a command uses (configured, the index's own, the built-in default) and the record the index keeps."""

from __future__ import annotations

import pytest

from askvault.embed.choice import (
    BUILTIN,
    EmbedderRecord,
    EmbedderSpec,
    calibration_name,
    choose_embedder,
    spec_from_setting,
)

NOMIC = EmbedderRecord("ollama", "nomic-embed-text", 768, "search_document: ", "search_query: ", "nomic-embed-text@768")
LATEST = EmbedderSpec("ollama", "nomic-embed-text:latest")
MINILM = EmbedderSpec("ollama", "all-minilm")
BUILT = EmbedderRecord("builtin", "all-MiniLM-L6-v2", 384, "", "", "builtin-all-minilm-l6-v2-int8@384")


@pytest.mark.parametrize(
    ("setting", "recorded", "spec", "source", "replaces"),
    [
        pytest.param(None, None, BUILTIN, "default", None, id="nothing-either-way-is-built-in"),
        pytest.param("", None, BUILTIN, "default", None, id="empty-setting-is-unset"),
        pytest.param("  ", NOMIC, NOMIC.spec, "index", None, id="blank-setting-uses-the-index"),
        pytest.param(None, NOMIC, NOMIC.spec, "index", None, id="index-remembers-ollama"),
        pytest.param(None, BUILT, BUILTIN, "index", None, id="index-remembers-built-in"),
        pytest.param("builtin", None, BUILTIN, "configured", None, id="builtin-named"),
        pytest.param("Built-In", NOMIC, BUILTIN, "configured", NOMIC, id="builtin-over-ollama-index-rebuilds"),
        pytest.param("nomic-embed-text", NOMIC, NOMIC.spec, "configured", None, id="same-model-no-rebuild"),
        pytest.param("nomic-embed-text:latest", NOMIC, LATEST, "configured", None, id="latest-tag-is-the-same-model"),
        pytest.param("all-minilm", BUILT, MINILM, "configured", BUILT, id="ollama-over-built-in-rebuilds"),
        pytest.param("bge-m3", NOMIC, EmbedderSpec("ollama", "bge-m3"), "configured", NOMIC, id="another-ollama"),
    ],
)
def test_choose_embedder(
    setting: str | None,
    recorded: EmbedderRecord | None,
    spec: EmbedderSpec,
    source: str,
    replaces: EmbedderRecord | None,
) -> None:
    choice = choose_embedder(setting, recorded)
    assert choice.spec.backend == spec.backend
    assert choice.spec.same_as(spec)
    assert choice.source == source
    assert choice.replaces == replaces


@pytest.mark.parametrize(
    ("setting", "backend"),
    [("builtin", "builtin"), ("BUILTIN", "builtin"), ("built-in", "builtin"), ("all-MiniLM-L6-v2", "builtin"),
     ("all-minilm", "ollama"), ("nomic-embed-text", "ollama"), ("hf.co/x/y:Q8_0", "ollama")],
)  # fmt: skip
def test_spec_from_setting(setting: str, backend: str) -> None:
    assert spec_from_setting(setting).backend == backend


def test_a_record_survives_the_manifest() -> None:
    for record in (NOMIC, BUILT):
        assert EmbedderRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize(
    "raw", [None, "", "{", "[]", '{"backend": "builtin"}', '{"backend": "bench", "model": "x", "dimension": 4}',
            '{"backend": "ollama", "model": "x", "dimension": "many"}']
)  # fmt: skip
def test_an_unreadable_record_is_no_record(raw: str | None) -> None:
    assert EmbedderRecord.from_json(raw) is None


def test_what_the_user_reads() -> None:
    assert BUILTIN.label == "built-in all-MiniLM-L6-v2"
    assert NOMIC.spec.label == "Ollama: nomic-embed-text"
    rebuild = choose_embedder("builtin", NOMIC).describe()
    assert rebuild.startswith("The index was built with Ollama: nomic-embed-text; its vectors are rebuilt with")
    assert "keyword search covers" in rebuild
    assert "built in" in choose_embedder(None, None).describe()
    assert "this index was built with" in choose_embedder(None, NOMIC).describe()


def test_the_built_in_model_is_calibrated_as_all_minilm() -> None:
    assert calibration_name(BUILTIN) == "all-minilm"
    assert calibration_name(EmbedderSpec("ollama", "hf.co/x/nomic-embed-text:latest")) == "nomic-embed-text"
