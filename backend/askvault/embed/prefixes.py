"""Per-model text prefixes: what each embedding model wants in front of documents and queries."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

RETRIEVAL_INSTRUCTION = "Represent this sentence for searching relevant passages: "
QWEN3_INSTRUCTION = "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"
E5_INSTRUCTION = "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery: "


@dataclass(frozen=True, slots=True)
class Prefixes:
    document: str = ""
    query: str = ""
    keyed: bool = True
    """Whether the document prefix is named in the collection key (`collection_tag`). False only where vectors
    were made with this very prefix before the key named it (nomic-embed-text), so those collections keep their
    names and nobody re-embeds on upgrade."""


NONE = Prefixes()
_NOMIC_LEGACY = Prefixes(document="search_document: ", query="search_query: ", keyed=False)
_NOMIC = Prefixes(document="search_document: ", query="search_query: ")
_QUERY_INSTRUCTION = Prefixes(query=RETRIEVAL_INSTRUCTION)
_E5 = Prefixes(document="passage: ", query="query: ")
_E5_INSTRUCT = Prefixes(query=E5_INSTRUCTION)
_GEMMA = Prefixes(document="title: none | text: ", query="task: search result | query: ")

# Keyed by the bare model name (no namespace, no tag). Sources: each model's card. Models trained without
# prefixes (bge-m3, all-minilm, granite-embedding, paraphrase-multilingual) are listed so the table says "none" on
# purpose, not by omission. A document prefix is part of the collection key (`collection_tag`), so adding or
# changing one starts a new collection instead of mixing old and new vectors; a query prefix needs no new key
# (query vectors are never stored). The nomic GGUF builds got no prefix before the key named it, so they are keyed.
PREFIXES: dict[str, Prefixes] = {
    "nomic-embed-text": _NOMIC_LEGACY,
    "nomic-embed-text-v1.5": _NOMIC_LEGACY,
    "nomic-embed-text-v2-moe": _NOMIC_LEGACY,
    "nomic-embed-text-v1.5-gguf": _NOMIC,
    "nomic-embed-text-v1-gguf": _NOMIC,
    "nomic-embed-text-v2-moe-gguf": _NOMIC,
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
    "multilingual-e5-small": _E5,
    "multilingual-e5-base": _E5,
    "multilingual-e5-large": _E5,
    "multilingual-e5-large-instruct": _E5_INSTRUCT,
    "e5-small": _E5,
    "e5-base": _E5,
    "e5-large": _E5,
    "e5-small-v2": _E5,
    "e5-base-v2": _E5,
    "e5-large-v2": _E5,
    "embeddinggemma": _GEMMA,
}

# Community uploads name the same weights with a publisher in front or a quantisation behind:
# `jeffh/intfloat-multilingual-e5-large:f16` (namespace and tag are gone already), `multilingual-e5-small-q8_0`.
_PUBLISHERS = ("intfloat-", "google-")
_QUANT_SUFFIXES = ("-gguf", "-f16", "-f32", "-q8_0", "-q4_k_m", "-q6_k", "-q5_k_m", "-q4_0")


def base_name(model: str) -> str:
    """`hf.co/nomic-ai/nomic-embed-text:v1.5` → `nomic-embed-text`: no namespace, no tag, lowercase."""
    name = model.strip().rsplit("/", 1)[-1]
    return name.split(":", 1)[0].lower()


def _candidates(name: str) -> list[str]:
    """The name as given first (an exact table entry wins), then without a publisher and quantisation suffixes."""
    names = [name]
    for publisher in _PUBLISHERS:
        if name.startswith(publisher):
            name = name.removeprefix(publisher)
            names.append(name)
    stripped = True
    while stripped:
        stripped = False
        for suffix in _QUANT_SUFFIXES:
            if name.endswith(suffix):
                name = name.removesuffix(suffix)
                names.append(name)
                stripped = True
    return names


def prefixes_for(model: str) -> Prefixes:
    """The prefixes for a model; unknown models get none (a wrong prefix hurts more than a missing one)."""
    for name in _candidates(base_name(model)):
        if name in PREFIXES:
            found = PREFIXES[name]
            # A name that reached a legacy entry only by stripping (a GGUF upload of nomic) had no prefix before.
            return found if found.keyed or name == base_name(model) else Prefixes(found.document, found.query)
    return NONE


def collection_tag(prefixes: Prefixes) -> str:
    """What the document prefix adds to the embedder's fingerprint: `""` without one (or for legacy keys), else
    `+doc-<8 hex of sha256>`, so vectors made with and without a prefix never share a collection."""
    if not prefixes.document or not prefixes.keyed:
        return ""
    return "+doc-" + hashlib.sha256(prefixes.document.encode("utf-8")).hexdigest()[:8]
