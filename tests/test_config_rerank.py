"""Reranker and date-scoping settings come from flags, environment or config file like every other setting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from askvault.config import RetrievalParams, load_config
from askvault.errors import ConfigError


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    return root


def _retrieval(
    vault: Path, tmp_path: Path, flags: dict[str, object], environ: dict[str, str], file: dict[str, object]
) -> RetrievalParams:
    config = load_config({"vault": str(vault), **flags}, environ, file, data_root=tmp_path / "data")
    return config.retrieval


def test_off_by_default_with_the_tuned_retrieval_defaults(vault: Path, tmp_path: Path) -> None:
    params = _retrieval(vault, tmp_path, {}, {}, {})
    assert params == RetrievalParams()
    assert (params.rerank, params.rerank_model, params.rerank_candidates) == (False, None, 12)
    assert (params.rerank_excerpt_chars, params.rerank_timeout_s) == (600, 20.0)


@pytest.mark.parametrize(
    ("switch", "flags", "environ", "file", "expected"),
    [
        pytest.param("rerank", {}, {}, {"rerank": True}, True, id="rerank-file"),
        pytest.param("rerank", {}, {"ASKVAULT_RERANK": "yes"}, {"rerank": False}, True, id="rerank-env-beats-file"),
        pytest.param("rerank", {"rerank": False}, {"ASKVAULT_RERANK": "1"}, {}, False, id="rerank-flag-beats-env"),
        pytest.param(
            "rerank", {"rerank": None}, {"ASKVAULT_RERANK": "off"}, {"rerank": True}, False, id="rerank-unset-flag"
        ),
        pytest.param("query_dates", {}, {}, {}, True, id="dates-on-by-default"),
        pytest.param("query_dates", {}, {}, {"query_dates": False}, False, id="dates-file"),
        pytest.param(
            "query_dates",
            {},
            {"ASKVAULT_QUERY_DATES": "false"},
            {"query_dates": True},
            False,
            id="dates-env-beats-file",
        ),
        pytest.param(
            "query_dates", {"query_dates": True}, {"ASKVAULT_QUERY_DATES": "0"}, {}, True, id="dates-flag-beats-env"
        ),
    ],
)
def test_switch_sources(
    vault: Path,
    tmp_path: Path,
    switch: str,
    flags: dict[str, object],
    environ: dict[str, str],
    file: dict[str, object],
    expected: bool,
) -> None:
    assert getattr(_retrieval(vault, tmp_path, flags, environ, file), switch) is expected


def test_every_rerank_setting_from_its_source(vault: Path, tmp_path: Path) -> None:
    environ = {"ASKVAULT_RERANK_MODEL": "qwen3:8b", "ASKVAULT_RERANK_TIMEOUT": "8.5"}
    file: dict[str, object] = {"rerank_candidates": 20, "rerank_excerpt_chars": 400, "rerank_timeout": 30}
    params = _retrieval(vault, tmp_path, {"rerank_candidates": 10}, environ, file)
    assert (params.rerank_model, params.rerank_candidates, params.rerank_excerpt_chars, params.rerank_timeout_s) == (
        "qwen3:8b",
        10,
        400,
        8.5,
    )
    # Other retrieval parameters keep their defaults.
    assert (params.dense_k, params.keyword_k, params.rrf_k, params.top_k) == (50, 50, 60, 8)


@pytest.mark.parametrize(
    ("flags", "environ", "file", "message"),
    [
        pytest.param({}, {"ASKVAULT_RERANK": "maybe"}, {}, "ASKVAULT_RERANK: 'maybe' is not true or false", id="bool"),
        pytest.param(
            {},
            {"ASKVAULT_QUERY_DATES": "sometimes"},
            {},
            "ASKVAULT_QUERY_DATES: 'sometimes' is not true or false",
            id="dates-bool",
        ),
        pytest.param(
            {"rerank_candidates": 1}, {}, {}, "--rerank-candidates: 1 is outside 2..30", id="too-few-candidates"
        ),
        pytest.param(
            {},
            {},
            {"rerank_candidates": 12.5},
            "config file key 'rerank_candidates': 12.5 is not a whole number",
            id="fractional",
        ),
        pytest.param(
            {},
            {"ASKVAULT_RERANK_CANDIDATES": "twelve"},
            {},
            "ASKVAULT_RERANK_CANDIDATES: 'twelve' is not a whole",
            id="words",
        ),
        pytest.param(
            {}, {}, {"rerank_candidates": True}, "config file key 'rerank_candidates': True is not", id="bool-int"
        ),
        pytest.param({}, {"ASKVAULT_RERANK_EXCERPT_CHARS": "50"}, {}, "50 is outside 100..4000", id="excerpt-small"),
        pytest.param({"rerank_timeout_s": 0.0}, {}, {}, "--rerank-timeout: 0 is outside 1..600", id="timeout-zero"),
        pytest.param({}, {}, {"rerank_timeout": "soon"}, "'soon' is not a number", id="timeout-words"),
        pytest.param(
            {"rerank_candidates": 30},
            {"ASKVAULT_RERANK_EXCERPT_CHARS": "1000"},
            {},
            "rerank_candidates × rerank_excerpt_chars = 30 × 1000 exceeds 24,000 characters",
            id="prompt-too-big",
        ),
    ],
)
def test_bad_rerank_settings_name_their_source(
    vault: Path,
    tmp_path: Path,
    flags: dict[str, object],
    environ: dict[str, str],
    file: dict[str, object],
    message: str,
) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        _retrieval(vault, tmp_path, flags, environ, file)
