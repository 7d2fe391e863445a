"""Evaluation: the question set, its checker against the sample vault, and retrieval metrics."""

from askvault.evaluate.metrics import (
    QuestionScore,
    evidence_hit_at_k,
    normalise_whitespace,
    path_recall_at_k,
    reciprocal_rank,
    score_question,
    summarise,
)
from askvault.evaluate.questions import QUESTION_TYPES, Question, check_questions, load_questions

__all__ = [
    "QUESTION_TYPES",
    "Question",
    "QuestionScore",
    "check_questions",
    "evidence_hit_at_k",
    "load_questions",
    "normalise_whitespace",
    "path_recall_at_k",
    "reciprocal_rank",
    "score_question",
    "summarise",
]
