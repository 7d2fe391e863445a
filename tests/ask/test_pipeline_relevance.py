"""The relevance decision in the answer pipeline: an abstention calls no model and lists the closest notes; force
sends them anyway; the calibration is the one injected; keyword-only searches still decide."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from askvault.ask.events import AskEvent, DoneEvent, RetrievalEvent, TokenEvent
from askvault.ask.pipeline import NOT_COVERED_ANSWER
from askvault.ask.relevance import Calibration, RelevanceDecision, Weights
from askvault.config import RetrievalParams
from askvault.model import Hit, Message, Scalar, TermStat
from askvault.wire.events import event_to_json
from tests.ask.canned import CannedSearcher, collect, kinds, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit

QUESTION = "What is the wifi password of the boat?"
# Only weak dense neighbours, two of them from one note, and a question whose words the vault does not know.
WEAK = [
    make_hit(1, "Backups run nightly at 02:00.", title="Backups", legs="dense", dense_score=0.31),
    make_hit(2, "Restores are tested each quarter.", title="Backups", legs="dense", dense_score=0.29),
    make_hit(3, "Kodi runs in the living room.", title="Kodi", legs="dense", dense_score=0.22),
]
UNKNOWN_TERMS = [TermStat("wifi", 0, 0.0), TermStat("password", 0, 0.0), TermStat("boat", 0, 0.0)]


def _retrieval(events: Sequence[AskEvent]) -> RetrievalEvent:
    first = events[0]
    assert isinstance(first, RetrievalEvent)
    return first


def _decision(events: Sequence[AskEvent]) -> RelevanceDecision:
    decision = _retrieval(events).relevance
    assert decision is not None
    return decision


def _weak() -> CannedSearcher:
    return CannedSearcher(list(WEAK), terms=list(UNKNOWN_TERMS))


@pytest.mark.parametrize(
    "retrieval", [RetrievalParams(), RetrievalParams(rerank=True, rerank_candidates=3)], ids=["plain", "rerank-on"]
)
async def test_an_abstention_calls_no_model_and_lists_the_closest_notes(
    fake_ollama: RunningOllama, retrieval: RetrievalParams
) -> None:
    async with open_pipeline(fake_ollama.url, _weak(), retrieval=retrieval) as pipeline:
        events = await collect(pipeline.run(QUESTION))

    assert fake_ollama.fake.calls("/api/chat") == []  # no answer, no rerank: no chat request at all
    assert kinds(events) == ["retrieval", "token", "done"]
    retrieval_event = _retrieval(events)
    decision = _decision(events)
    assert (decision.answer, decision.forced, decision.calibration_model) == (False, False, "*")
    assert decision.score < decision.threshold
    assert decision.reason.startswith("Your notes do not seem to cover this question")
    # One entry per note (the best chunk of Backups), in ranking order; the whole ranking stays listed, unsent.
    assert [(s.n, s.hit.chunk.id) for s in retrieval_event.closest] == [(None, "chunk-1"), (None, "chunk-3")]
    assert [(s.n, s.sent) for s in retrieval_event.sources] == [(None, False)] * 3
    assert (retrieval_event.sent, retrieval_event.prompt, retrieval_event.rerank) == ((), (), None)
    closest = event_to_json(retrieval_event)["closest"]
    assert isinstance(closest, list)
    assert [(c["path"], c["dense_score"], c["keyword_score"]) for c in closest if isinstance(c, dict)] == [
        ("Notes/Backups.md", 0.31, None),
        ("Notes/Kodi.md", 0.22, None),
    ]
    assert events[1] == TokenEvent(NOT_COVERED_ANSWER)
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert (done.answer, done.no_results, done.metrics.prompt_tokens) == (NOT_COVERED_ANSWER, True, None)


async def test_force_sends_the_closest_notes_anyway(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["The notes do not say [1]."]))
    async with open_pipeline(fake_ollama.url, _weak()) as pipeline:
        events = await collect(pipeline.run(QUESTION, force=True))

    (answer_call,) = fake_ollama.fake.calls("/api/chat")
    assert "Backups run nightly" in answer_call["messages"][-1]["content"]
    decision = _decision(events)
    assert (decision.answer, decision.forced) == (True, True)
    assert decision.reason.startswith("Sent anyway as you asked")
    retrieval_event = _retrieval(events)
    assert retrieval_event.sent == ("chunk-1", "chunk-2", "chunk-3")
    assert retrieval_event.closest == ()
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert (done.answer, done.no_results, done.citations) == ("The notes do not say [1].", False, (1,))


async def test_force_still_keeps_hits_below_the_dense_floor_but_sends_unscored_ones(fake_ollama: RunningOllama) -> None:
    unscored = make_hit(4, "Boat notes.", legs="dense", dense_score=None)
    searcher = CannedSearcher([*WEAK, unscored], terms=list(UNKNOWN_TERMS))
    async with open_pipeline(fake_ollama.url, searcher, retrieval=RetrievalParams(min_dense_score=0.3)) as pipeline:
        events = await collect(pipeline.run(QUESTION, force=True))
    assert _retrieval(events).sent == ("chunk-1", "chunk-4")
    assert len(fake_ollama.fake.calls("/api/chat")) == 1


async def test_a_follow_up_is_still_rewritten_but_not_answered(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["What is the wifi password of the boat?"]))
    history = [Message("user", "Where is the boat moored?"), Message("assistant", "In the harbour.")]
    async with open_pipeline(fake_ollama.url, _weak()) as pipeline:
        events = await collect(pipeline.run("and its wifi password?", history))
    (rewrite_call,) = fake_ollama.fake.calls("/api/chat")
    assert rewrite_call["stream"] is False
    assert _decision(events).answer is False
    assert _retrieval(events).rewritten is True


KEYWORD_HITS = [make_hit(1, "Boat wifi: see the router.", legs="keyword")]


@pytest.mark.parametrize(
    ("terms", "answer"),
    [
        ([TermStat("boat", 1, 2.0), TermStat("wifi", 1, 2.5), TermStat("password", 0, 0.0)], True),
        ([TermStat("boat", 1, 2.0), TermStat("wifi", 0, 0.0), TermStat("password", 0, 0.0)], False),
    ],
    ids=["most-words-known", "one-word-of-three"],
)
async def test_keyword_only_searches_decide_on_the_keywords(
    fake_ollama: RunningOllama, terms: list[TermStat], answer: bool
) -> None:
    searcher = CannedSearcher(list(KEYWORD_HITS), terms=terms, dense_available=False)
    async with open_pipeline(fake_ollama.url, searcher) as pipeline:
        events = await collect(pipeline.run(QUESTION))
    decision = _decision(events)
    assert (decision.answer, decision.signals.dense_available, decision.signals.top_dense) == (answer, False, None)
    assert "keywords only" in decision.reason
    assert len(fake_ollama.fake.calls("/api/chat")) == int(answer)


async def test_the_injected_calibration_decides(fake_ollama: RunningOllama) -> None:
    strict = Calibration(
        "all-minilm", Weights(top_dense=20.0), bias=-18.0, threshold=0.5, source="fitted for this test"
    )
    confident = [make_hit(1, "Boat wifi: see the router.", legs="dense", dense_score=0.8)]
    async with open_pipeline(fake_ollama.url, CannedSearcher(confident), calibration=strict) as pipeline:
        events = await collect(pipeline.run(QUESTION))
    decision = _decision(events)
    assert (decision.answer, decision.calibration_model, decision.calibration_source) == (
        False,
        "all-minilm",
        "fitted for this test",
    )
    assert fake_ollama.fake.calls("/api/chat") == []


class RecordingTracer:
    def __init__(self) -> None:
        self.records: list[tuple[str, dict[str, Scalar]]] = []

    def record(self, stage: str, attributes: Mapping[str, Scalar]) -> None:
        self.records.append((stage, dict(attributes)))


async def test_the_tracer_sees_the_decision_in_numbers(fake_ollama: RunningOllama) -> None:
    tracer = RecordingTracer()
    async with open_pipeline(fake_ollama.url, _weak(), tracer=tracer) as pipeline:
        await collect(pipeline.run(QUESTION))
    ((stage, attributes),) = tracer.records
    assert stage == "retrieval"
    assert (attributes["relevance_answer"], attributes["relevance_forced"], attributes["sent"]) == (False, False, 0)
    assert isinstance(attributes["relevance_score"], float)


def _hits_of(notes: int) -> list[Hit]:
    return [make_hit(n, f"Weak {n}.", title=f"N{n}", legs="dense", dense_score=0.1) for n in range(1, notes + 1)]


async def test_at_most_five_closest_notes(fake_ollama: RunningOllama) -> None:
    searcher = CannedSearcher(_hits_of(8), terms=list(UNKNOWN_TERMS))
    async with open_pipeline(fake_ollama.url, searcher) as pipeline:
        events = await collect(pipeline.run(QUESTION))
    assert [s.hit.chunk.title for s in _retrieval(events).closest] == ["N1", "N2", "N3", "N4", "N5"]
    assert len(_retrieval(events).sources) == 8
