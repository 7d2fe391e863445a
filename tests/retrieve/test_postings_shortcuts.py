"""The boosts' postings shortcuts on real notes: the phrase share tokenizes only leaders whose postings hold both
terms of a pair, the identifier share reads only candidates whose postings may hold an identifier, and the ranking
is exactly the one reading and tokenizing every candidate gives (tests/fixtures/corpora: tasks-docs MIT, de-wiki
CC0, plus identifiers in the contexts a note writes them)."""

from __future__ import annotations

import dataclasses
import random
import shutil
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.model import Chunk, ChunkInfo, SearchResult
from askvault.retrieve.hybrid import HybridSearcher
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.protocol import KeywordIndex
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paragraph, write_notes

pytestmark = pytest.mark.asyncio(loop_scope="module")

CORPORA = Path(__file__).resolve().parents[1] / "fixtures" / "corpora"
CONTEXTS = [
    "Kodi runs on kodi-livingroom, port 8080.",
    "Open http://kodi-livingroom:8080/jsonrpc in a browser.",
    "The kodi-livingroom's cache lives on the NAS.",
    "Backups go to nas.local at 10.0.0.41 every night (job INC-0214).",
    "Set container_name: kodi-livingroom-2 for the spare box.",
    "WireGuard keys rotate monthly; the iPhone app reads the QR code.",
    "Ports 5433 and 26007 stay closed, see x.-kodi-livingroom notes.",
]
IDENTIFIER_NOTES = {
    f"Homelab/Box {i}.md": f"# Box {i}\n\n{line} {paragraph('homelab', 25 + i)}\n" for i, line in enumerate(CONTEXTS)
}
IDENTIFIER_QUESTIONS = [
    "which port does kodi-livingroom use",
    "what is at 10.0.0.41",
    "INC-0214 backup job",
    "where does the WireGuard key go",
    "iPhone QR code",
    "is 5433 open",
    "container_name for the spare",
    "nas.local backups every night",
    "26007 closed ports",
]


class CountingTokenizer:
    """The real keyword index, counting the texts it tokenizes."""

    def __init__(self, index: KeywordIndex) -> None:
        self._index = index
        self.tokenized = 0

    def tokenize(self, text: str, language: str = "") -> list[str]:
        self.tokenized += 1
        return self._index.tokenize(text, language)

    def __getattr__(self, name: str) -> object:
        return getattr(self._index, name)


class CountingReads:
    """The real catalog, counting the chunk texts read."""

    def __init__(self, catalog: ChunkCatalog) -> None:
        self._catalog = catalog
        self.read = 0

    def with_text(self, chunks: Iterable[ChunkInfo]) -> dict[str, Chunk]:
        wanted = list(chunks)
        self.read += len(wanted)
        return self._catalog.with_text(wanted)

    def __getattr__(self, name: str) -> object:
        return getattr(self._catalog, name)


class TokenizeEveryLeader(CountingTokenizer):
    """The real keyword index, except that it knows no chunk's terms: every leader is tokenized, every candidate
    read."""

    def held_terms(self, terms: Sequence[str], chunk_ids: Collection[str]) -> dict[str, frozenset[str]]:
        return {}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("phrase-postings")
    for corpus in ("tasks-docs", "de-wiki"):
        shutil.copytree(CORPORA / corpus, root / "vault" / corpus)
    write_notes(root / "vault", IDENTIFIER_NOTES)
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


def questions(engine: Engine, n: int, seed: int) -> list[str]:
    """Runs of 2–6 words from random chunks (their pairs occur somewhere), and words from two chunks mixed."""
    texts = [chunk.text for chunk in engine.manifest.iter_chunks()]
    draw = random.Random(seed)
    found: list[str] = []
    while len(found) < n:
        words = draw.choice(texts).split()
        size = draw.randint(2, 6)
        start = draw.randrange(max(1, len(words) - size))
        run = words[start : start + size]
        if len(found) % 3 == 2:
            run = run[:2] + draw.choice(texts).split()[:2]
        found.append(" ".join(run))
    return found


def ranking(result: SearchResult) -> list[tuple[str, float, tuple[str, ...]]]:
    return [(hit.chunk.id, hit.fused_score, hit.boosts) for hit in result.hits]


async def test_the_shortcuts_rank_as_reading_and_tokenizing_every_candidate(engine: Engine) -> None:
    # The section order reads the postings as its data, not as a shortcut (the stand-in below knows none): off here.
    params = dataclasses.replace(engine.config.retrieval, section_weight=0.0)
    assert params.phrase_weight > 0
    assert params.identifier_weight > 0
    fast_index, fast_reads = CountingTokenizer(engine.keywords), CountingReads(engine.catalog)
    full_index, full_reads = TokenizeEveryLeader(engine.keywords), CountingReads(engine.catalog)
    fast = HybridSearcher(fast_reads, fast_index, engine.dense, params, visible=engine.guard.visible)  # type: ignore[arg-type]
    full = HybridSearcher(full_reads, full_index, engine.dense, params, visible=engine.guard.visible)  # type: ignore[arg-type]
    plain_params = dataclasses.replace(params, phrase_weight=0.0, identifier_weight=0.0)
    plain = HybridSearcher(engine.catalog, engine.keywords, engine.dense, plain_params)
    moved = boosted = 0
    for question in [*questions(engine, 80, seed=11), *IDENTIFIER_QUESTIONS]:
        got = await fast.search(question, 10)
        assert ranking(got) == ranking(await full.search(question, 10)), question
        moved += [h.chunk.id for h in (await plain.search(question, 10)).hits] != [h.chunk.id for h in got.hits]
        boosted += any(hit.boosts for hit in got.hits)
    # The shares did reorder some of these (the comparison was not of two no-ops), every identifier question
    # found its identifier, and the shortcuts skipped leaders and texts (the questions are tokenized by both).
    assert moved > 10
    assert boosted >= len(IDENTIFIER_QUESTIONS)
    assert fast_index.tokenized < 0.8 * full_index.tokenized
    assert fast_reads.read < 0.8 * full_reads.read
