"""Answer metrics for the evaluation: cited sentences, stated values, declines, grounding, and their summary."""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from askvault.evaluate.metrics import JsonValue, normalise_whitespace
from askvault.generate.citations import CITATION, find_citations, strip_code

Outcome = Literal["answered", "abstained", "error"]
"""answered: the model wrote an answer; abstained: no model was asked (the notes did not seem to cover the
question, or nothing was found); error: the model failed after retrieval (an error event)."""

# A sentence ends at . ! ? followed by space, or at a line break (list items, paragraphs).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")
_LETTER = re.compile(r"[^\W\d_]")
_ONLY_CITATIONS = re.compile(r"^(?:\s|[.,;:!?)(]|" + CITATION.pattern + r")*$")

_DECLINE = re.compile(
    r"\b(?:do|does|did)(?:\s+not|n't)\s+(?:seem\s+to\s+|appear\s+to\s+)?"
    r"(?:cover|contain|mention|say|include|have|provide|specify|state|answer|tell|list|give)\b"
    r"|\b(?:is|are|was|were)(?:\s+not|n't)\s+(?:covered|mentioned|included|stated|specified|listed|given|found)\b"
    r"|\bno\s+(?:information|mention|details?|record|data)\s+(?:about|on|of|regarding|in|is|was)\b"
    r"|\b(?:cannot|can't|can\s+not|could\s+not|couldn't|unable\s+to)\s+(?:find|answer|determine|tell|say)\b"
    r"|\bnot\s+(?:in|part\s+of|covered\s+by)\s+(?:the|your|my)\s+(?:notes|sources|vault)\b"
    r"|\bi\s+(?:do\s+not|don't)\s+know\b"
    r"|\bnicht\s+(?:enthalten|erwähnt|abgedeckt|beantwortet|angegeben)\b"
    r"|\bkeine\s+(?:Informationen|Angaben|Hinweise)\b",
    re.IGNORECASE,
)
"""Plain ways of saying "the notes do not cover it" (the system prompt asks for exactly that, in the question's
language); a negative question answered with one of them counts as declined."""


def answer_sentences(answer: str) -> list[str]:
    """The answer's sentences outside code, each with the citations that follow it.

    A citation written after the full stop ("… port 5433. [1]") belongs to the sentence before it, and pieces
    without a letter (list numbers, a lone dash) are not sentences.
    """
    sentences: list[str] = []
    for piece in _SENTENCE_END.split(strip_code(answer)):
        piece = piece.strip()
        if not piece:
            continue
        if CITATION.search(piece) and _ONLY_CITATIONS.match(piece):
            if sentences:
                sentences[-1] = f"{sentences[-1]} {piece}"
            continue
        if _LETTER.search(piece):
            sentences.append(piece)
    return sentences


def cited_sentence_share(answer: str) -> float | None:
    """Share of the answer's sentences that carry at least one [n]; None for an answer without sentences."""
    sentences = answer_sentences(answer)
    if not sentences:
        return None
    return sum(1 for sentence in sentences if CITATION.search(sentence)) / len(sentences)


def sentence_citations(answer: str) -> set[int]:
    """The numbers cited on a sentence: a list of bare markers ("1. [1]\n2. [2]") states nothing, so it cites
    nothing either."""
    return {n for sentence in answer_sentences(answer) for n in find_citations(sentence)}


def _fold(text: str) -> str:
    return normalise_whitespace(unicodedata.normalize("NFKC", text)).casefold()


def states_value(answer: str, values: Sequence[str]) -> bool:
    """True when the answer contains one of the values as a whole token (case and spacing aside): "5433" is
    in "port 5433 [1]" but not in "54330", "25" is not in "2025"."""
    text = _fold(answer)
    for value in values:
        needle = _fold(value)
        if needle and re.search(rf"(?<![^\W_]){re.escape(needle)}(?![^\W_])", text):
            return True
    return False


def declines(answer: str) -> bool:
    """True when the answer says the notes do not hold the answer (see `_DECLINE`)."""
    return _DECLINE.search(answer.replace("’", "'")) is not None


@dataclass(frozen=True, slots=True)
class AnswerScore:
    """How one chat model's answer to one question did; None where a figure does not apply."""

    question_id: str
    type: str
    model: str
    answerable: bool
    outcome: Outcome
    truncated: bool
    """The answer was cut: the token cap (`done_reason` "length") or a loop the pipeline stopped ("repetition")."""
    citations: tuple[int, ...]
    invalid_citations: tuple[int, ...]
    citations_valid: bool | None
    """Every [n] names a source that was sent; None unless answered."""
    cited_share: float | None
    """Share of the answer's sentences with a citation; None unless answered (or no sentences)."""
    grounded: bool | None
    """A source cited on a sentence holds the question's evidence; None unless an answerable question was
    answered."""
    evidence_sent: bool | None
    """A sent source holds the evidence (the most grounding could reach); None unless answerable and answered."""
    value_stated: bool | None
    """The answer states one of the question's values; None without values or unless answered."""
    declined: bool
    """Abstained, or the answer says the notes do not cover it."""
    first_token_s: float | None
    total_s: float
    prompt_tokens: int | None
    completion_tokens: int | None
    error_code: str | None = None
    done_reason: str | None = None
    """Why the answer ended, as the done event says ("stop", "length", "repetition"); None without a done event."""
    cites_every_source: bool | None = None
    """Every sent source is cited (of two or more): a citation that picks nothing out; None unless answered."""
    has_sentence: bool | None = None
    """The answer states anything at all (not only markers or list numbers); None unless answered."""


