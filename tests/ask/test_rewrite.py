"""Follow-up questions become standalone queries: by the model when it behaves, by rule when it does not."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from askvault.ask.rewrite import REWRITE_SYSTEM, fallback_query, parse_rewrite, rewrite_question
from askvault.config import OllamaConfig
from askvault.generate.ollama_chat import OllamaChatModel
from askvault.model import Message
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript

HISTORY = [Message("user", "What does the Postgres container do?"), Message("assistant", "It stores the wiki [1].")]


@pytest.fixture
async def chat(fake_ollama: RunningOllama) -> AsyncIterator[OllamaChatModel]:
    model = OllamaChatModel(OllamaConfig(url=fake_ollama.url))
    yield model
    await model.aclose()


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("What port does Postgres use?", "What port does Postgres use?"),
        ('  "What port does Postgres use?"  ', "What port does Postgres use?"),
        ("Standalone question: What port does Postgres use?", "What port does Postgres use?"),
        ("<think>they mean postgres</think>What port does Postgres use?", "What port does Postgres use?"),
        ("", None),
        ("   ", None),
        ("Sure! Here is the question: What port?", None),
        ("Here's the rewritten question: What port?", None),
        ("I cannot help with that.", None),
        ("What port?\nPostgres uses 5433.", None),
        ("x" * 400, None),
        ("What port<|im_end|>", None),
        ("The one for the laundry does not run.", None),
        ("Postgres listens on port 5433", None),
    ],
    ids=[
        "clean",
        "quoted",
        "labelled",
        "thinking-removed",
        "empty",
        "blank",
        "chatty-sure",
        "chatty-here",
        "refusal",
        "answers-too",
        "too-long",
        "template-token",
        "an-answer-not-a-question",
        "a-statement-without-a-stop",
    ],
)
def test_parse_rewrite(reply: str, expected: str | None) -> None:
    assert parse_rewrite(reply, "and its port?") == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        (
            "list my runs in March",
            "List the runs in March in my running log",
            "List the runs in March in my running log",
        ),
        ("list my runs in March", "Which runs did I do in March?", "Which runs did I do in March?"),
        ("and its port?", "Which port does Postgres use", None),
    ],
    ids=["a-request-may-stay-a-request", "a-request-may-become-a-question", "a-question-must-stay-one"],
)
def test_a_rewrite_keeps_a_question_a_question(question: str, reply: str, expected: str | None) -> None:
    assert parse_rewrite(reply, question) == expected


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        (HISTORY, "What does the Postgres container do? and its port?"),
        ([Message("assistant", "hello")], "and its port?"),
        ([Message("user", "p" * 400)], "p" * 300 + " and its port?"),
    ],
    ids=["previous-question-prepended", "no-user-turn", "previous-question-bounded"],
)
def test_fallback_query(history: list[Message], expected: str) -> None:
    assert fallback_query("and its port?", history) == expected


async def test_no_history_means_no_model_call(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    rewrite = await rewrite_question(chat, "What port does Postgres use?", [])
    assert (rewrite.query, rewrite.rewritten, rewrite.used_model) == ("What port does Postgres use?", False, False)
    assert fake_ollama.fake.calls("/api/chat") == []


async def test_model_rewrite_is_used(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["What port does ", "Postgres use?"]))
    rewrite = await rewrite_question(chat, "and its port?", HISTORY)
    assert (rewrite.query, rewrite.rewritten, rewrite.used_model) == ("What port does Postgres use?", True, True)
    (call,) = fake_ollama.fake.calls("/api/chat")
    assert call["stream"] is False
    assert call["messages"][0] == {"role": "system", "content": REWRITE_SYSTEM}
    transcript = call["messages"][1]["content"]
    assert "User: What does the Postgres container do?" in transcript
    assert "Last question: and its port?" in transcript


async def test_junk_reply_falls_back(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Sure! The question is about ports."]))
    rewrite = await rewrite_question(chat, "and its port?", HISTORY)
    assert (rewrite.query, rewrite.used_model) == ("What does the Postgres container do? and its port?", False)


async def test_model_failure_falls_back(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=[], status=500))
    rewrite = await rewrite_question(chat, "and its port?", HISTORY)
    assert (rewrite.query, rewrite.rewritten) == ("What does the Postgres container do? and its port?", True)


async def test_unreachable_model_falls_back(closed_port_url: str) -> None:
    model = OllamaChatModel(OllamaConfig(url=closed_port_url))
    try:
        rewrite = await rewrite_question(model, "and its port?", HISTORY)
    finally:
        await model.aclose()
    assert rewrite.query == "What does the Postgres container do? and its port?"


async def test_unchanged_rewrite_is_not_marked_rewritten(chat: OllamaChatModel, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["What is Kodi?"]))
    rewrite = await rewrite_question(chat, "What is Kodi?", HISTORY)
    assert (rewrite.query, rewrite.rewritten, rewrite.used_model) == ("What is Kodi?", False, True)
