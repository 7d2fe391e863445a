"""`askvault eval --dump-legs`: each question's legs written as JSONL, consistent with the run's own report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from askvault.cli.options import EXIT_ERROR
from tests.cli.test_eval_cmd import base_args, invoke
from tests.conftest import RunningOllama, VaultWriter
from tests.evaluate.tiny_vault import NOTES, QUESTIONS


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def test_every_question_gets_its_legs_and_the_fused_order_of_the_report(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    vault = make_vault(NOTES)
    dump, report = tmp_path / "legs" / "tiny.jsonl", tmp_path / "run.json"
    args = base_args(tmp_path, vault, fake_ollama.url)
    result = await invoke(*args, "--modes", "hybrid", "--json", report, "--dump-legs", dump)
    assert result.exit_code == 0, result.output

    records = read_jsonl(dump)
    assert [r["id"] for r in records] == [q["id"] for q in QUESTIONS]
    per_question = {q["id"]: q for q in json.loads(report.read_text(encoding="utf-8"))["per_question"]}
    for record in records:
        assert record["dense"]  # the dense leg lists every chunk of a five-note vault
        assert record["keyword"] or not record["answerable"]
        for chunk_id, score in [*record["dense"], *record["keyword"]]:
            assert isinstance(score, float)
            assert chunk_id in record["chunks"]
        scores = [score for _, score in record["dense"]]
        assert scores == sorted(scores, reverse=True)
        # The fused order is the product's hybrid ranking, the same the report scored.
        hits = per_question[record["id"]]["modes"]["hybrid"]["hits"]
        shown = [record["chunks"][cid] for cid in record["fused"][: len(hits)]]
        assert [(c["path"], c["start_line"], c["has_evidence"]) for c in shown] == [
            (h["path"], h["start_line"], h["has_evidence"]) for h in hits
        ]
        for chunk in record["chunks"].values():
            assert chunk["path"] in NOTES
            assert chunk["index_text"].endswith(chunk["text"])
        if not record["answerable"]:
            assert not any(c["has_evidence"] for c in record["chunks"].values())

    port = next(r for r in records if r["id"] == "port")
    assert ["pg-main", 1] in port["terms"]  # the analysed terms with their document frequencies
    evidence = [c for c in port["chunks"].values() if c["has_evidence"]]
    assert [c["path"] for c in evidence] == ["Services/Postgres.md"]
    assert evidence[0]["expected_note"]


async def test_dumping_the_legs_needs_the_embedder(
    tmp_path: Path, make_vault: VaultWriter, closed_port_url: str
) -> None:
    dump = tmp_path / "legs.jsonl"
    args = base_args(tmp_path, make_vault(NOTES), closed_port_url)
    result = await invoke(*args, "--modes", "keyword", "--dump-legs", dump)
    assert result.exit_code == EXIT_ERROR
    assert "dense search is not ready" in result.stderr
    assert not dump.exists()
