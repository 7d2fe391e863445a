"""The evaluation run's JSON document: every figure and every ranked hit, ready for json.dumps."""

from __future__ import annotations

from askvault.ask.relevance import RelevanceSignals
from askvault.evaluate.metrics import JsonValue
from askvault.evaluate.runner import EvalResult, HitRecord, ModeRun


def _hit_json(hit: HitRecord) -> dict[str, JsonValue]:
    return {
        "rank": hit.rank,
        "path": hit.path,
        "heading_path": list(hit.heading_path),
        "start_line": hit.start_line,
        "end_line": hit.end_line,
        "fused_score": hit.fused_score,
        "dense_rank": hit.dense_rank,
        "keyword_rank": hit.keyword_rank,
        "dense_score": hit.dense_score,
        "keyword_score": hit.keyword_score,
        "expected_note": hit.expected_note,
        "has_evidence": hit.has_evidence,
    }


def _run_json(run: ModeRun) -> dict[str, JsonValue]:
    score = run.score
    return {
        "path_recall": {str(k): v for k, v in score.path_recall.items()},
        "evidence_hit": {str(k): v for k, v in score.evidence_hit.items()},
        "reciprocal_rank": score.reciprocal_rank,
        "first_expected_rank": run.first_expected_rank,
        "first_evidence_rank": run.first_evidence_rank,
        "top_score": score.top_score,
        "seconds": run.seconds,
        "hits": [_hit_json(hit) for hit in run.hits],
        "relevance": _signals_json(run.relevance) if run.relevance is not None else None,
    }


def _signals_json(signals: RelevanceSignals) -> dict[str, JsonValue]:
    return {
        "top_dense": signals.top_dense,
        "keyword_strength": signals.keyword_strength,
        "term_coverage": signals.term_coverage,
        "legs_agree": signals.legs_agree,
        "dense_gap": signals.dense_gap,
        "dense_available": signals.dense_available,
    }


def to_json(result: EvalResult) -> dict[str, JsonValue]:
    """`{"meta", "questions", "ks", "modes": {mode: figures}, "per_question": [...]}`, ready for json.dumps."""
    per_question: list[JsonValue] = []
    for question in result.questions:
        per_question.append(
            {
                "id": question.id,
                "type": question.type,
                "language": question.language,
                "question": question.question,
                "expected_paths": list(question.expected_paths),
                "evidence": list(question.evidence),
                "modes": {mode: _run_json(result.run(question.id, mode)) for mode in result.modes},
            }
        )
    return {
        "meta": dict(result.meta),
        "questions": len(result.questions),
        "ks": list(result.ks),
        "modes": result.summary(),
        "per_question": per_question,
    }
