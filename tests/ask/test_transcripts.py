"""Recorded answers of a real tiny model (tests/fixtures/transcripts/), replayed line for line through the fake
Ollama into the real pipeline: each failure seen in real output ends the way the pipeline promises."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from askvault.ask.events import DoneEvent, TokenEvent
from askvault.evaluate.answer_metrics import score_answer
from tests.ask.canned import CannedSearcher, collect, kinds, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
SIX_SOURCES = [make_hit(n, f"Source text number {n}.", title=f"Note {n}") for n in range(1, 7)]
"""The recorded prompts sent six sources, so [1]…[6] are valid here as they were there."""


@dataclass(frozen=True)
class Replay:
    tokens: int
    """Token events the client saw before the done event."""
    done_reason: str
    citations: tuple[int, ...] = ()
    invalid: tuple[int, ...] = ()
    repeated: str | None = None
    """The one line a loop repeats: the answer keeps four copies of it (eight for a line under 20 characters,
    which repeats as a two-line block)."""


SIX = (1, 2, 3, 4, 5, 6)

REPLAYS = [
    pytest.param(
        "smollm2-loop-one-line.ndjson",
        Replay(tokens=35, done_reason="repetition", repeated="The Greatest Story Ever Told"),
        id="one-line-loop",
    ),
    pytest.param("smollm2-loop-two-lines.ndjson", Replay(tokens=148, done_reason="repetition"), id="two-line-loop"),
    pytest.param("smollm2-loop-paragraph.ndjson", Replay(tokens=185, done_reason="repetition"), id="paragraph-loop"),
    pytest.param(
        "smollm2-loop-twelve-lines.ndjson",
        Replay(tokens=197, done_reason="repetition", citations=SIX),
        id="twelve-line-loop",
    ),
    pytest.param(
        "smollm2-loop-code-block.ndjson",
        Replay(tokens=554, done_reason="repetition", citations=(1, 2, 3)),
        id="quoted-code-block-loop",
    ),
    pytest.param(
        "smollm2-loop-citation-rows.ndjson",
        Replay(tokens=79, done_reason="repetition", citations=SIX),
        id="rows-of-citations",
    ),
    pytest.param(
        "smollm2-loop-in-a-code-fence.ndjson",
        Replay(tokens=287, done_reason="repetition", citations=(1,)),
        id="loop-within-a-line",
    ),
    pytest.param(
        "smollm2-loop-numbered-list.ndjson",
        Replay(tokens=93, done_reason="repetition", repeated="Postgres-2.0.1"),
        id="numbered-list-loop",
    ),
    pytest.param(
        "smollm2-loop-empty-checkboxes.ndjson",
        Replay(tokens=122, done_reason="repetition"),
        id="empty-checkbox-run",
    ),
    pytest.param(
        "smollm2-loop-long-phrase.ndjson",
        Replay(tokens=118, done_reason="repetition", citations=(1,)),
        id="long-phrase-loop",
    ),
    pytest.param(
        "smollm2-counting-citations.ndjson",
        Replay(tokens=109, done_reason="repetition", citations=SIX, invalid=(7, 8)),
        id="counting-past-the-sources",
    ),
    pytest.param(
        "smollm2-counting-citations-in-a-line.ndjson",
        Replay(tokens=139, done_reason="repetition", citations=SIX, invalid=(7, 8, 9)),
        id="counting-past-the-sources-in-a-line",
    ),
    pytest.param(
        "smollm2-counting-citations-to-226.ndjson",
        Replay(tokens=233, done_reason="repetition", citations=SIX, invalid=tuple(range(7, 61))),
        id="counting-to-226",
    ),
    pytest.param(
        "smollm2-counting-dates-to-the-cap.ndjson",
        Replay(tokens=1024, done_reason="length"),
        id="counting-dates-ends-at-the-cap",
    ),
    pytest.param(
        "smollm2-bare-markers.ndjson", Replay(tokens=35, done_reason="stop", citations=SIX), id="bare-markers"
    ),
]


def _lines(name: str) -> list[bytes]:
    return (TRANSCRIPTS / name).read_bytes().splitlines()


async def _replay(fake_ollama: RunningOllama, name: str) -> tuple[list[TokenEvent], DoneEvent]:
    fake_ollama.fake.scripts.append(ChatScript(tokens=[], raw_lines=_lines(name)))
    async with open_pipeline(fake_ollama.url, CannedSearcher(list(SIX_SOURCES)), chat_model="smollm2:135m") as p:
        events = await collect(p.run("What do my notes say?"))
    assert kinds(events)[0] == "retrieval"
    done = events[-1]
    assert isinstance(done, DoneEvent)
    return [e for e in events if isinstance(e, TokenEvent)], done


@pytest.mark.parametrize(("name", "expected"), REPLAYS)
async def test_a_recorded_answer_ends_as_promised(fake_ollama: RunningOllama, name: str, expected: Replay) -> None:
    fake_ollama.fake.chat_models.add("smollm2:135m")
    tokens, done = await _replay(fake_ollama, name)
    assert len(tokens) == expected.tokens
    assert done.answer == "".join(t.text for t in tokens)
    assert (done.done_reason, done.truncated) == (expected.done_reason, expected.done_reason != "stop")
    assert (done.citations, done.invalid_citations) == (expected.citations, expected.invalid)
    if expected.repeated is not None:
        assert done.answer.count(expected.repeated) == (4 if len(expected.repeated) >= 20 else 8)
    recorded = json.loads(_lines(name)[-1])
    if expected.done_reason == "repetition":
        # Recorded: the model ran on to its cap (Ollama's "length" after 1,024 tokens); replayed, the pipeline
        # stopped it long before and the model's counts never arrived.
        assert (recorded["done_reason"], recorded["eval_count"]) == ("length", 1024)
        assert (done.metrics.prompt_tokens, done.metrics.completion_tokens) == (None, None)
    else:
        # The model ended it, or its token cap did: its own closing line's counts arrive.
        assert recorded["done_reason"] == expected.done_reason
        assert done.metrics.completion_tokens == recorded["eval_count"]
        assert done.metrics.prompt_tokens == recorded["prompt_eval_count"]


async def test_a_list_of_bare_markers_cites_but_grounds_nothing(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.chat_models.add("smollm2:135m")
    _, done = await _replay(fake_ollama, "smollm2-bare-markers.ndjson")
    assert done.answer.splitlines()[:2] == ["1. [1]", "2. [2]"]
    score = score_answer(
        question_id="q",
        type="paraphrase",
        model="smollm2:135m",
        answerable=True,
        values=(),
        outcome="answered",
        answer=done.answer,
        citations=done.citations,
        invalid_citations=done.invalid_citations,
        sent_evidence={n: n == 2 for n in range(1, 7)},
    )
    assert (score.citations_valid, score.cites_every_source, score.has_sentence, score.grounded) == (
        True,
        True,
        False,
        False,
    )
