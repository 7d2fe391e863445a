"""Real model output is untidy: the answer's token cap, a server that ignores it, and citations written oddly."""

from __future__ import annotations

import pytest

from askvault.ask.events import DoneEvent, TokenEvent
from askvault.ask.generation import MAX_ANSWER_CHARS
from askvault.wire.events import event_to_json
from tests.ask.canned import CannedSearcher, collect, kinds, open_pipeline
from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.generate.hits import make_hit
from tests.generate.waiting import wait_until

HITS = [make_hit(1, "Postgres listens on port 5433.", title="Postgres")]


async def _done(fake_ollama: RunningOllama, script: ChatScript, answer_tokens: int = 1024) -> DoneEvent:
    fake_ollama.fake.scripts.append(script)
    async with open_pipeline(fake_ollama.url, CannedSearcher(HITS), answer_tokens=answer_tokens) as pipeline:
        events = await collect(pipeline.run("What port?"))
    assert kinds(events)[0] == "retrieval"
    done = events[-1]
    assert isinstance(done, DoneEvent)
    assert done.answer == "".join(e.text for e in events if isinstance(e, TokenEvent))
    return done


async def test_the_answer_asks_for_a_token_cap_and_says_when_it_hit_it(fake_ollama: RunningOllama) -> None:
    done = await _done(fake_ollama, ChatScript(tokens=["again "] * 20), answer_tokens=5)
    [body] = fake_ollama.fake.calls("/api/chat")
    assert body["options"]["num_predict"] == 5
    assert done.answer == "again " * 5
    assert (done.done_reason, done.truncated, done.metrics.completion_tokens) == ("length", True, 5)
    shape = event_to_json(done)
    assert (shape["done_reason"], shape["truncated"]) == ("length", True)


async def test_an_answer_the_model_ended_is_not_truncated(fake_ollama: RunningOllama) -> None:
    done = await _done(fake_ollama, ChatScript(tokens=["Port 5433 ", "[1]."]))
    assert (done.done_reason, done.truncated, done.citations) == ("stop", False, (1,))
    assert event_to_json(done)["truncated"] is False


async def test_a_server_that_ignores_the_cap_is_cut_by_the_sidecar(fake_ollama: RunningOllama) -> None:
    # 100,000 characters of a model that never stops (never the same line twice, so no loop to spot); the
    # sidecar ends it at its backstop and closes the stream.
    tokens = [f"Note {n} says port {10_000 + n} [1].\n" for n in range(3000)]
    script = ChatScript(tokens=tokens, ignore_num_predict=True, delay_s=0.001)
    done = await _done(fake_ollama, script)
    assert len(done.answer) == MAX_ANSWER_CHARS
    assert (done.done_reason, done.truncated) == ("length", True)
    assert (done.metrics.prompt_tokens, done.metrics.completion_tokens) == (None, None)
    assert done.citations == (1,)
    assert await wait_until(lambda: fake_ollama.fake.cancelled_streams >= 1)


async def test_a_model_writing_the_same_lines_again_is_stopped(fake_ollama: RunningOllama) -> None:
    script = ChatScript(tokens=["It is 5433 [1].", "\n\n", "The Greatest Story Ever Told", "\n\n"] * 300, delay_s=0.001)
    done = await _done(fake_ollama, script)
    # Stopped at the fourth copy's line break: four copies of the loop, not the 1,024 tokens of the cap.
    assert done.answer == "It is 5433 [1].\n\nThe Greatest Story Ever Told\n\n" * 4
    assert (done.done_reason, done.truncated, done.citations) == ("repetition", True, (1,))
    assert event_to_json(done)["truncated"] is True
    assert await wait_until(lambda: fake_ollama.fake.cancelled_streams >= 1)


@pytest.mark.parametrize(
    ("tokens", "answer_tokens", "citations", "invalid"),
    [
        pytest.param(["Port 5433 [1] ", "and [12]."], 1024, (1,), (12,), id="stray-unsent-number"),
        pytest.param(["Use `arr[3]` ", "to read it [1]."], 1024, (1,), (), id="inside-a-code-span"),
        pytest.param(["```\nx = ", "[4]\n```\n", "Port 5433 [1]."], 1024, (1,), (), id="inside-a-fence"),
        pytest.param(["Port 5433 [", "1", "]."], 1024, (1,), (), id="a-marker-split-over-tokens"),
        pytest.param(["Port ", "5433 ", "[", "1", "]."], 3, (), (), id="half-a-marker-at-the-cap"),
        pytest.param(["Port 5433 [1]. "] * 300, 1024, (1,), (), id="repeated-text-on-one-line"),
        pytest.param(["Port 5433 [1].\n"] * 300, 1024, (1,), (), id="repeated-lines"),
        pytest.param(["[1][1][1", "]"], 1024, (1,), (), id="the-same-number-again"),
        pytest.param(["Ports [1-3] and [0]."], 1024, (1,), (0, 2, 3), id="a-range-beyond-the-sources"),
    ],
)
async def test_citations_in_untidy_answers(
    fake_ollama: RunningOllama,
    tokens: list[str],
    answer_tokens: int,
    citations: tuple[int, ...],
    invalid: tuple[int, ...],
) -> None:
    done = await _done(fake_ollama, ChatScript(tokens=tokens), answer_tokens=answer_tokens)
    assert (done.citations, done.invalid_citations) == (citations, invalid)
