"""The JSON document, the terminal table, report.md and chart.png, from a hand-made result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from askvault.evaluate.chart import write_chart
from askvault.evaluate.metrics import JsonValue, score_question
from askvault.evaluate.questions import Question
from askvault.evaluate.report import misses, render_markdown, render_text
from askvault.evaluate.report_json import to_json
from askvault.evaluate.runner import EvalResult, HitRecord, ModeRun

KS = (1, 3)
PORT = Question("port", "Which port?", "exact_value", ("A.md",), ("port 5433",))
IDEA = Question("idea", "Which idea?", "paraphrase", ("B.md",), ("an idea",))
NEG = Question("neg", "Who won in 1954?", "negative", (), ())


def hit(
    rank: int, path: str, *, evidence: bool = False, expected: bool = False, dense: float | None = 0.5
) -> HitRecord:
    return HitRecord(
        rank=rank,
        path=path,
        heading_path=("Title", "Section") if rank == 1 else (),
        start_line=rank,
        end_line=rank + 2,
        fused_score=1 / (60 + rank),
        dense_rank=rank if dense is not None else None,
        keyword_rank=None,
        dense_score=dense,
        keyword_score=None,
        expected_note=expected,
        has_evidence=evidence,
    )


def mode_run(question: Question, mode: str, hits: list[HitRecord]) -> ModeRun:
    score = score_question(
        question_id=question.id,
        type=question.type,
        mode=mode,
        expected_paths=question.expected_paths,
        evidence=question.evidence,
        ranked_paths=[h.path for h in hits],
        ranked_texts=[question.evidence[0] if h.has_evidence else "other" for h in hits],
        top_score=hits[0].fused_score if hits else None,
        ks=KS,
    )
    return ModeRun(question, score, tuple(hits))


def result(idea_rank: int = 2) -> EvalResult:
    idea_hits = [hit(r, "B.md" if r == idea_rank else "C.md", evidence=r == idea_rank) for r in (1, 2, 3)]
    runs = [
        mode_run(PORT, "dense", [hit(1, "A.md", evidence=True, expected=True), hit(2, "C.md")]),
        mode_run(PORT, "keyword", [hit(1, "C.md", dense=None), hit(2, "A.md", evidence=True, dense=None)]),
        mode_run(IDEA, "dense", idea_hits),
        mode_run(IDEA, "keyword", []),
        mode_run(NEG, "dense", [hit(1, "C.md", dense=0.25)]),
        mode_run(NEG, "keyword", []),
    ]
    meta: dict[str, JsonValue] = {"date": "2026-01-01T00:00:00Z", "embed_model": "all-minilm", "ks": list(KS)}
    return EvalResult((PORT, IDEA, NEG), KS, ("dense", "keyword"), tuple(runs), meta=meta)


def test_json_holds_summary_per_question_and_metadata() -> None:
    # Through json.dumps and back: the document must be plain JSON (no NaN, no tuples, no int keys).
    body: Any = json.loads(json.dumps(to_json(result()), allow_nan=False))
    assert set(body) == {"meta", "questions", "ks", "modes", "per_question"}
    assert body["questions"] == 3
    assert body["ks"] == [1, 3]
    assert body["meta"] == {"date": "2026-01-01T00:00:00Z", "embed_model": "all-minilm", "ks": [1, 3]}
    assert list(body["modes"]) == ["dense", "keyword"]
    dense = body["modes"]["dense"]
    assert dense["path_recall@1"] == 0.5  # port at 1, idea at 2
    assert dense["evidence_recall@3"] == 1.0
    assert dense["mrr"] == pytest.approx((1 + 0.5) / 2)
    assert set(dense["by_type"]) == {"exact_value", "paraphrase", "negative"}
    assert dense["negative_top_score"]["median"] == pytest.approx(1 / 61)
    assert dense["top_scores"]["negative"]["dense"]["max"] == 0.25
    per_question = body["per_question"]
    assert [q["id"] for q in per_question] == ["port", "idea", "neg"]
    port_keyword = per_question[0]["modes"]["keyword"]
    assert port_keyword["path_recall"] == {"1": 0.0, "3": 1.0}
    assert port_keyword["first_evidence_rank"] == 2
    assert port_keyword["hits"][1]["path"] == "A.md"
    assert port_keyword["hits"][1]["dense_score"] is None
    neg_dense = per_question[2]["modes"]["dense"]
    assert neg_dense["reciprocal_rank"] is None
    assert neg_dense["top_score"] == pytest.approx(1 / 61)


def test_terminal_table_shows_modes_types_and_misses() -> None:
    text = render_text(result(), result().summary())
    lines = text.splitlines()
    assert lines[0] == "3 questions (2 answerable), k = 1, 3"
    header = next(line for line in lines if line.startswith("mode"))
    assert header.split() == ["mode", "answerable", "P@1", "P@3", "E@1", "E@3", "MRR"]
    dense_row = next(line for line in lines if line.startswith("dense "))
    assert dense_row.split() == ["dense", "2", "0.500", "1.000", "0.500", "1.000", "0.750"]
    assert "By question type: evidence_recall@1" in text
    assert "dense: evidence not in the top 1 for idea" in text
    assert "keyword: evidence not in the top 1 for port, idea" in text


def test_markdown_report_lists_every_miss_with_what_ranked_above() -> None:
    report = render_markdown(result(), result().summary())
    assert report.startswith("# Retrieval evaluation\n")
    assert "| embed_model | all-minilm |" in report
    assert "| ks | 1, 3 |" in report
    assert "| dense | 2 | 0.500 | 1.000 | 0.500 | 1.000 | 0.750 |" in report
    assert "| paraphrase | keyword | 1 | 0.000 | 0.000 | 0.000 | 0.000 | 0.000 |" in report
    assert "### dense: 1 evidence miss(es) in the top 1" in report
    assert "- **idea** (paraphrase, evidence first at rank 2; path recall@1 0.00): Which idea?" in report
    assert "  - 1. C.md › Title › Section (L1–3; dense 1, keyword –)" in report
    assert "  - evidence: 2. B.md (L2–4; dense 2, keyword –)" in report
    assert "evidence not in the top 3" in report  # idea in keyword mode: no hits at all
    assert [run.question.id for run in misses(result(), "keyword", 3)] == ["idea"]


def test_chart_is_a_png_and_the_same_numbers_draw_the_same_bytes(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a" / "chart.png", tmp_path / "b.png", tmp_path / "c.png"
    write_chart(result().summary(), ("dense", "keyword"), 1, first)
    write_chart(result().summary(), ("dense", "keyword"), 1, second)
    write_chart(result(idea_rank=1).summary(), ("dense", "keyword"), 1, other)
    assert first.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
