"""Passages that say nothing, on the real sidecar: `noise` on search hits and related passages, the `boilerplate`
boost, and the explain factor naming it."""

from __future__ import annotations

from pathlib import Path

from tests.api.engine_sidecar import engine_sidecar, results_of, sidecar_config
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

FOOTER = "\n## About this page\n\nPart of the kappa lambda notebook; edit it on the wiki, say if it was helpful.\n"
NOTES = {
    "Kappa.md": "# Kappa\n\nKappa architecture treats all data as a stream and replays the log; no batch layer.\n",
    "Lambda.md": "# Lambda\n\nLambda architecture keeps a batch layer and a speed layer and merges their views.\n",
    "Patterns.md": "# Patterns\n\n## Architecture patterns\n\n- [[Kappa]]\n- [[Lambda]]\n- [[Delta]]\n",
    "Delta.md": "# Delta\n\nDelta architecture is a marketing name for a lakehouse with streaming tables.\n",
}


async def test_noise_is_reported_where_a_passage_is_shown_and_explained(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {path: text + FOOTER for path, text in NOTES.items()})
    question = "kappa lambda architecture"
    async with engine_sidecar(sidecar_config(vault, tmp_path / "data", fake_ollama.url), {}) as car:
        status, search = await car.post("/api/search", {"query": question, "k": 10})
        related_status, related = await car.post("/api/related", {"path": "Kappa.md", "k": 5})
        explained = await car.explain(question, "Patterns.md")
    assert status == 200
    assert related_status == 200
    by_path = {hit["path"]: hit for hit in results_of(search)}
    links = by_path["Patterns.md"]
    assert links["noise"] == {"template": 0, "links": 100, "query": 0, "informative": 0}
    assert links["boosts"] == ["boilerplate"]
    assert "noise" not in by_path["Kappa.md"]
    assert "boosts" not in by_path["Kappa.md"]
    # Lowered by 30 % of its score (the order it then takes is `weigh_noise`'s, tested on its own).
    assert isinstance(links["fused_score"], float)
    assert links["fused_score"] <= 0.7 + 1e-9
    # Footers: in no leg, so never a hit, never a related passage.
    assert all("helpful" not in str(hit["text"]) for hit in results_of(search))
    passages = [hit["passage"] for hit in results_of(related)]
    assert all(isinstance(p, dict) and "helpful" not in str(p["text"]) for p in passages)
    factors = explained["factors"]
    assert isinstance(factors, list)
    kinds = {f["kind"]: f["detail"] for f in factors if isinstance(f, dict)}
    assert kinds["boilerplate"] == (
        "Its best passage (Patterns › Architecture patterns) is 100% links, so it ranks below passages that say "
        "more of their own."
    )
