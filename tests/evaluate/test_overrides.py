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
        (("chunk.tag_header=true",), ChunkParams(tag_header=True), RetrievalParams()),
        (("chunk.alias_header=off",), ChunkParams(alias_header=False), RetrievalParams()),
        (("chunk.max_chars=900",), ChunkParams(max_chars=900), RetrievalParams()),
        (("retrieval.dense_weight=1.5",), ChunkParams(), RetrievalParams(dense_weight=1.5)),
        (("retrieval.top_k=5", "retrieval.rrf_k=30"), ChunkParams(), RetrievalParams(top_k=5, rrf_k=30)),
        (("retrieval.stem_language= german",), ChunkParams(), RetrievalParams(stem_language="german")),
        (
            ("retrieval.identifier_weight=0", "retrieval.mention_top=0", "retrieval.query_dates=false"),
            ChunkParams(),
            RetrievalParams(identifier_weight=0.0, mention_top=0, query_dates=False),
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
        ("alias_header=true", "expected chunk.FIELD=VALUE"),
        ("chunk.alias_header", "expected chunk.FIELD=VALUE"),
        ("prompt.max_chars=1", "expected chunk.FIELD=VALUE"),
        ("chunk.nope=1", "chunk has no field 'nope'"),
        ("chunk.alias_header=maybe", "is not a bool"),
        ("retrieval.rrf_k=ten", "is not a int"),
        ("retrieval.dense_weight=x", "is not a float"),
        ("chunk.note_chunk=true", "chunk.note_chunk was removed after measurement"),
        ("retrieval.link_hops=true", "retrieval.link_hops was removed after measurement"),
    ],
    ids=[
        "no-section",
        "no-value",
        "unknown-section",
        "unknown-field",
        "bad-bool",
        "bad-int",
        "bad-float",
        "removed-chunk-switch",
        "removed-retrieval-switch",
    ],
)
def test_bad_overrides_name_the_key(pair: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        apply_overrides(BASE, [pair])


def test_parse_keeps_the_last_value() -> None:
    assert parse_overrides(["chunk.max_chars=1", "chunk.max_chars=2"]) == {"chunk": {"max_chars": "2"}}
