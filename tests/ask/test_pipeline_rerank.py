"""The answer pipeline with the reranker on: the prompt follows the model's order, the event reports it, and any
failure answers from the fused order."""

from __future__ import annotations

import json

from askvault.ask.events import DoneEvent, RetrievalEvent
from askvault.config import RetrievalParams
from askvault.wire.events import event_to_json
from tests.ask.canned import CannedSearcher, collect, kinds, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit

HITS = [make_hit(n, f"Text of note {n}.") for n in range(1, 15)]
RERANK = RetrievalParams(rerank=True, rerank_candidates=4, top_k=3)


def _retrieval(events: list[object]) -> RetrievalEvent:
    first = events[0]
    assert isinstance(first, RetrievalEvent)
    return first


def _sent_ids(retrieval: RetrievalEvent) -> list[str]:
    return list(retrieval.sent)


async def test_the_prompt_follows_the_rerankers_order(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ["c4", "c2"]}']))
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Answer [1]."]))
    searcher = CannedSearcher(list(HITS))
    async with open_pipeline(fake_ollama.url, searcher, retrieval=RERANK) as pipeline:
        events = await collect(pipeline.run("What is in note 4?"))

    assert kinds(events) == ["retrieval", "token", "done"]
    # The searcher is asked for the reranker's candidates even though only 3 sources are wanted.
    assert [q.k for q in searcher.queries] == [4]
    retrieval = _retrieval(list(events))
    assert _sent_ids(retrieval) == ["chunk-4", "chunk-2", "chunk-1"]
    assert [s.hit.chunk.id for s in retrieval.sources] == ["chunk-4", "chunk-2", "chunk-1"]
    assert "Text of note 4." in retrieval.prompt[-1].content.split('n="2"')[0]

    rerank = event_to_json(retrieval)["rerank"]
    assert isinstance(rerank, dict)
    assert rerank["ms"] is not None
    rerank["ms"] = 0.0
    assert rerank == {
        "applied": True,
        "model": "llama3.2:3b",
        "candidates": 4,
        "fallback_reason": None,
        "detail": None,
        "ms": 0.0,
        "order_changed": True,
        "omitted": 2,
        "fused_order": ["chunk-1", "chunk-2", "chunk-3", "chunk-4"],
    }
    rerank_call, answer_call = fake_ollama.fake.calls("/api/chat")
    assert "format" in rerank_call
    assert "format" not in answer_call
    assert isinstance(events[-1], DoneEvent)


async def test_a_failed_rerank_answers_from_the_fused_order(fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["I think c3 is best."]))
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Answer [1]."]))
    async with open_pipeline(fake_ollama.url, CannedSearcher(list(HITS)), retrieval=RERANK) as pipeline:
        events = await collect(pipeline.run("q"))

    assert kinds(events) == ["retrieval", "token", "done"]
    retrieval = _retrieval(list(events))
    assert _sent_ids(retrieval) == ["chunk-1", "chunk-2", "chunk-3"]
    assert retrieval.rerank is not None
    assert (retrieval.rerank.applied, retrieval.rerank.fallback_reason) == (False, "malformed")
    assert isinstance(events[-1], DoneEvent)
    assert events[-1].answer == "Answer [1]."


async def test_only_relevant_hits_are_offered_and_none_means_no_call(fake_ollama: RunningOllama) -> None:
    weak = [make_hit(n, f"weak {n}", legs="dense", dense_score=0.1) for n in range(1, 4)]
    params = RetrievalParams(rerank=True, min_dense_score=0.5)
    async with open_pipeline(fake_ollama.url, CannedSearcher(weak), retrieval=params) as pipeline:
        events = await collect(pipeline.run("q"))

    retrieval = _retrieval(list(events))
    assert retrieval.rerank is None
    assert json.loads(json.dumps(event_to_json(retrieval)))["rerank"] is None
    assert fake_ollama.fake.calls("/api/chat") == []


async def test_reranking_off_reports_null_and_asks_for_k(fake_ollama: RunningOllama) -> None:
    searcher = CannedSearcher(list(HITS))
    async with open_pipeline(fake_ollama.url, searcher) as pipeline:
        events = await collect(pipeline.run("q", k=5))
    retrieval = _retrieval(list(events))
    assert event_to_json(retrieval)["rerank"] is None
    assert [q.k for q in searcher.queries] == [5]
    assert len(fake_ollama.fake.calls("/api/chat")) == 1
