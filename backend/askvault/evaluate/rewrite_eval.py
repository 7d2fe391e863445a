"""Follow-up rewriting measured: evidence recall of the model's rewrite against the hand-written standalone
question, the rule-based fallback and the follow-up as it was typed."""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from askvault.ask.rewrite import fallback_query, rewrite_question
from askvault.errors import ConfigError
from askvault.evaluate.conversations import Conversation
from askvault.evaluate.metrics import JsonValue, summarise
from askvault.evaluate.modes import EvalMode
from askvault.evaluate.runner import ModeRun, NoteLines, run_mode
from askvault.generate.prompt import bound_history
from askvault.generate.protocol import ChatModel

AS_IS = "as_is"
STANDALONE = "standalone"
FALLBACK = "fallback"
REWRITE_KS = (3, 6)


def rewrite_variant(model: str) -> str:
    return f"rewrite:{model}"


@dataclass(frozen=True, slots=True)
class RewriteRecord:
    """What one chat model made of one follow-up."""

    conversation_id: str
    model: str
    query: str
    used_model: bool
    """The model's reply was a usable question; False: the rule-based fallback was searched instead."""
    seconds: float


@dataclass(frozen=True)
class RewriteResult:
    conversations: tuple[Conversation, ...]
    ks: tuple[int, ...]
    variants: tuple[str, ...]
    runs: tuple[ModeRun, ...]
    """One per conversation and variant; `run.score.mode` is the variant, `run.question.question` its query."""
    rewrites: tuple[RewriteRecord, ...]
    meta: dict[str, JsonValue] = field(default_factory=dict)

    def summary(self) -> dict[str, JsonValue]:
        """`metrics.summarise` per variant, plus for each model's rewrite how often the model's reply was used."""
        figures = summarise([run.score for run in self.runs], self.ks)
        for record_model in dict.fromkeys(r.model for r in self.rewrites):
            mine = [r for r in self.rewrites if r.model == record_model]
            variant = figures[rewrite_variant(record_model)]
            assert isinstance(variant, dict)
            seconds = [r.seconds for r in mine]
            variant["model_used"] = sum(r.used_model for r in mine)
            variant["fell_back"] = sum(not r.used_model for r in mine)
            variant["rewrite_seconds_mean"] = round(statistics.fmean(seconds), 3)
            variant["rewrite_seconds_max"] = round(max(seconds), 3)
        return figures

    def run(self, conversation_id: str, variant: str) -> ModeRun:
        for run in self.runs:
            if run.question.id == conversation_id and run.score.mode == variant:
                return run
        raise KeyError(f"no run for conversation {conversation_id!r} as {variant!r}")


async def run_rewrites(
    conversations: Sequence[Conversation],
    chats: Mapping[str, ChatModel],
    hybrid: EvalMode,
    vault: Path,
    *,
    max_history_turns: int,
    timeout_s: float = 30.0,
    ks: Sequence[int] = REWRITE_KS,
    on_step: Callable[[], None] | None = None,
    meta: dict[str, JsonValue] | None = None,
) -> RewriteResult:
    """Each conversation's follow-up searched four ways (as typed, standalone by hand, the fallback, and each
    model's rewrite, made by the pipeline's own `rewrite_question` from the same bounded history)."""
    if not conversations:
        raise ConfigError("the conversation file holds no conversations")
    lines = NoteLines(vault)
    variants = (AS_IS, STANDALONE, FALLBACK, *(rewrite_variant(model) for model in chats))
    runs: list[ModeRun] = []
    records: list[RewriteRecord] = []
    for conversation in conversations:
        turns = bound_history(conversation.history(), max_history_turns)
        queries = {
            AS_IS: conversation.followup,
            STANDALONE: conversation.standalone,
            FALLBACK: fallback_query(conversation.followup, turns),
        }
        for model, chat in chats.items():
            started = time.perf_counter()
            rewrite = await rewrite_question(chat, conversation.followup, turns, timeout_s)
            seconds = round(time.perf_counter() - started, 3)
            records.append(RewriteRecord(conversation.id, model, rewrite.query, rewrite.used_model, seconds))
            queries[rewrite_variant(model)] = rewrite.query
        for variant in variants:
            mode = dataclasses.replace(hybrid, name=variant)
            runs.append(await run_mode(conversation.as_question(queries[variant]), mode, ks, lines))
        if on_step is not None:
            on_step()
    return RewriteResult(tuple(conversations), tuple(ks), variants, tuple(runs), tuple(records), dict(meta or {}))