def score_answer(
    *,
    question_id: str,
    type: str,
    model: str,
    answerable: bool,
    values: Sequence[str],
    outcome: Outcome,
    answer: str,
    citations: Sequence[int],
    invalid_citations: Sequence[int],
    sent_evidence: Mapping[int, bool],
    truncated: bool = False,
    done_reason: str | None = None,
    first_token_s: float | None = None,
    total_s: float = 0.0,
    prompt_tokens: int | None = None,
    completion_tokens: int | None = None,
    error_code: str | None = None,
) -> AnswerScore:
    """Scores one answer. `sent_evidence` maps each sent source's [n] to whether its note lines hold evidence."""
    answered = outcome == "answered"
    valid = tuple(sorted(set(citations)))
    grounded = evidence_sent = None
    if answered and answerable:
        on_sentences = sentence_citations(answer).intersection(valid)
        grounded = any(sent_evidence.get(n, False) for n in on_sentences)
        evidence_sent = any(sent_evidence.values())
    cites_every_source = None
    if answered and len(sent_evidence) >= 2:
        cites_every_source = set(sent_evidence) <= set(valid)
    return AnswerScore(
        question_id=question_id,
        type=type,
        model=model,
        answerable=answerable,
        outcome=outcome,
        truncated=truncated,
        citations=valid,
        invalid_citations=tuple(sorted(set(invalid_citations))),
        citations_valid=not invalid_citations if answered else None,
        cited_share=cited_sentence_share(answer) if answered else None,
        grounded=grounded,
        evidence_sent=evidence_sent,
        value_stated=states_value(answer, values) if answered and values else None,
        declined=outcome == "abstained" or (answered and declines(answer)),
        first_token_s=first_token_s,
        total_s=total_s,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        error_code=error_code,
        done_reason=done_reason,
        cites_every_source=cites_every_source,
        has_sentence=bool(answer_sentences(answer)) if answered else None,
    )


def _rate(scores: Sequence[AnswerScore], test: Callable[[AnswerScore], bool | None]) -> dict[str, JsonValue]:
    """{"n": questions it applies to, "yes": how many passed, "rate": yes / n or None}."""
    flags = [flag for flag in (test(s) for s in scores) if flag is not None]
    yes = sum(flags)
    return {"n": len(flags), "yes": yes, "rate": yes / len(flags) if flags else None}


def _spread(values: Sequence[float | int | None]) -> dict[str, JsonValue]:
    present = sorted(v for v in values if v is not None)
    if not present:
        return {"n": 0, "mean": None, "median": None, "max": None}
    return {
        "n": len(present),
        "mean": round(statistics.fmean(present), 3),
        "median": statistics.median(present),
        "max": present[-1],
    }


def answer_figures(scores: Sequence[AnswerScore]) -> dict[str, JsonValue]:
    """One group's figures (a model, or a model's question type); rates say over how many questions."""
    answered = [s for s in scores if s.outcome == "answered"]
    shares = [s.cited_share for s in answered if s.cited_share is not None]
    return {
        "questions": len(scores),
        "answered": len(answered),
        "abstained": sum(s.outcome == "abstained" for s in scores),
        "errors": sum(s.outcome == "error" for s in scores),
        "truncated": sum(s.truncated for s in scores),
        "hit_token_cap": sum(s.done_reason == "length" for s in scores),
        "loop_stopped": sum(s.done_reason == "repetition" for s in scores),
        "citations_valid": _rate(answered, lambda s: s.citations_valid),
        "cites_something": _rate(answered, lambda s: bool(s.citations)),
        "cites_every_source": _rate(answered, lambda s: s.cites_every_source),
        "no_sentence": _rate(answered, lambda s: None if s.has_sentence is None else not s.has_sentence),
        "cited_sentence_share": round(statistics.fmean(shares), 4) if shares else None,
        "grounded": _rate(answered, lambda s: s.grounded),
        "evidence_sent": _rate(answered, lambda s: s.evidence_sent),
        "value_stated": _rate(answered, lambda s: s.value_stated),
        "negatives_declined": _rate(scores, lambda s: None if s.answerable else s.declined),
        "answerable_declined": _rate(scores, lambda s: s.declined if s.answerable and s.outcome != "error" else None),
        "first_token_s": _spread([s.first_token_s for s in answered]),
        "total_s": _spread([s.total_s for s in answered]),
        "prompt_tokens": _spread([s.prompt_tokens for s in answered]),
        "completion_tokens": _spread([s.completion_tokens for s in answered]),
    }


def summarise_answers(scores: Sequence[AnswerScore]) -> dict[str, JsonValue]:
    """`{model: {figures…, "by_type": {type: {figures…}}}}`, models and types in first-seen order."""
    seen: set[tuple[str, str]] = set()
    for score in scores:
        key = (score.model, score.question_id)
        if key in seen:
            raise ValueError(f"question {score.question_id} is scored twice for model {score.model}")
        seen.add(key)
    summary: dict[str, JsonValue] = {}
    for model in dict.fromkeys(s.model for s in scores):
        mine = [s for s in scores if s.model == model]
        figures = answer_figures(mine)
        types = dict.fromkeys(s.type for s in mine)
        figures["by_type"] = {type_: answer_figures([s for s in mine if s.type == type_]) for type_ in types}
        summary[model] = figures
    return summary
