"""Retrieval metrics for the evaluation: path recall, evidence hits, reciprocal rank and their summary."""

from __future__ import annotations

import statistics
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

JsonValue = float | int | str | bool | None | dict[str, "JsonValue"] | list["JsonValue"]
"""What `summarise` returns is plain JSON, ready for `json.dumps`."""


def normalise_whitespace(text: str) -> str:
    """Collapses every run of whitespace to one space (and NFC-normalises) so line wrapping never decides a hit."""
    # NFC as well: a note typed on macOS may store "ü" decomposed while the question file has it composed.
    return " ".join(unicodedata.normalize("NFC", text).split())


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


def path_recall_at_k(ranked_paths: Sequence[str], expected: Sequence[str], k: int) -> float:
    """Share of the expected notes found among the first k ranked entries (chunks).

    The first k entries are taken as ranked (the same k chunks Evidence Recall@k looks at); a note that
    appears in several of them counts once, and so does a path listed twice in `expected`.
    """
    _check_k(k)
    wanted = set(expected)
    if not wanted:
        raise ValueError("path recall is undefined for a question without expected paths")
    found = wanted.intersection(ranked_paths[:k])
    return len(found) / len(wanted)


def evidence_hit_at_k(ranked_texts: Sequence[str], evidence: Sequence[str], k: int) -> bool:
    """True when one of the first k chunk texts contains any evidence string, both whitespace-normalised."""
    _check_k(k)
    needles = [needle for needle in (normalise_whitespace(e) for e in evidence) if needle]
    if not needles:
        raise ValueError("an evidence hit is undefined for a question without evidence")
    return any(needle in normalise_whitespace(text) for text in ranked_texts[:k] for needle in needles)


def reciprocal_rank(ranked_paths: Sequence[str], expected: Sequence[str]) -> float:
    """1 / (1-based rank of the first entry whose path is expected); 0.0 when none is."""
    wanted = set(expected)
    if not wanted:
        raise ValueError("reciprocal rank is undefined for a question without expected paths")
    for position, path in enumerate(ranked_paths, start=1):
        if path in wanted:
            return 1.0 / position
    return 0.0


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """How one retrieval mode did on one question."""

    question_id: str
    type: str
    mode: str
    """Retrieval mode that produced the ranking ("hybrid", "dense", "keyword", or any label the caller uses)."""
    answerable: bool
    """False for questions whose answer is not in the vault; they only contribute `top_score`."""
    path_recall: Mapping[int, float]
    """k → Path Recall@k; empty when the question is not answerable."""
    evidence_hit: Mapping[int, bool]
    """k → whether a top-k chunk holds the evidence; empty when the question is not answerable."""
    reciprocal_rank: float | None
    """None when the question is not answerable."""
    top_score: float | None
    """Score of the best hit (whatever the mode ranks by); None when the search returned nothing."""
    language: str = "en"
    """The language the question is asked in (`Question.language`)."""


def score_question(
    *,
    question_id: str,
    type: str,
    mode: str,
    expected_paths: Sequence[str],
    evidence: Sequence[str],
    ranked_paths: Sequence[str],
    ranked_texts: Sequence[str],
    top_score: float | None,
    ks: Sequence[int],
    language: str = "en",
) -> QuestionScore:
    """Scores one ranking (paths and texts of the same chunks, best first) against one question."""
    if len(ranked_paths) != len(ranked_texts):
        raise ValueError("ranked_paths and ranked_texts must describe the same chunks")
    if not expected_paths:
        return QuestionScore(question_id, type, mode, False, {}, {}, None, top_score, language)
    return QuestionScore(
        question_id=question_id,
        type=type,
        mode=mode,
        answerable=True,
        path_recall={k: path_recall_at_k(ranked_paths, expected_paths, k) for k in ks},
        evidence_hit={k: evidence_hit_at_k(ranked_texts, evidence, k) for k in ks},
        reciprocal_rank=reciprocal_rank(ranked_paths, expected_paths),
        top_score=top_score,
        language=language,
    )


def _mean(values: Iterable[float]) -> float | None:
    collected = list(values)
    return sum(collected) / len(collected) if collected else None


def _recall_figures(scores: Sequence[QuestionScore], ks: Sequence[int]) -> dict[str, JsonValue]:
    figures: dict[str, JsonValue] = {}
    for k in ks:
        missing = [s.question_id for s in scores if k not in s.path_recall or k not in s.evidence_hit]
        if missing:
            raise ValueError(f"no figures at k={k} for question(s) {', '.join(missing)}")
        figures[f"path_recall@{k}"] = _mean(s.path_recall[k] for s in scores)
        figures[f"evidence_recall@{k}"] = _mean(float(s.evidence_hit[k]) for s in scores)
    figures["mrr"] = _mean(s.reciprocal_rank or 0.0 for s in scores)
    return figures


def _score_distribution(scores: Sequence[QuestionScore]) -> dict[str, JsonValue]:
    values = sorted(s.top_score for s in scores if s.top_score is not None)
    return {
        "questions": len(scores),
        "no_hits": len(scores) - len(values),
        "min": values[0] if values else None,
        "median": statistics.median(values) if values else None,
        "max": values[-1] if values else None,
    }


def _figures(scores: Sequence[QuestionScore], ks: Sequence[int]) -> dict[str, JsonValue]:
    answerable = [s for s in scores if s.answerable]
    figures: dict[str, JsonValue] = {"questions": len(scores), "answerable": len(answerable)}
    figures.update(_recall_figures(answerable, ks))
    figures["negative_top_score"] = _score_distribution([s for s in scores if not s.answerable])
    return figures


def _summarise_mode(scores: Sequence[QuestionScore], ks: Sequence[int]) -> dict[str, JsonValue]:
    summary = _figures(scores, ks)
    types = dict.fromkeys(s.type for s in scores)
    summary["by_type"] = {type_: _figures([s for s in scores if s.type == type_], ks) for type_ in types}
    languages = dict.fromkeys(s.language for s in scores)
    if len(languages) > 1:
        summary["by_language"] = {code: _figures([s for s in scores if s.language == code], ks) for code in languages}
    return summary


def summarise(per_question: Sequence[QuestionScore], ks: Sequence[int]) -> dict[str, JsonValue]:
    """Per-mode figures: recall@k and MRR over answerable questions, a by-type breakdown, negative top scores.

    Returns `{mode: {"questions", "answerable", "path_recall@k"…, "evidence_recall@k"…, "mrr",
    "negative_top_score": {"questions", "no_hits", "min", "median", "max"}, "by_type": {type: {same keys}}}}`,
    plus `"by_language": {code: {same keys}}` when the questions are in more than one language; modes, types and
    languages in first-seen order. A mean or median over no questions is None, never a misleading 0.
    """
    if not ks:
        raise ValueError("ks must name at least one k")
    for k in ks:
        _check_k(k)
    ids_seen: set[tuple[str, str]] = set()
    for score in per_question:
        key = (score.mode, score.question_id)
        if key in ids_seen:
            raise ValueError(f"question {score.question_id} is scored twice in mode {score.mode}")
        ids_seen.add(key)
    modes = dict.fromkeys(s.mode for s in per_question)
    return {mode: _summarise_mode([s for s in per_question if s.mode == mode], ks) for mode in modes}
