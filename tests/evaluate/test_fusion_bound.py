"""The dominance bound on fusing two legs: tables, and a check against every monotone rule we can enumerate."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from askvault.evaluate.fusion_bound import dominated_by, reachable


@pytest.mark.parametrize(
    ("dense", "keyword", "chunk", "expected"),
    [
        (["a", "b", "c"], ["a", "b", "c"], "c", 2),  # both legs agree: everything above dominates
        (["a", "b", "c"], ["c", "b", "a"], "c", 0),  # first in one leg: nothing beats it in both
        (["a", "b", "c"], ["c", "b", "a"], "b", 0),  # second in both, but a and c each lose a leg to it
        (["a", "b", "e"], ["a", "b"], "e", 2),  # missing from keyword: a and b rank above in both
        (["a", "b"], ["x", "e"], "e", 1),  # only x beats e in keyword, and neither leg lists e and x in dense
        (["a"], ["e"], "e", 0),
        (["a", "e"], [], "e", 1),  # an empty leg: the dense order alone decides
        ([], ["a", "b", "e"], "e", 2),
    ],
)
def test_dominated_by(dense: list[str], keyword: list[str], chunk: str, expected: int) -> None:
    assert dominated_by(dense, keyword, chunk) == expected


@pytest.mark.parametrize(
    ("dense", "keyword", "evidence", "k", "expected"),
    [
        (["a", "b", "c", "e"], ["a", "b", "c", "e"], {"e"}, 3, False),
        (["a", "b", "c", "e"], ["a", "b", "c", "e"], {"e"}, 4, True),
        (["a", "b", "c", "e"], ["e"], {"e"}, 1, True),
        (["a", "b", "c"], ["a", "b", "c"], {"z"}, 3, False),  # evidence neither leg lists
        (["a", "b", "c", "e", "f"], ["a", "b", "c", "f", "e"], {"e", "f"}, 3, False),
        (["a", "b", "c", "e", "f"], ["f", "a", "b", "c", "e"], {"e", "f"}, 3, True),  # f: first in keyword
        (["a", "b"], ["a", "b"], set(), 3, False),
    ],
)
def test_reachable(dense: list[str], keyword: list[str], evidence: set[str], k: int, expected: bool) -> None:
    assert reachable(dense, keyword, evidence, k) is expected


def _fuse(dense: list[str], keyword: list[str], weight: float, rule: str) -> list[str]:
    """Rules strictly increasing in both legs (a weight of 0 or 1 would leave one leg out, and ties to chance):
    weighted RRF at several k and a weighted sum of linear rank scores."""
    size = 50

    def score(leg: list[str], cid: str) -> float:
        if cid not in leg:
            return 0.0
        rank = leg.index(cid)
        return 1.0 / (int(rule) + rank + 1) if rule.isdigit() else (size - rank) / size

    ids = sorted({*dense, *keyword})
    return sorted(ids, key=lambda cid: (-(weight * score(dense, cid) + (1 - weight) * score(keyword, cid)), cid))


def test_no_monotone_rule_passes_the_bound() -> None:
    """On random legs, every rule and weight tried finds the evidence in its top k only where the bound allows."""
    rng = random.Random(2026120201)
    pool = [f"c{i}" for i in range(30)]
    for _ in range(200):
        dense = rng.sample(pool, rng.randint(0, 12))
        keyword = rng.sample(pool, rng.randint(0, 12))
        evidence = set(rng.sample(pool, rng.randint(1, 2)))
        k = rng.randint(1, 4)
        bound = reachable(dense, keyword, evidence, k)
        for weight, rule in itertools.product((0.01, 0.2, 0.5, 0.8, 0.99), ("1", "10", "60", "linear")):
            found = bool(evidence & set(_fuse(dense, keyword, weight, rule)[:k]))
            assert not found or bound, (dense, keyword, evidence, k, weight, rule)


def _record(qid: str, dense: list[str], keyword: list[str], fused: list[str], evidence: set[str]) -> str:
    chunks = {cid: {"has_evidence": cid in evidence} for cid in {*dense, *keyword, *fused}}
    return json.dumps(
        {
            "id": qid,
            "answerable": bool(evidence),
            "dense": [[cid, 0.5] for cid in dense],
            "keyword": [[cid, 1.0] for cid in keyword],
            "fused": fused,
            "chunks": chunks,
        }
    )


def test_the_script_counts_a_legs_file(tmp_path: Path) -> None:
    legs = tmp_path / "run.legs.jsonl"
    rows = [
        _record("q1", ["e", "a"], ["a", "e"], ["e", "a"], {"e"}),  # found, in a leg's top 1, reachable
        _record("q2", ["a", "b", "c", "e"], ["a", "b", "c", "e"], ["a", "b", "c", "e"], {"e"}),  # beaten by three
        _record("q3", ["a", "b", "c", "e"], ["e", "a"], ["a", "b", "c", "e"], {"e"}),  # missed, but reachable
        _record("q4", ["a"], ["a"], ["a"], set()),  # a negative: not counted
    ]
    legs.write_text("\n".join(rows) + "\n", encoding="utf-8")
    only = tmp_path / "set.jsonl"
    only.write_text('{"id": "q1"}\n{"id": "q2"}\n', encoding="utf-8")
    script = Path(__file__).resolve().parents[2] / "eval" / "fusion_bound.py"
    run = [sys.executable, str(script), str(legs), "-k", "1"]
    whole = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert "| run.legs.jsonl | 3 | 1 | 2 | 2 |" in whole
    part = subprocess.run([*run, "--questions", str(only)], capture_output=True, text=True, check=True).stdout
    assert "| run.legs.jsonl | 2 | 1 | 1 | 1 |" in part
