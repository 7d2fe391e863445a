"""Query-side boosts on the real engine: exact identifiers, `[[Note]]` and `#tag` mentions, each behind its switch."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.model import SearchFilters, SearchResult
from askvault.parse.links import LinkResolver
from askvault.retrieve.hybrid import HybridSearcher
from askvault.retrieve.mentions import alias_index, resolve_note
from askvault.retrieve.trace import SearchTrace
from askvault.store.keyword.bm25 import Bm25Index
from askvault.wire.search import hit_to_json
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import (
    CountingTokenizer,
    engine_config,
    indexed_engine,
    paragraph,
    paths,
    tuned_searcher,
    write_notes,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

IP_QUESTION = "What is the IP address of kodi-livingroom?"
NAMES = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")
KODI_LINE = "Kodi on the living room box: the Kodi IP address of the kodi livingroom player, Kodi address book."


def boost_vault() -> dict[str, str | bytes]:
    notes: dict[str, str | bytes] = {
        # The exact-04 trap: many chunks share the identifier's parts ("kodi", "livingroom"), one row holds it whole.
        "Network/IP plan.md": (
            "# IP plan\n\n| IP | Host | Kind |\n| --- | --- | --- |\n| 10.0.0.2 | nas | static |\n"
            "| 10.0.0.41 | kodi-livingroom | DHCP reservation |\n| 10.0.0.50 | printer | DHCP |\n"
            f"{paragraph('subnet')}\n"
        ),
        "Homelab/Postgres.md": (
            "---\ntags: [database]\naliases: [pg-main]\n---\n"
            "# Postgres\n\n## Connection\n\nThe database listens on port 5433. "
            f"{paragraph('connection')}\n\n## Tuning\n\nShared buffers are 2 GB. {paragraph('buffers')}\n"
        ),
        "Homelab/Network/Switch.md": (
            "---\ntags: [homelab/network]\n---\n# Switch\n\nThe switch has sixteen ports and one uplink. "
            f"{paragraph('uplink')}\n"
        ),
    }
    # Each line says who it is (a word, not a digit): the same line in 5 of these 14 notes would be a template line
    # (`chunk.boilerplate`), left out of both legs.
    for i in range(5):
        notes[f"Homelab/Kodi {i}.md"] = f"# Kodi part {i}\n\n{KODI_LINE} Part {NAMES[i]}. {paragraph(f'kodi{i}', 20)}\n"
    for i in range(6):
        notes[f"Work/Port{i}.md"] = (
            f"# Port review {i}\n\nWhich port does the service use? Port {i} review {NAMES[i]}: port port port. "
            f"{paragraph(f'review{i}', 20)}\n"
        )
    return notes


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("boosts")
    write_notes(root / "vault", boost_vault())
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


async def test_score_fusion_adds_the_identifier_as_a_third_share(engine: Engine) -> None:
    """Holding the identifier adds identifier_weight / (Σ leg weights) of a full score:
    the row moves up by that share, and every hit still says where each leg ranked it. (The phrase share is off
    here so that the identifier's share is all that moves; tests/retrieve/test_phrases_engine.py has its own.)"""
    plain = await tuned_searcher(engine, identifier_weight=0.0, phrase_weight=0.0).search(IP_QUESTION, 20)
    boosted = await tuned_searcher(engine, identifier_weight=1.0, phrase_weight=0.0).search(IP_QUESTION, 20)

    def place(result: SearchResult) -> int:
        return next(i for i, hit in enumerate(result.hits) if hit.chunk.path == "Network/IP plan.md")

    assert place(boosted) < place(plain)
    row_before, row_after = plain.hits[place(plain)], boosted.hits[place(boosted)]
    assert row_after.boosts == ("identifier:kodi-livingroom",)
    assert hit_to_json(row_after)["boosts"] == ["identifier:kodi-livingroom"]
    assert all("boosts" not in hit_to_json(hit) for hit in plain.hits)
    assert row_after.fused_score == pytest.approx((row_before.fused_score + 0.5) / 1.5)
    assert all(h.dense_rank is not None or h.keyword_rank is not None for h in boosted.hits)
    assert all(0.0 <= h.fused_score <= 1.0 for h in boosted.hits)


@pytest.mark.parametrize("mode", ["keyword", "dense"])
async def test_single_leg_modes_are_never_boosted(engine: Engine, mode: str) -> None:
    plain = await tuned_searcher(engine, identifier_weight=0.0).search(IP_QUESTION, 5, mode)  # type: ignore[arg-type]
    boosted = await tuned_searcher(engine, identifier_weight=1.0, mention_top=3).search(IP_QUESTION, 5, mode)  # type: ignore[arg-type]

    assert [h.chunk.id for h in boosted.hits] == [h.chunk.id for h in plain.hits]
    assert all(not hit.boosts for hit in boosted.hits)


async def test_a_question_without_identifiers_or_mentions_is_unchanged(engine: Engine) -> None:
    question = "which port does the database listen on"
    plain = await tuned_searcher(engine, identifier_weight=0.0).search(question, 8)
    boosted = await tuned_searcher(engine, identifier_weight=1.0, mention_top=3).search(question, 8)

    assert [(h.chunk.id, h.fused_score) for h in boosted.hits] == [(h.chunk.id, h.fused_score) for h in plain.hits]


async def test_a_linked_note_gets_its_best_chunk_into_the_top_places(engine: Engine) -> None:
    question = "Which port review says what about [[Postgres#Tuning]]?"
    plain = await tuned_searcher(engine, mention_top=0).search(question, 3)
    promoted = await tuned_searcher(engine, mention_top=3).search(question, 3)

    assert "Homelab/Postgres.md" not in paths(plain)
    tuning = [hit for hit in promoted.hits if hit.chunk.path == "Homelab/Postgres.md"]
    assert [hit.chunk.heading_path for hit in tuning] == [("Postgres", "Tuning")]
    assert tuning[0].boosts == ("mention:[[Postgres]]",)
    assert paths(promoted)[:2] == paths(plain)[:2]  # only the last place made room


async def test_the_boosts_read_the_question_as_analysed_once(engine: Engine) -> None:
    tokenizer = CountingTokenizer(engine.config.retrieval.stem_language)
    keywords = Bm25Index(tokenizer)
    keywords.rebuild(engine.manifest.iter_chunks())
    # Legs of one candidate each: the tagged note's chunk is found by its own keyword look-up, outside them.
    params = dataclasses.replace(engine.config.retrieval, mention_top=3, keyword_k=1, dense_k=1)
    counted = HybridSearcher(engine.catalog, keywords, engine.dense, params, visible=engine.guard.visible)
    trace = SearchTrace()
    result = await counted.search("subnet #homelab", 3, trace=trace)

    linked = [hit for hit in result.hits if hit.boosts == ("tag:#homelab",)]
    assert len(linked) == 1
    assert linked[0].chunk.id not in {entry.chunk_id for entry in (*trace.keyword, *trace.dense)}
    assert tokenizer.questions == 1  # the keyword leg, the identifier boost and that look-up: one analysis


async def test_a_link_by_alias_resolves_through_the_chunks_aliases(engine: Engine) -> None:
    # The header puts the alias in every chunk's index text, so the keyword leg already finds the note; what the
    # mention adds is the resolution, from the aliases the real chunker gives every chunk of the note.
    chunks = engine.catalog.snapshot()
    promoted = await tuned_searcher(engine, mention_top=1).search("Which port review says what about [[pg-main]]?", 3)

    assert alias_index(chunks)["pg-main"] == "Homelab/Postgres.md"
    assert resolve_note("PG-Main", LinkResolver({c.path: c.title for c in chunks.values()}), {}, alias_index(chunks))
    assert promoted.hits[0].chunk.path == "Homelab/Postgres.md"


async def test_a_tag_in_the_question_brings_one_chunk_of_its_notes(engine: Engine) -> None:
    question = "Which port review covers #homelab uplinks?"
    plain = await tuned_searcher(engine, mention_top=0).search(question, 3)
    promoted = await tuned_searcher(engine, mention_top=1).search(question, 3)

    # "ports" and "uplinks" already bring the switch into the top 3; the tag guarantees it the first place.
    assert paths(plain)[0] != "Homelab/Network/Switch.md"
    assert paths(promoted)[0] == "Homelab/Network/Switch.md"
    tagged = [hit for hit in promoted.hits if "homelab/network" in hit.chunk.tags]
    assert [hit.boosts for hit in tagged] == [("tag:#homelab",)]


async def test_unknown_mentions_and_filters_are_respected(engine: Engine) -> None:
    unknown = await tuned_searcher(engine, mention_top=3).search("port of [[Plex]] in #nosuchtag", 3)
    assert all(not hit.boosts for hit in unknown.hits)

    filtered = await tuned_searcher(engine, mention_top=3).search(
        "port review of [[Postgres]]", 3, filters=SearchFilters(folder="Work/")
    )
    assert all(hit.chunk.path.startswith("Work/") for hit in filtered.hits)
