"""The benchmark suite end to end at a tiny size, writing to tmp_path; plus its pure helpers. No timing assertions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.retrieval import label

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from bench import report, suite, synth

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        ("1k,10k,50k", [1000, 10_000, 50_000]),
        ("200", [200]),
        (" 100k , 2.5k ", [100_000, 2500]),
        ("", []),
        ("300k,1m", [300_000, 1_000_000]),
    ],
    ids=["default", "plain-number", "spaces-and-fraction", "empty", "millions"],
)
def test_parse_sizes(text: str, sizes: list[int]) -> None:
    assert suite.parse_sizes(text) == sizes


@pytest.mark.parametrize(
    ("chunks", "shown"),
    [(200, "200"), (1000, "1k"), (300_000, "300k"), (1_000_000, "1m"), (2_500, "2500")],
    ids=["small", "thousand", "hundreds-of-thousands", "million", "odd"],
)
def test_size_labels(chunks: int, shown: str) -> None:
    assert label(chunks) == shown


@pytest.mark.parametrize(
    ("results", "met"),
    [
        ({"sizes": [{"label": "10k", "latency_ms": {"hybrid": {"p50": 4.0}}}]}, True),
        ({"sizes": [{"label": "10k", "latency_ms": {"hybrid": {"p50": 12.0}}}]}, False),
        ({"sizes": [{"label": "1k", "latency_ms": {"hybrid": {"p50": 1.0}}}]}, None),
    ],
    ids=["met", "missed", "size-not-run"],
)
def test_goal_reads_the_size_it_names(results: dict[str, object], met: bool | None) -> None:
    assert report.goals(results)[0]["met"] is met


def test_synthetic_notes_are_deterministic_and_chunk_as_predicted() -> None:
    notes = 40
    texts = [synth.note_text(i, seed=3) for i in range(notes)]
    assert texts == [synth.note_text(i, seed=3) for i in range(notes)]
    resolver = LinkResolver({synth.note_path(i) for i in range(notes)})
    chunked = sum(
        len(chunk_note(parse_note(synth.note_path(i), text, resolver, "askvault"), ChunkParams(), mtime=0.0))
        for i, text in enumerate(texts)
    )
    assert chunked == synth.expected_chunks(notes, seed=3)
    assert synth.notes_for_chunks(chunked, seed=3) == notes


@pytest.mark.timeout(600)
def test_suite_writes_json_markdown_and_plot(tmp_path: Path) -> None:
    options = suite.Options(
        sizes=[200],
        dim=64,
        queries=12,
        repeats=2,
        freshness_notes=60,
        answer_chunks=200,
        sidecar_chunks=200,
        sidecar_runs=1,
        engine_points=300,
        engine_queries=10,
        engines=("edge-store", "qdrant-local"),
        out=tmp_path / "results",
        stamp="2000-01-01",
    )
    paths = suite.run_suite(options)

    assert {p.name for p in (tmp_path / "results").iterdir()} == {"2000-01-01.json", "2000-01-01.md", "2000-01-01.png"}
    results = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert set(results) >= {"meta", "sizes", "freshness", "answer", "sidecar", "engines", "minilm", "goals"}
    assert set(results["meta"]) >= {"date", "commit", "machine", "load_start", "load_end", "parts"}
    (size,) = results["sizes"]
    assert size["label"] == "200"
    assert size["chunks"] >= 200
    assert set(size["latency_ms"]) == {
        "hybrid",
        "dense",
        "keyword",
        "fusion",
        "related",
        "related_longest",
        "numpy_floor",
        "bm25s_floor",
    }
    assert set(size["ratios"]) == {"dense_vs_numpy_p50", "keyword_vs_bm25s_p50", "keyword_rebuild_vs_bm25s_index"}
    assert set(size["index"]) >= {"notes_per_s", "chunks_per_s", "share_outside_embedding", "keyword_rebuild_s"}
    assert set(size["disk_mb_per_1k_chunks"]) >= {"total", "vectors", "manifest"}
    assert size["keyword_top20_exact"] == 1.0  # the keyword leg is exact BM25, ties by rebuild order
    assert size["keyword_top10_same_as_bm25s_up_to_ties"] == 1.0
    assert (size["dense_search"], size["dense_top10_recall"]) == ("exact", 1.0)
    assert set(results["freshness"]) >= {
        "noop_reindex_s",
        "startup_open_s",
        "startup_reconcile_s",
        "save_to_searchable_s",
        "keyword_rebuild_s",
    }
    assert results["freshness"]["save_to_searchable_s"]["n"] == 2
    assert set(results["answer"]) >= {"overhead_ms", "run_to_first_token_ms", "model_ttft_ms"}
    assert results["sidecar"]["chunks"] == results["sidecar"]["chunks_indexed_beforehand"]
    assert results["sidecar"]["peak_rss_mb_runs"] == [results["sidecar"]["peak_rss_mb"]]
    assert [row["engine"] for row in results["engines"]] == ["edge-store", "qdrant-local"]
    assert [goal["name"] for goal in results["goals"]] == [goal.name for goal in report.GOALS]
    assert results["minilm"] == "not run (pass --minilm)"
    markdown = paths["md"].read_text(encoding="utf-8")
    assert "| figure | measured | goal | met? |" in markdown
    assert "## By corpus size" in markdown
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
