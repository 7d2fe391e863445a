"""The chat reranker through the real `ollama` client against the fake server: the order, and every fallback."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from askvault.ask.rerank import ChatReranker
from askvault.config import OllamaConfig
from askvault.generate.ollama_chat import OllamaChatModel
from askvault.model import Hit
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit

HITS = [make_hit(n, f"Text of note {n}.") for n in range(1, 6)]
FUSED = tuple(hit.chunk.id for hit in HITS)


@pytest.fixture
async def chat(fake_ollama: RunningOllama) -> AsyncIterator[OllamaChatModel]:
    model = OllamaChatModel(OllamaConfig(url=fake_ollama.url, chat_model="llama3.2:3b"))
    try:
        yield model
    finally:
        await model.aclose()


def _ids(hits: tuple[Hit, ...]) -> list[str]:
    return [hit.chunk.id for hit in hits]


async def test_the_models_order_is_used_and_reported(fake_ollama: RunningOllama, chat: OllamaChatModel) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ', '["c3", "c1", "c2", "c4"]}']))
    reranked = await ChatReranker(chat, candidates=4).rerank("What is in note 3?", HITS)

    assert _ids(reranked.hits) == ["chunk-3", "chunk-1", "chunk-2", "chunk-4", "chunk-5"]
    report = reranked.report
    assert (report.applied, report.model, report.candidates, report.fallback_reason, report.detail) == (
        True,
        "llama3.2:3b",
        4,
        None,
        None,
    )
    assert (report.order_changed, report.omitted, report.fused_order) == (True, 0, FUSED[:4])
    assert report.ms >= 0.0

    (call,) = fake_ollama.fake.calls("/api/chat")
    assert call["stream"] is False
    assert call["options"]["temperature"] == 0
    assert call["format"]["properties"]["ranking"]["items"]["enum"] == ["c1", "c2", "c3", "c4"]
    user = call["messages"][1]["content"]
    assert '<candidate id="c4"' in user
    assert "c5" not in user


async def test_the_same_order_is_applied_but_unchanged(fake_ollama: RunningOllama, chat: OllamaChatModel) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ["c1", "c2", "c3", "c4", "c5"]}']))
    reranked = await ChatReranker(chat).rerank("q", HITS)
    assert _ids(reranked.hits) == list(FUSED)
    assert (reranked.report.applied, reranked.report.order_changed, reranked.report.candidates) == (True, False, 5)


async def test_a_partial_ranking_leads_and_the_rest_keep_fused_order(
    fake_ollama: RunningOllama, chat: OllamaChatModel
) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=['{"ranking": ["c5", "c2"]}']))
    reranked = await ChatReranker(chat).rerank("q", HITS)
    assert _ids(reranked.hits) == ["chunk-5", "chunk-2", "chunk-1", "chunk-3", "chunk-4"]
    assert (reranked.report.applied, reranked.report.omitted) == (True, 3)


@pytest.mark.parametrize(
    ("script", "reason", "detail"),
    [
        pytest.param(
            ChatScript(tokens=['{"ranking": ["c2", "c9"]}']),
            "unknown_id",
            "unknown candidate id(s) 'c9'",
            id="unknown-id",
        ),
        pytest.param(
            ChatScript(tokens=['{"ranking": ["c2", "c1", "c2"]}']),
            "duplicate_id",
            "candidate id 'c2' is ranked twice",
            id="duplicate",
        ),
        pytest.param(
            ChatScript(tokens=["According to your notes, the port is 5433 [1]"]),
            "malformed",
            "the reply is not JSON (Expecting value at char 0)",
            id="malformed",
        ),
        pytest.param(ChatScript(tokens=['{"ranking": []}']), "empty", '"ranking" is empty', id="empty-ranking"),
        pytest.param(
            ChatScript(tokens=[]), "malformed", "the reply is not JSON (Expecting value at char 0)", id="no-text"
        ),
        pytest.param(
            ChatScript(tokens=['{"ranking": [3, 1]}']),
            "wrong_shape",
            '"ranking" holds something other than id strings',
            id="wrong-types",
        ),
        pytest.param(
            ChatScript(tokens=[], status=500, error="out of memory"),
            "model_error",
            "Ollama at {url} failed while answering (HTTP 500): out of memory",
            id="http-500",
        ),
        pytest.param(
            ChatScript(tokens=['{"ranking": ["c1"]}'], reply_delay_s=5.0),
            "timeout",
            "no ranking within 0.3 s",
            id="timeout",
        ),
    ],
)
async def test_every_failure_keeps_the_fused_order_and_says_why(
    fake_ollama: RunningOllama, chat: OllamaChatModel, script: ChatScript, reason: str, detail: str
) -> None:
    fake_ollama.fake.scripts.append(script)
    reranked = await ChatReranker(chat, timeout_s=0.3).rerank("q", HITS)

    assert _ids(reranked.hits) == list(FUSED)
    report = reranked.report
    # The detail names the fake's address, which differs per run.
    assert (report.applied, report.fallback_reason, report.detail) == (
        False,
        reason,
        detail.replace("{url}", fake_ollama.url),
    )
    assert (report.order_changed, report.omitted, report.fused_order, report.candidates) == (False, 0, FUSED, 5)
    assert len(fake_ollama.fake.calls("/api/chat")) == 1


async def test_a_missing_model_is_a_model_error_fallback(fake_ollama: RunningOllama) -> None:
    chat = OllamaChatModel(OllamaConfig(url=fake_ollama.url, chat_model="qwen3:8b"))
    try:
        reranked = await ChatReranker(chat).rerank("q", HITS)
    finally:
        await chat.aclose()
    assert _ids(reranked.hits) == list(FUSED)
    assert (reranked.report.applied, reranked.report.fallback_reason, reranked.report.model) == (
        False,
        "model_error",
        "qwen3:8b",
    )
    assert "ollama pull qwen3:8b" in (reranked.report.detail or "")


async def test_ollama_gone_is_a_model_error_fallback(closed_port_url: str) -> None:
    chat = OllamaChatModel(OllamaConfig(url=closed_port_url, connect_timeout_s=2.0))
    try:
        reranked = await ChatReranker(chat).rerank("q", HITS)
    finally:
        await chat.aclose()
    assert (reranked.report.applied, reranked.report.fallback_reason) == (False, "model_error")
    assert _ids(reranked.hits) == list(FUSED)


@pytest.mark.parametrize("count", [0, 1], ids=["none", "one"])
async def test_fewer_than_two_candidates_make_no_call(
    fake_ollama: RunningOllama, chat: OllamaChatModel, count: int
) -> None:
    reranked = await ChatReranker(chat).rerank("q", HITS[:count])
    assert _ids(reranked.hits) == list(FUSED[:count])
    assert (reranked.report.applied, reranked.report.fallback_reason) == (False, "too_few_candidates")
    assert fake_ollama.fake.calls("/api/chat") == []
