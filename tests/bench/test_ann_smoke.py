"""The approximate-search bench end to end on tiny random 'real' vectors (no corpus read), and its growth model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench import ann, ann_report, real_vectors

pytestmark = pytest.mark.slow


def _real(n: int, dim: int, seed: int) -> real_vectors.Matrix:
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((8, dim))
    vectors = topics[rng.integers(0, 8, n)] + 0.5 * rng.standard_normal((n, dim)) + 1.0
    unit: real_vectors.Matrix = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    return unit


@pytest.mark.parametrize("isotropic", [False, True], ids=["covariance-noise", "isotropic-noise"])
def test_growth_keeps_the_real_vectors_and_is_deterministic(isotropic: bool) -> None:
    real = _real(50, 16, seed=1)

    grown = real_vectors.grow(real, 400, seed=3, isotropic=isotropic)

    assert grown.shape == (400, 16)
    assert np.allclose(grown[:50], real, atol=1e-6)  # the real ones first (normalised again)
    assert np.allclose(np.linalg.norm(grown, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(grown, real_vectors.grow(real, 400, seed=3, isotropic=isotropic))
    assert not np.array_equal(grown, real_vectors.grow(real, 400, seed=4, isotropic=isotropic))


@pytest.mark.timeout(300)
def test_ann_bench_measures_exact_and_graph_and_writes_its_report(tmp_path: Path) -> None:
    real, queries = _real(60, 16, seed=1), _real(12, 16, seed=2)

    row = ann.run_size(600, real, queries, seed=7, work=tmp_path, variants=["exact", "hnsw-m16"])
    meta = {
        "date": "2000-01-01", "machine": {"nproc": 2, "cpu": "x", "ram_gb": 1}, "load_start": [0], "load_end": [0],
        "model": "random", "real_chunks": {"r": 60}, "questions": 12, "k": ann.K,
    }  # fmt: skip
    results: dict[str, object] = {"meta": meta, "sizes": [row]}
    paths = ann_report.write(results, tmp_path / "out")

    variants = row["variants"]
    assert isinstance(variants, dict)
    assert variants["exact"]["runs"]["exact"]["recall10"] == 1.0
    assert variants["exact"]["runs"]["folder10_exact"]["recall10"] == 1.0
    assert variants["hnsw-m16"]["indexed"] == 600
    assert set(variants["hnsw-m16"]["runs"]) == {*(str(ef) for ef in ann.EFS), "folder10_exact"}
    assert "| 600 × 16 | hnsw-m16 | 512 |" in paths["md"].read_text(encoding="utf-8")
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
