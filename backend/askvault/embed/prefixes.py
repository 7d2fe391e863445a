"""Per-model text prefixes: what each embedding model wants in front of documents and queries."""

from __future__ import annotations

from dataclasses import dataclass

RETRIEVAL_INSTRUCTION = "Represent this sentence for searching relevant passages: "
QWEN3_INSTRUCTION = "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"


@dataclass(frozen=True, slots=True)
class Prefixes:
    document: str = ""
    query: str = ""


NONE = Prefixes()
_NOMIC = Prefixes(document="search_document: ", query="search_query: ")
_QUERY_INSTRUCTION = Prefixes(query=RETRIEVAL_INSTRUCTION)

# Keyed by the bare model name (no namespace, no tag). Sources: each model's card. Models trained without
# prefixes (bge-m3, all-minilm, granite-embedding, paraphrase-multilingual) are listed so the table says "none" on
# purpose, not by omission. Only a *query* prefix may be added for a model already in use: the collection is keyed
# by `model@dimension`, so a new *document* prefix would mix old and new vectors in one collection. Models whose
# cards ask for a document prefix too (e5: `query: `/`passage: `; embeddinggemma: `task: search result | query: `
# / `title: none | text: `; nomic GGUF builds, whose base name ends in `-gguf`) wait until that key includes it.
PREFIXES: dict[str, Prefixes] = {
    "nomic-embed-text": _NOMIC,
    "nomic-embed-text-v1.5": _NOMIC,
    "nomic-embed-text-v2-moe": _NOMIC,
    "mxbai-embed-large": _QUERY_INSTRUCTION,
    "bge-large": _QUERY_INSTRUCTION,
    "bge-large-en": _QUERY_INSTRUCTION,
    "bge-large-en-v1.5": _QUERY_INSTRUCTION,
    "bge-base-en-v1.5": _QUERY_INSTRUCTION,
    "bge-small-en-v1.5": _QUERY_INSTRUCTION,
    "mxbai-embed-large-v1": _QUERY_INSTRUCTION,
    "qwen3-embedding": Prefixes(query=QWEN3_INSTRUCTION),
    "granite-embedding": NONE,
    "paraphrase-multilingual": NONE,
    "bge-m3": NONE,
    "snowflake-arctic-embed": _QUERY_INSTRUCTION,
    "snowflake-arctic-embed2": Prefixes(query="query: "),
    "all-minilm": NONE,
}


def base_name(model: str) -> str:
    """`hf.co/nomic-ai/nomic-embed-text:v1.5` → `nomic-embed-text`: no namespace, no tag, lowercase."""
    name = model.strip().rsplit("/", 1)[-1]
    return name.split(":", 1)[0].lower()


def prefixes_for(model: str) -> Prefixes:
    """The prefixes for a model; unknown models get none (a wrong prefix hurts more than a missing one)."""
    return PREFIXES.get(base_name(model), NONE)
