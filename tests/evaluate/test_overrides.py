"""`--set section.field=value`: parsing, typing by the field's default, and the errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.config import ChunkParams, Config, RetrievalParams, StoreConfig, VaultConfig
from askvault.errors import ConfigError
from askvault.evaluate.overrides import apply_overrides, parse_overrides

BASE = Config(vault=VaultConfig(root=Path("/v")), store=StoreConfig(data_dir=Path("/d")))


@pytest.mark.parametrize(
    ("pairs", "chunk", "retrieval"),
    [
        ((), ChunkParams(), RetrievalParams()),
        (("chunk.note_chunk=true",), ChunkParams(note_chunk=True), RetrievalParams()),
        (("chunk.alias_header=off",), ChunkParams(alias_header=False), RetrievalParams()),
        (("chunk.boilerplate_min_notes=10",), ChunkParams(boilerplate_min_notes=10), RetrievalParams()),
        (("retrieval.dense_weight=1.5",), ChunkParams(), RetrievalParams(dense_weight=1.5)),
        (("retrieval.protect_top=1", "retrieval.rrf_k=30"), ChunkParams(), RetrievalParams(protect_top=1, rrf_k=30)),
        (("retrieval.stem_language= german",), ChunkParams(), RetrievalParams(stem_language="german")),
        (
            ("retrieval.identifier_weight=1", "retrieval.mention_top=3", "retrieval.keep_stop_words=true"),
            ChunkParams(),
            RetrievalParams(identifier_weight=1.0, mention_top=3, keep_stop_words=True),
        ),
    ],
    ids=["none", "bool-true", "bool-off", "int", "float", "two", "str", "query-side-switches"],
)
def test_apply_overrides(pairs: tuple[str, ...], chunk: ChunkParams, retrieval: RetrievalParams) -> None:
    config = apply_overrides(BASE, pairs)
    assert (config.chunk, config.retrieval) == (chunk, retrieval)
    assert config.vault == BASE.vault


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("note_chunk=true", "expected chunk.FIELD=VALUE"),
        ("chunk.note_chunk", "expected chunk.FIELD=VALUE"),
        ("prompt.max_chars=1", "expected chunk.FIELD=VALUE"),
        ("chunk.nope=1", "chunk has no field 'nope'"),
        ("chunk.note_chunk=maybe", "is not a bool"),
        ("retrieval.rrf_k=ten", "is not a int"),
        ("retrieval.dense_weight=x", "is not a float"),
    ],
    ids=["no-section", "no-value", "unknown-section", "unknown-field", "bad-bool", "bad-int", "bad-float"],
)
def test_bad_overrides_name_the_key(pair: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        apply_overrides(BASE, [pair])


def test_parse_keeps_the_last_value() -> None:
    assert parse_overrides(["chunk.max_chars=1", "chunk.max_chars=2"]) == {"chunk": {"max_chars": "2"}}
