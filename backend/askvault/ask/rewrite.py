"""Rewrites a follow-up question into a standalone search query, with a rule-based fallback."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from askvault.errors import ModelError
from askvault.generate.protocol import ChatModel
from askvault.generate.sanitize import clean_text
from askvault.model import Message

log = logging.getLogger(__name__)

REWRITE_SYSTEM = (
    "You rewrite the user's last question so it can be understood without the conversation. "
    "Replace words like it, that, they, there and omitted subjects with what they refer to in the conversation. "
    "Do not answer the question. Reply with the rewritten question only: one line, no quotes, no explanation. "
    "If the question is already standalone, repeat it unchanged."
)
TRANSCRIPT_MESSAGE_CHARS = 500
"""Each prior turn shown to the rewriter is cut to this: it only needs to know what is being talked about."""
MAX_QUERY_CHARS = 300
FALLBACK_CONTEXT_CHARS = 300

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_LABEL = re.compile(r"^(?:standalone|rewritten|search)?\s*(?:question|query)\s*:\s*", re.IGNORECASE)
_QUOTES = "\"'“”‘’`"
_CHATTY = re.compile(
    r"^(?:sure|certainly|of course|okay|ok|here(?:'s| is| are)|i (?:cannot|can't|can not|am sorry|apologi[sz]e)"
    r"|i'm sorry|as an ai|sorry|the (?:rewritten|standalone))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Rewrite:
    query: str
    """What retrieval searches for."""
    rewritten: bool
    """True when `query` differs from the question."""
    used_model: bool
    """True when the model's rewrite was used, False for the fallback or when no rewrite was needed."""


def parse_rewrite(reply: str, question: str) -> str | None:
    """The standalone question in a model reply, or None when the reply is junk (empty, chatty, multi-line,
    too long, still carrying template tokens, or a statement where the follow-up asked a question)."""
    text = _THINK.sub("", reply).strip()
    text = _LABEL.sub("", text).strip().strip(_QUOTES).strip()
    if not text or "\n" in text or _CHATTY.match(text):
        return None
    if len(text) > max(MAX_QUERY_CHARS, 3 * len(question)) or clean_text(text) != text:
        return None
    if question.rstrip().endswith("?") and not text.endswith("?"):
        # A question rewritten is a question: a statement is the model answering it (smollm2:135m did so in
        # 9 of 32 follow-ups, and searching its answer lost the evidence the fallback found).
        return None
    return text


def fallback_query(question: str, history: Sequence[Message]) -> str:
    """The previous user question followed by the follow-up.

    Keyword search ORs rarity-weighted terms, so the previous question's rare words ("postgres") bring back
    the subject a follow-up ("and its port?") leaves out, while the follow-up's own words still rank; the
    dense leg embeds both together. No model needed, so it works exactly when the model call did not.
    """
    previous = next((m.content.strip() for m in reversed(history) if m.role == "user"), "")
    if not previous:
        return question
    return f"{previous[:FALLBACK_CONTEXT_CHARS]} {question}"


def _transcript(question: str, history: Sequence[Message]) -> str:
    lines = []
    for message in history:
        text = " ".join(clean_text(message.content).split())
        if len(text) > TRANSCRIPT_MESSAGE_CHARS:
            text = text[: TRANSCRIPT_MESSAGE_CHARS - 1] + "…"
        lines.append(f"{message.role.capitalize()}: {text}")
    conversation = "\n".join(lines)
    return f"Conversation:\n{conversation}\n\nLast question: {clean_text(question)}\n\nRewritten question:"


async def rewrite_question(
    chat: ChatModel, question: str, history: Sequence[Message], timeout_s: float = 30.0
) -> Rewrite:
    """A standalone query for retrieval. No history: the question itself and no model call.

    Pass history already bounded (prompt.bound_history). The model call is short and capped by
    `timeout_s` (a stalled rewrite must not hold the question for the full read timeout).
    """
    if not history:
        return Rewrite(query=question, rewritten=False, used_model=False)
    messages = [
        Message(role="system", content=REWRITE_SYSTEM),
        Message(role="user", content=_transcript(question, history)),
    ]
    try:
        async with asyncio.timeout(timeout_s):
            reply = await chat.complete(messages)
        parsed = parse_rewrite(reply, question)
    except (ModelError, TimeoutError) as exc:
        log.info("follow-up rewrite failed (%s); using the rule-based fallback", type(exc).__name__)
        parsed = None
    if parsed is None:
        query = fallback_query(question, history)
        return Rewrite(query=query, rewritten=query != question, used_model=False)
    return Rewrite(query=parsed, rewritten=parsed != question, used_model=True)
