"""Per-model prefixes: name normalisation and the prefix table."""

from __future__ import annotations

import pytest

from askvault.embed.prefixes import (
    E5_INSTRUCTION,
    QWEN3_INSTRUCTION,
    RETRIEVAL_INSTRUCTION,
    Prefixes,
    base_name,
    collection_tag,
    prefixes_for,
)


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("nomic-embed-text", "nomic-embed-text"),
        ("nomic-embed-text:latest", "nomic-embed-text"),
        ("Nomic-Embed-Text:v1.5", "nomic-embed-text"),
        ("library/mxbai-embed-large:335m", "mxbai-embed-large"),
        ("hf.co/nomic-ai/nomic-embed-text-v1.5-GGUF:Q4_K_M", "nomic-embed-text-v1.5-gguf"),
        ("  bge-m3  ", "bge-m3"),
    ],
    ids=["bare", "latest-tag", "case-and-tag", "namespace", "hf-path", "whitespace"],
)
def test_base_name(model: str, expected: str) -> None:
    assert base_name(model) == expected


NOMIC = Prefixes(document="search_document: ", query="search_query: ", keyed=False)
NOMIC_KEYED = Prefixes(document="search_document: ", query="search_query: ")
E5 = Prefixes(document="passage: ", query="query: ")
GEMMA = Prefixes(document="title: none | text: ", query="task: search result | query: ")
INSTRUCT = Prefixes(document="", query=RETRIEVAL_INSTRUCTION)


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("nomic-embed-text", NOMIC),
        ("nomic-embed-text:latest", NOMIC),
        ("nomic-embed-text-v2-moe", NOMIC),
        ("mxbai-embed-large:335m", INSTRUCT),
        ("bge-large:335m", INSTRUCT),
        ("bge-large-en", INSTRUCT),
        ("bge-m3", Prefixes()),
        ("snowflake-arctic-embed:137m", INSTRUCT),
        ("all-minilm:l6-v2", Prefixes()),
        ("someone/unknown-embedder:7b", Prefixes()),
    ],
    ids=[
        "nomic",
        "nomic-tag",
        "nomic-v2",
        "mxbai",
        "bge-large",
        "bge-large-en",
        "bge-m3",
        "arctic",
        "minilm",
        "unknown",
    ],
)
def test_prefixes_for(model: str, expected: Prefixes) -> None:
    assert prefixes_for(model) == expected


def test_query_instruction_text_is_exact() -> None:
    assert RETRIEVAL_INSTRUCTION == "Represent this sentence for searching relevant passages: "


QWEN3 = Prefixes(document="", query=QWEN3_INSTRUCTION)

MORE_MODELS: list[tuple[str, str, Prefixes]] = [
    ("bge-small", "bge-small-en-v1.5", INSTRUCT),
    ("bge-base-hf", "hf.co/CompendiumLabs/bge-base-en-v1.5:Q8_0", INSTRUCT),
    ("mxbai-v1", "mixedbread-ai/mxbai-embed-large-v1", INSTRUCT),
    ("qwen3", "qwen3-embedding:0.6b", QWEN3),
    ("granite-none", "granite-embedding:278m", Prefixes()),
    ("paraphrase-none", "paraphrase-multilingual", Prefixes()),
    # Cards that ask for a document prefix too: it is part of the collection key (collection_tag).
    ("e5-small", "multilingual-e5-small", E5),
    ("e5-small-latest", "multilingual-e5-small:latest", E5),
    ("e5-publisher", "jeffh/intfloat-multilingual-e5-large:f16", E5),
    ("e5-quantised", "hf.co/someone/multilingual-e5-base-Q8_0-GGUF:Q8_0", E5),
    ("e5-v2", "e5-base-v2", E5),
    ("e5-instruct-query-only", "multilingual-e5-large-instruct", Prefixes(query=E5_INSTRUCTION)),
    ("embeddinggemma", "embeddinggemma:300m", GEMMA),
    ("nomic-gguf", "hf.co/nomic-ai/nomic-embed-text-v1.5-GGUF:Q4_K_M", NOMIC_KEYED),
    ("nomic-quantised-upload", "someone/nomic-embed-text-v1.5-q8_0", NOMIC_KEYED),
    ("not-e5-lookalike", "e5-mistral-7b-instruct", Prefixes()),
]


@pytest.mark.parametrize(("model", "expected"), [(m, e) for _, m, e in MORE_MODELS], ids=[i for i, *_ in MORE_MODELS])
def test_more_models(model: str, expected: Prefixes) -> None:
    assert prefixes_for(model) == expected


def test_added_models_change_only_the_query_side() -> None:
    """Models added with a query prefix only keep their collections (query vectors are never stored)."""
    for name in ["bge-small-en-v1.5", "bge-base-en-v1.5", "mxbai-embed-large-v1", "qwen3-embedding"]:
        assert collection_tag(prefixes_for(name)) == ""
    assert QWEN3_INSTRUCTION.endswith("\nQuery:")


@pytest.mark.parametrize(
    ("model", "tag"),
    [
        ("all-minilm", ""),
        ("mxbai-embed-large", ""),
        ("nomic-embed-text", ""),
        ("nomic-embed-text-v1.5-gguf", "+doc-"),
        ("multilingual-e5-small", "+doc-"),
        ("embeddinggemma", "+doc-"),
    ],
    ids=["none", "query-only", "nomic-legacy", "nomic-gguf", "e5", "gemma"],
)
def test_collection_tag_names_a_document_prefix(model: str, tag: str) -> None:
    """A document prefix starts its own collection, except nomic's, which its vectors always carried."""
    found = collection_tag(prefixes_for(model))
    assert found.startswith(tag)
    assert len(found) == (len("+doc-") + 8 if tag else 0)


def test_collection_tag_differs_per_prefix() -> None:
    assert collection_tag(E5) != collection_tag(GEMMA)
    assert collection_tag(E5) == collection_tag(Prefixes(document="passage: "))
