"""The embedder bench part end to end on a tiny vault with the real built-in embedder and no HTTP server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.embedder import EmbedderOptions
from bench.embedder_speed import band_of, rotated
from bench.harness import NOWHERE

from askvault.config import BuiltinEmbedParams
from bench import report, suite

pytestmark = pytest.mark.slow

DEFAULT_BATCH = BuiltinEmbedParams().batch


@pytest.mark.parametrize(
    ("length", "band"),
    [(0, "short"), (399, "short"), (400, "medium"), (1200, "medium"), (1201, "long")],
    ids=["empty", "just-short", "medium-from", "medium-to", "just-long"],
)
def test_length_bands(length: int, band: str) -> None:
    assert band_of("x" * length) == band


@pytest.mark.parametrize(
    ("turn", "order"),
    [(0, ["a", "b", "c"]), (1, ["b", "c", "a"]), (2, ["c", "a", "b"]), (3, ["a", "b", "c"])],
    ids=["first", "second", "third", "wraps"],
)
def test_variants_take_turns(turn: int, order: list[str]) -> None:
    assert rotated(["a", "b", "c"], turn) == order


@pytest.mark.parametrize(
    ("batch", "peak", "met"),
    [(1, 120.0, True), (1, 300.0, False), (4, 120.0, None)],
    ids=["met", "missed", "no-row-for-that-batch"],
)
def test_memory_goal_reads_the_batch_the_results_were_measured_at(batch: int, peak: float, met: bool | None) -> None:
    results: dict[str, object] = {
        "sizes": [],
        "embedder": {"defaults": {"batch": batch}, "memory": [{"label": "engine-b1", "added_peak_mb": peak}]},
    }
    # The goal reads the sidecar's row (`engine`): what the built-in embedder adds to the process that runs it.
    (row,) = [g for g in report.goals(results) if str(g["name"]).startswith("RSS the built-in embedder adds")]
    assert row["met"] is met


def _tiny_vault(root: Path) -> Path:
    root.mkdir()
    sentence = "The heat pump's defrost cycle runs when the outdoor coil ices over. "
    (root / "Short.md").write_text("# Short\n\nA kettle boils water.\n", encoding="utf-8")
    (root / "Medium.md").write_text("# Medium\n\n" + sentence * 8 + "\n", encoding="utf-8")
    (root / "Long.md").write_text("# Long\n\n" + sentence * 18 + "\n", encoding="utf-8")
    return root


@pytest.mark.timeout(300)
def test_embedder_part_writes_its_rows(tmp_path: Path) -> None:
    embedder = EmbedderOptions(
        vault=_tiny_vault(tmp_path / "tiny"),
        corpora=None,
        repeats=1,
        index_repeats=1,
        batches=(1, 4),
        threads=(1,),
        memory_batches=(DEFAULT_BATCH,),
        query_calls=3,
        query_warmup=1,
    )
    options = suite.Options(
        parts=("embedder",),
        embedder=embedder,
        ollama_url=NOWHERE,
        out=tmp_path / "results",
        stamp="2000-01-01",
        name="embedder",
    )
    paths = suite.run_suite(options)

    assert {p.name for p in (tmp_path / "results").iterdir()} == {"2000-01-01-embedder.json", "2000-01-01-embedder.md"}
    e = json.loads(paths["json"].read_text(encoding="utf-8"))["embedder"]
    assert e["http"]["ran"] is False
    assert e["http"]["skipped"].startswith("nothing answers at")
    (vault,) = e["vaults"]
    assert vault["label"] == "tiny"
    assert vault["chunks"] == vault["first_index"]["builtin"]["chunks"] >= 3
    assert set(vault) >= {"floor", "builtin", "floor_noopt", "ratios", "match", "bands", "tokens"}
    assert "http" not in vault
    assert set(vault["bands"]) == {"short", "medium", "long"}
    assert vault["match"]["floor_vs_builtin_min_cosine"] >= 0.9999  # the floor computes the same vectors
    assert set(vault["ratios"]) == {"builtin_vs_floor", "floor_noopt_vs_floor"}
    assert [(r["batch"], r["threads"]) for r in e["sweep"]["rows"]] == [(1, 1), (4, 1), (DEFAULT_BATCH, 0)]
    assert all(len(r["seconds"]) == len(r["shipped_seconds"]) == 1 for r in e["sweep"]["rows"])
    assert [m["label"] for m in e["memory"]] == [
        f"{mode}-b{DEFAULT_BATCH}" for mode in ("alone", "floor", "floor-noopt", "engine")
    ]
    assert e["memory"][0]["loaded_before_first_reading"] == []
    assert set(e["query_ms"]) == {"floor", "builtin", "builtin_1_thread"}
    assert all(figures["n"] == 3 for figures in e["query_ms"].values())
    markdown = paths["md"].read_text(encoding="utf-8")
    assert "## The built-in embedder" in markdown
    assert "### Batch size × threads" in markdown
