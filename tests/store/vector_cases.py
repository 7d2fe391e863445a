"""A shared corpus and checks for both vector stores: the same VectorStore contract, engine by engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

from askvault.model import Chunk, SearchFilters
from askvault.store.protocol import VectorStore
from tests.fakes.ollama_server import fake_embedding

DIM = 64
FOLDERS = ["Homelab", "Homelab/Servers", "Homelab/Servers/Proxmox", "Projects", "Projects/Zettel", ""]
TAGS = [(), ("homelab",), ("db", "homelab"), ("zettel",), ("db",)]
VOCABULARY = (
    "postgres port backup kodi maintenance workflow proxmox container storage zettel metaphor river memory "
    "garden network vlan docker compose css variable theme index hash token cron schedule restore snapshot"
)
WORDS = VOCABULARY.split()


def corpus(n: int = 150, seed: int = 7) -> list[Chunk]:
    """Chunks spread over nested folders, tags and dates, with distinct texts (no exact vector ties)."""
    rng = random.Random(seed)
    chunks = []
    for i in range(n):
        folder = FOLDERS[i % len(FOLDERS)]
        path = f"{folder}/note{i // 3}.md" if folder else f"note{i // 3}.md"
        text = " ".join(rng.choice(WORDS) for _ in range(12)) + f" item{i}"
        chunks.append(
            Chunk(
                id=f"{path}#{i}",
                path=path,
                title=f"note{i // 3}",
                heading_path=("H",),
                start_line=1,
                end_line=5,
                text=text,
                index_text=text,
                tags=TAGS[i % len(TAGS)],
                mtime=1_700_000_000.0 + 3600.0 * i,
            )
        )
    return chunks


def embed(texts: list[str]) -> list[list[float]]:
    return [fake_embedding(t, DIM) for t in texts]


FILTER_CASES = [
    pytest.param(SearchFilters(), id="none"),
    pytest.param(SearchFilters(folder="Homelab"), id="folder"),
    pytest.param(SearchFilters(folder="Homelab/Servers/"), id="subfolder-trailing-slash"),
    pytest.param(SearchFilters(folder="Home"), id="folder-prefix-is-not-a-folder"),
    pytest.param(SearchFilters(tag="#DB"), id="tag-hash-and-case"),
    pytest.param(SearchFilters(modified_after=1_700_000_000.0 + 3600.0 * 100), id="after"),
    pytest.param(SearchFilters(modified_before=1_700_000_000.0 + 3600.0 * 30), id="before-inclusive"),
    pytest.param(
        SearchFilters(folder="Homelab", tag="db", modified_after=1_700_000_000.0 + 3600.0 * 20), id="combined"
    ),
]


def exact_top(
    chunks: list[Chunk], vectors: list[list[float]], query: list[float], limit: int, filters: SearchFilters
) -> list[tuple[str, float]]:
    """Brute-force cosine top-k over the chunks `filters.accepts`, the reference for both engines."""
    matrix = np.asarray(vectors, dtype=np.float64)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    q = np.asarray(query, dtype=np.float64)
    q /= np.linalg.norm(q)
    scores = matrix @ q
    ranked = sorted(
        ((c.id, float(s)) for c, s in zip(chunks, scores, strict=True) if filters.accepts(c)), key=lambda x: -x[1]
    )
    return ranked[:limit]


async def check_search_is_exact(store: VectorStore, chunks: list[Chunk], filters: SearchFilters) -> None:
    """Top-k from the store has the brute-force scores, and every returned id passes the filter."""
    vectors = embed([c.index_text for c in chunks])
    by_id = {c.id: c for c in chunks}
    for query_text in ["postgres port backup", "kodi maintenance workflow", "garden river metaphor memory"]:
        query = fake_embedding(query_text, DIM)
        expected = exact_top(chunks, vectors, query, 10, filters)
        got = await store.search(query, 10, filters)
        assert [r.score for r in got] == pytest.approx([s for _, s in expected], abs=1e-5)
        reference = dict(exact_top(chunks, vectors, query, len(chunks), SearchFilters()))
        for hit in got:
            assert filters.accepts(by_id[hit.chunk_id])
            assert hit.score == pytest.approx(reference[hit.chunk_id], abs=1e-5)


async def check_vectors_read_back(store: VectorStore, chunks: list[Chunk]) -> None:
    """`vectors` returns each stored vector at unit length (the cosine collection normalises), leaves out ids
    without one, and pages through more ids than one request takes."""
    vectors = embed([c.index_text for c in chunks])
    wanted = [c.id for c in chunks] + ["never-stored"]

    got = await store.vectors(wanted)

    assert set(got) == {c.id for c in chunks}
    for chunk, vector in zip(chunks, vectors, strict=True):
        expected = np.asarray(vector) / np.linalg.norm(vector)
        assert got[chunk.id] == pytest.approx(expected.tolist(), abs=1e-6)
    assert await store.vectors([]) == {}


async def check_batch_equals_single_searches(store: VectorStore, filters: SearchFilters) -> None:
    """`search_batch` answers exactly what one `search` per vector answers, in the vectors' order."""
    queries = [fake_embedding(text, DIM) for text in ("postgres port backup", "garden river", "kodi")]

    batch = await store.search_batch(queries, 7, filters)

    assert len(batch) == len(queries)
    for query, answer in zip(queries, batch, strict=True):
        single = await store.search(query, 7, filters)
        assert [r.score for r in answer] == pytest.approx([r.score for r in single], abs=1e-6)
        # Equal scores may come in either order (and a tie at the cut may keep either chunk).
        last = single[-1].score if single else 0.0
        assert {r.chunk_id for r in answer if r.score > last + 1e-6} == {
            r.chunk_id for r in single if r.score > last + 1e-6
        }
    assert await store.search_batch(queries, 0, filters) == [[], [], []]
    assert await store.search_batch([], 7, filters) == []


async def check_equal_scores_in_chunk_id_order(store: VectorStore) -> None:
    """Ten chunks of one text (a template's placeholder in ten notes) score exactly alike: they come in chunk-id
    order whatever order they were stored in, alone and in a batch, and the chunk of another text keeps its place."""
    chunks = corpus(11)
    same = embed(["Brief description of the tool."])[0]
    vectors = [same] * 10 + embed([chunks[10].index_text])
    order = list(range(11))
    random.Random(3).shuffle(order)
    await store.upsert([chunks[i] for i in order], [vectors[i] for i in order])
    expected = sorted(chunk.id for chunk in chunks[:10])

    alone = await store.search(same, 11, SearchFilters())
    assert [hit.chunk_id for hit in alone[:10]] == expected
    assert len({hit.score for hit in alone[:10]}) == 1
    assert alone[10].chunk_id == chunks[10].id
    batch = await store.search_batch([same, same], 11, SearchFilters())
    assert batch == [alone, alone]
